package activities

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"go.temporal.io/sdk/temporal"

	"github.com/toolpipe/toolpipe/contract"
	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/tool/readonly"
)

// bashTool is Bash: a shell command in its own process group (DESIGN §6).
type bashTool struct {
	tool.Base
	a *Activities // nil in Builtins: its declaration only
}

// Bash's limits: a foreground command's timeout (Claude Code's), and the longest
// command `bash -c` can take: Linux's MAX_ARG_STRLEN (32 pages of 4 KiB) bounds
// one argument, its NUL terminator included.
const (
	BashDefaultTimeoutMs = 120_000
	BashMaxTimeoutMs     = 600_000
	MaxArgBytes          = 32*4096 - 1
	bashMaxResultChars   = 30_000
)

// bashTimeoutMargin is how long past its own timeout a Bash activity may take to kill
// its process group and report, before Temporal gives up on it.
const bashTimeoutMargin = time.Minute

const bashTooBigHint = ": write a long script to a file with Write and run the file"

func (bashTool) Spec() tool.Spec {
	return tool.Spec{Name: tool.BashName, Description: bashDescription, InputSchema: bashSchema,
		MaxResultSizeChars: bashMaxResultChars, Interrupt: tool.InterruptCancel, CancelsSiblings: true,
		MaxInputBytes: maxShortInputBytes, TooBigHint: bashTooBigHint,
		Builtin: true, Coerce: true, RoundUp: []string{"timeout"}}
}

var bashDescription = fmt.Sprintf(`Runs a bash command and returns its output (stdout and stderr as they interleaved), preceded by "Exit code N" when the command fails.

- Each call starts a fresh shell in the working directory: cd, shell variables and activated environments do not carry over to the next call. Use absolute paths, or chain dependent steps in one command with && (cd sub && make).
- timeout is in milliseconds: %s (2 minutes) by default, at most %s (10 minutes). A command still running then is killed together with every process it started.
- Output over %s characters is saved to a file: you get its path and a preview of the beginning, and can Read or Grep the file for the rest.
- A command is at most %s bytes; write a longer script to a file with Write and run the file.
- Use Bash for builds, tests, git, package managers and other programs. Do not use it to find, search or show files: Glob finds files by name, Grep searches contents, Read shows a file and Edit or Write change one. They are faster, their output is made for you, and they run in parallel.
- Commands that only read (ls, git status, git diff, cat and the like) run in parallel with other read-only calls. Any other command runs alone, and when it fails, the calls sent with it in the same message are cancelled; send independent commands that change things in separate messages, or chain them with && or ;.
- Interactive programs (editors, pagers, prompts) cannot be answered: use flags that make them non-interactive (git --no-pager, -y, --yes).
- Quote paths that contain spaces ("path with spaces/file"). Give description: what the command does, in 5-10 words.
- The command may run in a sandbox (files writable only in the working directory, no network). Set dangerouslyDisableSandbox only when the sandbox is what makes the command fail; the user's settings decide whether that is allowed.`,
	num(BashDefaultTimeoutMs), num(BashMaxTimeoutMs), num(bashMaxResultChars), num(MaxArgBytes))

const bashSchema = `{
  "type": "object",
  "properties": {
    "command": {"type": "string", "description": "The command to execute"},
    "timeout": {"type": "integer", "description": "Optional timeout in milliseconds (max 600000 for a foreground command; larger values are capped). With run_in_background, how long the command may run before it is stopped (default 1800000, max 7200000)"},
    "description": {"type": "string", "description": "Clear, concise description of what this command does in 5-10 words"},
    "run_in_background": {"type": "boolean", "description": "Set to true to run this command in the background. The call returns at once with a task id and the file its output is written to (Read it to see interim output); you are told when it ends. Stop it with TaskStop."},
    "dangerouslyDisableSandbox": {"type": "boolean", "description": "Set this to true to dangerously override sandbox mode and run commands without sandboxing."}
  },
  "required": ["command"],
  "additionalProperties": false
}`

// IsConcurrencySafe: a read-only command (tool/readonly). A background call is never
// safe: it returns at once, so running it alone costs nothing, and turns recorded
// before background shells (whose schema refused run_in_background, which made the
// call unsafe) replay with the schedule they ran.
func (bashTool) IsConcurrencySafe(in json.RawMessage) bool {
	var b tool.BashInput
	return json.Unmarshal(in, &b) == nil && !b.RunInBackground && readonly.IsReadOnly(b.Command)
}

// CheckInput refuses a command longer than the kernel lets `bash -c` take, which
// would otherwise fail to start with "argument list too long".
func (bashTool) CheckInput(in json.RawMessage) error {
	var b tool.BashInput
	if err := json.Unmarshal(in, &b); err != nil {
		return err
	}
	if len(b.Command) > MaxArgBytes {
		return fmt.Errorf("the command is %d bytes; bash -c takes at most %d (the kernel's limit on one argument)%s",
			len(b.Command), MaxArgBytes, bashTooBigHint)
	}
	return nil
}

// RepairInput: `timeout_ms` for `timeout` and `command_description` for
// `description`, find -exec's `\\;` in the command (Claude Code 2.1.328's coerceInput).
func (bashTool) RepairInput(in map[string]any) (string, bool) { return repairBash(in) }

// Timeout is the command's own (the default, at most the maximum) and the time to
// kill its process group and report.
func (bashTool) Timeout(input json.RawMessage) time.Duration {
	var in tool.BashInput
	_ = json.Unmarshal(input, &in) // validated before
	return bashTimeout(in) + bashTimeoutMargin
}

