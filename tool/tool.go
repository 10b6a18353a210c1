package tool

import (
	"bytes"
	"context"
	"encoding/json"
	"time"
)

// Tool is one tool, toolpipe's own or a program's, in one place: what the model is
// told of it, how a turn checks, schedules and gates its calls, what people see of
// a call, what hooks get, and the function that runs it. A built-in tool is one
// file that implements it (activities/<tool>.go); a program's own tool is one
// NewCustom makes; both go into the same Registry.
//
// Every method but Run is pure and deterministic: workflow code calls them while
// it schedules, on every worker and on every replay, so they read nothing but
// their arguments (no clock, no files, no randomness) and must not change for an
// input a recorded turn already judged. Embed Base for the defaults.
type Tool interface {
	// Spec is what does not depend on a call: the name, the declaration the model
	// reads, the limits and the interrupt behaviour.
	Spec() Spec
	// IsConcurrencySafe says whether a call with this input may run beside other
	// safe calls, and be tried again after its worker was lost (DESIGN §3.2). A
	// built-in tool may be asked about any input; a program's own tool only about
	// inputs its schema accepts. Default: never.
	IsConcurrencySafe(input json.RawMessage) bool
	// PreCheck refuses an input before the schema judges it, for a refusal Claude
	// Code words otherwise than a schema failure (Grep's head_limit). Default: none.
	PreCheck(input json.RawMessage) error
	// CheckInput is the tool's own check of an input the schema accepted; its
	// message is what the model reads. Default: none.
	CheckInput(input json.RawMessage) error
	// RepairInput is the first step of reading an input as Claude Code reads it:
	// the parameter names models borrow from other tools, renamed in the decoded
	// object in place. It returns the note the result ends with ("" for none) and
	// whether it changed anything (repair.go). Default: none.
	RepairInput(in map[string]any) (note string, changed bool)
	// Timeout is how long a call of this input may run (its activity's
	// start-to-close timeout); 0 means DefaultTimeout.
	Timeout(input json.RawMessage) time.Duration
	// Subject is the call's main argument as people read it ("npm test", a path),
	// before it is shortened: the turn's list of calls, the approval question and
	// the sibling-cancel message name a call by it (Definition.Describe).
	Subject(input json.RawMessage) string
	// Summary is the call's one-line title in the Temporal UI, in markdown (Code
	// makes its arguments code spans); "" means the name and the subject.
	Summary(input json.RawMessage) string
	// Access is what the permission check sees of a call (DESIGN §5).
	Access(input json.RawMessage) Access
	// HookInput is the tool_input hooks read, Claude Code's defaults filled in;
	// nil means the input as it is.
	HookInput(input json.RawMessage) json.RawMessage
	// HookResponse is the tool_response PostToolUse hooks read when the call's
	// Output carries none (an older worker ran it, or it failed before it could
	// build one), derived from the result text; nil means the text itself.
	HookResponse(input json.RawMessage, content string) any
	// Run runs one call, in its activity, on a worker. A tool error the model
	// should see is an Output with IsError; an error return is a failure of the
	// worker, retried when the call is safe. When call.Response is set, PostToolUse
	// hooks will read the Output's Response: the tool's tool_response in Claude
	// Code's shape (sdk-tools.d.ts).
	Run(ctx context.Context, call Call) (Output, error)
}

// Spec is the part of a tool that does not depend on a call.
type Spec struct {
	// Name is what the model calls the tool (Claude Code's names for the built-in
	// ones).
	Name string
	// Description tells the model what the tool does and when to use it.
	Description string
	// InputSchema is the JSON Schema of the input, as the model reads it: an
	// object schema without external references.
	InputSchema string
	// MaxResultSizeChars is the largest result returned inline (DESIGN §4.1);
	// Unlimited exempts the tool, 0 means DefaultMaxResultSizeChars.
	MaxResultSizeChars int
	// MaxInputBytes bounds the raw input (0: MaxBlockInputBytes). Workflow code
	// parses inputs several times in one workflow task, and a task that runs past
	// its deadlock timeout is retried forever: a 10 MB command or path must fail
	// fast with a clear error instead. TooBigHint ends that error: what to do.
	MaxInputBytes int
	TooBigHint    string
	// Interrupt is what a user's new message does to a running call; "" means
	// InterruptBlock (DESIGN §3.7).
	Interrupt InterruptBehavior
	// CancelsSiblings: an error result of a call that ran cancels the calls beside
	// it (Bash, DESIGN §3.6).
	CancelsSiblings bool
	// Searches: the tool's calls search directory trees (Glob, Grep): under a
	// permission policy they get the Scope of what their results may show.
	Searches bool
	// InSession: the turn hands the tool's calls to its session, which answers them
	// (TaskStop); no activity runs them.
	InSession bool
	// Builtin marks toolpipe's own tools: the binary versions them, so a turn
	// checks only that a worker has one, where a program's own tool must have the
	// same contract on every worker (Definition.Fingerprint).
	Builtin bool
	// Coerce reads inputs as Claude Code's schemas read them (repair.go): numbers
	// and booleans sent as strings, integers written 2.0, and RepairInput's
	// renames. RepairIfValid keeps a rename only when the repaired input is
	// valid; RoundUp are integer parameters whose fractions are rounded up.
	Coerce        bool
	RepairIfValid bool
	RoundUp       []string
}

