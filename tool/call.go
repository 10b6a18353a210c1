package tool

import (
	"encoding/json"
	"slices"

	"github.com/toolpipe/toolpipe/sandbox"
)

// Call is what a tool activity receives: the block plus the turn context it needs.
// It is a workflow-to-activity payload, so it carries references, never file content.
type Call struct {
	SessionID string          `json:"session_id"`
	ToolUseID string          `json:"tool_use_id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	// Workdir is the tools' working directory: Bash runs there, relative paths
	// resolve there.
	Workdir string `json:"workdir"`
	// Generation is the session's placement generation on a fleet (0: not placed):
	// a host refuses a call whose generation the session has moved past (the fence,
	// activities/fence.go).
	Generation int `json:"generation,omitempty"`
	// ReadFiles are the files read in this session so far; Edit and Write refuse to
	// change an existing file that is not among them, as Claude Code does.
	ReadFiles []string `json:"read_files,omitempty"`
	// PartialFiles are those of ReadFiles the session saw only part of: its last
	// Read of them had a range that left lines out. An Edit of one does not say the
	// model's view of the file is current.
	PartialFiles []string `json:"partial_files,omitempty"`
	// Scope limits what Glob and Grep show; nil when the turn has no
	// permission settings.
	Scope *Scope `json:"scope,omitempty"`
	// Sandbox are the session's sandbox settings, which Bash applies; nil: none.
	Sandbox *sandbox.Settings `json:"sandbox,omitempty"`
	// SandboxOnly says the call was allowed only because it runs sandboxed
	// (autoAllowBashIfSandboxed): it must not run outside the sandbox, even where
	// failIfUnavailable is off.
	SandboxOnly bool `json:"sandbox_only,omitempty"`
	// ReadOnlySandbox says the call runs without approval only because its
	// command was classified read-only: Bash runs it in the read-only sandbox
	// where one can start, whatever the sandbox settings and
	// dangerouslyDisableSandbox say.
	ReadOnlySandbox bool `json:"read_only_sandbox,omitempty"`
	// Response asks for Output.Response: PostToolUse hooks will read it.
	Response bool `json:"response,omitempty"`
	// FailOnError asks the activity to fail (contract.ErrToolError, the Output as
	// its detail) when the result is an error, so that the Web UI draws the call as
	// failed rather than completed. Turns from before it take the result as the
	// activity's value.
	FailOnError bool `json:"fail_on_error,omitempty"`
	// Declared is what the turn knew of the call's tool when it started the call,
	// so that the activity does not look the tool up again (an MCP tool is not in
	// the worker's registry at all). nil in the calls of workflows from before it:
	// the activity then looks the tool up.
	Declared *Declared `json:"declared,omitempty"`
}

// Declared is what a turn knew of a call's tool: whether the call is
// concurrency-safe (it ran beside other safe calls, and is retried after a lost
// worker) and the tool's declared persistence threshold (before the operator's
// override, which the worker applies).
type Declared struct {
	Safe               bool `json:"safe"`
	MaxResultSizeChars int  `json:"max_result_size_chars"`
}

// Output is what a tool activity returns: the model-facing content and the changes
// the call makes to the turn context, applied when the result is yielded.
type Output struct {
	Content  string    `json:"content"`
	IsError  bool      `json:"is_error"`
	Modifier *Modifier `json:"modifier,omitempty"`
	// Response is the structured tool_response of Claude Code's tool (the output
	// types of its sdk-tools.d.ts), when the call asked for it; it is for hooks,
	// never for the model.
	Response json.RawMessage `json:"response,omitempty"`
}

// Modifier is a context modifier: a change a tool result makes to the turn context.
type Modifier struct {
	// ReadFiles are files this call read or wrote, which later Edit/Write calls may
	// change. They are facts about the files, so they apply from every tool, safe or
	// not, like Claude Code's shared readFileState.
	ReadFiles []string `json:"read_files,omitempty"`
	// PartialFiles are those of ReadFiles the call leaves seen only in part; the
	// others it leaves seen whole.
	PartialFiles []string `json:"partial_files,omitempty"`
}

// Context is the turn context that modifiers change.
type Context struct {
	ReadFiles    []string `json:"read_files,omitempty"`
	PartialFiles []string `json:"partial_files,omitempty"`
}

// Apply returns ctx changed by m. Paths stay sorted and unique so that the context
// (which travels in workflow payloads) is deterministic.
func (ctx Context) Apply(m *Modifier) Context {
	if m == nil || len(m.ReadFiles) == 0 {
		return ctx
	}
	files, partial := slices.Clone(ctx.ReadFiles), slices.Clone(ctx.PartialFiles)
	for _, f := range m.ReadFiles {
		if i, found := slices.BinarySearch(files, f); !found {
			files = slices.Insert(files, i, f)
		}
		i, found := slices.BinarySearch(partial, f)
		switch part := slices.Contains(m.PartialFiles, f); {
		case part && !found:
			partial = slices.Insert(partial, i, f)
		case !part && found:
			partial = slices.Delete(partial, i, i+1)
		}
	}
	if len(partial) == 0 {
		partial = nil
	}
	return Context{ReadFiles: files, PartialFiles: partial}
}