// bashTimeout is how long a foreground command may run.
func bashTimeout(in tool.BashInput) time.Duration {
	ms := in.TimeoutMs
	if ms <= 0 {
		ms = BashDefaultTimeoutMs
	}
	return time.Duration(min(ms, BashMaxTimeoutMs)) * time.Millisecond
}

// Summary: the command.
func (t bashTool) Summary(input json.RawMessage) string {
	return tool.Title(tool.BashName, tool.Code(t.Subject(input), false))
}

// Access: the command, read-only when the classifier says so.
func (bashTool) Access(input json.RawMessage) tool.Access {
	var in tool.BashInput
	_ = json.Unmarshal(input, &in) // validated against the schema before
	return tool.Access{Kind: tool.AccessCommand, Command: in.Command, ReadOnly: readonly.IsReadOnly(in.Command)}
}

// HookResponse is Bash's tool_response (sdk-tools.d.ts BashOutput), from the result:
// Claude Code runs the command with stderr joined to stdout, so Stderr is empty and
// Stdout holds both, the final newline trimmed.
func (bashTool) HookResponse(_ json.RawMessage, content string) any {
	return BashResponse{Stdout: strings.TrimSuffix(content, "\n"), Stderr: ""}
}

// BashResponse is Bash's tool_response (sdk-tools.d.ts BashOutput).
type BashResponse struct {
	Stdout           string `json:"stdout"`
	Stderr           string `json:"stderr"`
	Interrupted      bool   `json:"interrupted"`
	IsImage          bool   `json:"isImage"`
	NoOutputExpected bool   `json:"noOutputExpected"`
	BackgroundTaskID string `json:"backgroundTaskId,omitempty"`
	// PersistedOutputPath and PersistedOutputSize are set when the output was
	// over its threshold and saved whole to a file.
	PersistedOutputPath string `json:"persistedOutputPath,omitempty"`
	PersistedOutputSize int64  `json:"persistedOutputSize,omitempty"`
}

func (t bashTool) Run(ctx context.Context, call tool.Call) (tool.Output, error) {
	if t.a == nil {
		return tool.Output{}, errUnbound(call)
	}
	return t.a.Bash(ctx, call)
}

// repairBash: `timeout_ms` for `timeout` and `command_description` for
// `description`; and in the command, `\\;` (find -exec's terminator escaped
// twice, as models write it from a JSON-escaped example) is `\;`.
func repairBash(in map[string]any) (string, bool) {
	changed := false
	if c, ok := in["command"].(string); ok && strings.Contains(c, `\\;`) {
		in["command"] = strings.ReplaceAll(c, `\\;`, `\;`)
		changed = true
	}
	if v, ok := in["timeout_ms"]; ok {
		if _, has := in["timeout"]; !has && isTimeout(v) {
			in["timeout"] = v
			delete(in, "timeout_ms")
			changed = true
		}
	}
	if v, ok := in["command_description"]; ok {
		if _, has := in["description"]; !has {
			if s, ok := v.(string); ok {
				in["description"] = s
			}
		}
		delete(in, "command_description")
		changed = true
	}
	return "", changed
}

// isTimeout: a number, or digits in a string.
func isTimeout(v any) bool {
	switch x := v.(type) {
	case string:
		return x != "" && strings.Trim(x, "0123456789") == ""
	default:
		_, ok := tool.WholeNumber(v)
		return ok
	}
}

// Bash runs a shell command in its own process group in the working directory. A
// non-zero exit is an error result; cancellation and the command's timeout kill the
// whole group.
func (a *Activities) Bash(ctx context.Context, call tool.Call) (tool.Output, error) {
	var in tool.BashInput
	if err := json.Unmarshal(call.Input, &in); err != nil {
		return tool.Output{}, badCall(call, err)
	}
	timeout := bashTimeout(in)
	ms := in.TimeoutMs // the message names the timeout asked for
	if ms <= 0 {
		ms = BashDefaultTimeoutMs
	}
	tail := &tailer{}
	stop := keepAlive(ctx, call.ToolUseID, tail.progress)
	defer stop()
	run := a.bashProcess(call, in, timeout, tail)
	defer run.cleanup()
	if run.refuse != "" {
		return tool.Output{Content: run.refuse, IsError: true}, nil
	}
	res, err := runGroup(ctx, a.scratch(call), run.spec)
	if err != nil {
		if ctx.Err() != nil {
			return tool.Output{}, ctx.Err()
		}
		return tool.Output{}, temporal.NewApplicationErrorWithOptions(
			fmt.Sprintf("bash: %v", err), contract.ErrInfrastructure, temporal.ApplicationErrorOptions{Cause: err})
	}
	defer res.discard()
	if !res.timedOut {
		a.noteExit(call, res.exitCode)
	}
	out, err := a.sizeControl(call, res.output)
	if err != nil {
		return tool.Output{}, err
	}
	out = bashResult(out, res.exitCode, res.timedOut, ms)
	for _, n := range run.notes {
		out.Content = joinNonEmpty(out.Content, n)
	}
	return out, nil
}

func joinNonEmpty(a, b string) string {
	if strings.TrimSpace(a) == "" {
		return b
	}
	return strings.TrimRight(a, "\n") + "\n" + b
}

// safeName keeps a session id usable as one path element.
func safeName(s string) string {
	if s == "" {
		return "default"
	}
	return strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == 0 {
			return '_'
		}
		return r
	}, s)
}

// badCall is the failure for an input the workflow should never have sent.
func badCall(call tool.Call, err error) error {
	return temporal.NewApplicationErrorWithOptions(
		fmt.Sprintf("%s: undecodable input: %v", call.Name, err), contract.ErrBadCall,
		temporal.ApplicationErrorOptions{NonRetryable: true, Cause: err})
}