// AccessKind says which permission rules apply to a call beside the ones that
// name its tool (DESIGN §5): Read rules to the tools that read files, Edit rules
// to those that change them, as in Claude Code.
type AccessKind string

// The kinds of access.
const (
	// AccessOther is a tool no specifier rule covers (MCP and custom tools): only
	// rules naming it whole.
	AccessOther AccessKind = "other"
	// AccessCommand runs a shell command (Bash): command rules.
	AccessCommand AccessKind = "command"
	// AccessRead reads files (Read, Glob, Grep): Read path rules.
	AccessRead AccessKind = "read"
	// AccessEdit changes files (Edit, Write, NotebookEdit): Edit path rules.
	AccessEdit AccessKind = "edit"
	// AccessURL fetches a URL (WebFetch): domain rules.
	AccessURL AccessKind = "url"
)

// Access is what the permission check sees of a call.
type Access struct {
	// Kind says which rules apply; "" means a tool that declares none: AccessOther,
	// read-only when it is concurrency-safe (an MCP tool's readOnlyHint, a custom
	// tool's IsConcurrencySafe), so that plan mode does not refuse what only reads.
	Kind AccessKind
	// Paths are the files and directories the call names, as written (relative
	// ones are taken from the working directory; "" is the working directory).
	Paths []string
	// Command is the shell command of an AccessCommand call.
	Command string
	// URL is the URL of an AccessURL call.
	URL string
	// ReadOnly says the call only reads.
	ReadOnly bool
}

// DefaultMaxResultSizeChars is the threshold of a tool that declares none: the
// built-in tools' that do not limit themselves (the global cap of DESIGN §4.1
// still applies below it).
const DefaultMaxResultSizeChars = 100_000

// DefaultTimeout bounds a call of a tool whose Timeout says nothing.
const DefaultTimeout = 10 * time.Minute

// Base gives a Tool the defaults of every method but Spec and Run: embed it and
// override what the tool does otherwise.
type Base struct{}

// IsConcurrencySafe: never.
func (Base) IsConcurrencySafe(json.RawMessage) bool { return false }

// PreCheck: no check before the schema.
func (Base) PreCheck(json.RawMessage) error { return nil }

// CheckInput: no check of the tool's own.
func (Base) CheckInput(json.RawMessage) error { return nil }

// RepairInput: no renames.
func (Base) RepairInput(map[string]any) (string, bool) { return "", false }

// Timeout: DefaultTimeout.
func (Base) Timeout(json.RawMessage) time.Duration { return 0 }

// Subject is the first of the fields tools name their main argument by: command,
// file_path, pattern, url.
func (Base) Subject(input json.RawMessage) string {
	var f struct {
		Command  string `json:"command"`
		FilePath string `json:"file_path"`
		Pattern  string `json:"pattern"`
		URL      string `json:"url"`
	}
	_ = json.Unmarshal(input, &f) // a bad input still gets a name
	for _, s := range []string{f.Command, f.FilePath, f.Pattern, f.URL} {
		if s != "" {
			return s
		}
	}
	return ""
}

// Summary: the name and the subject.
func (Base) Summary(json.RawMessage) string { return "" }

// Access: none declared (see Access.Kind).
func (Base) Access(json.RawMessage) Access { return Access{} }

// HookInput: the input as it is.
func (Base) HookInput(json.RawMessage) json.RawMessage { return nil }

// HookResponse: the result text.
func (Base) HookResponse(json.RawMessage, string) any { return nil }

// CompactJSON is an input on one line; an input that is not JSON shows as sent.
func CompactJSON(in json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, in) != nil {
		return string(in)
	}
	return b.String()
}
