package tool

import (
	"github.com/toolpipe/toolpipe/tool/readonly"

	"encoding/json"
	"fmt"
	"net/url"
	"slices"
)

// The tool names of DESIGN §6 (Claude Code's).
const (
	BashName     = "Bash"
	ReadName     = "Read"
	WriteName    = "Write"
	EditName     = "Edit"
	GlobName     = "Glob"
	GrepName     = "Grep"
	WebFetchName = "WebFetch"
)

// Bash timeouts of DESIGN §6, in milliseconds.
const (
	BashDefaultTimeoutMs = 120_000
	BashMaxTimeoutMs     = 600_000
)

// MaxArgBytes is the longest command `bash -c` can take: Linux's MAX_ARG_STRLEN
// (32 pages of 4 KiB) bounds one argument, its NUL terminator included.
const MaxArgBytes = 32*4096 - 1

// maxShortInputBytes bounds the raw input of tools whose fields are commands,
// paths, patterns and URLs: far above any usable value (a command over MaxArgBytes
// cannot run; a path over 4 KiB cannot be opened), far below what slows a workflow
// task.
const maxShortInputBytes = 1 << 20

// maxContentInputBytes bounds Write and Edit inputs: 16 MiB is far more than a
// model writes in one message, and validating it stays well inside a workflow
// task's deadlock timeout.
const maxContentInputBytes = 16 << 20

const contentTooBigHint = ": generate a file that large with a command or script instead"

// always is ReadOnly for tools that never change anything.
func always(json.RawMessage) bool { return true }

var registry = map[string]*Definition{
	BashName: {
		Name: BashName, MaxResultSizeChars: 30_000, Interrupt: InterruptCancel,
		// A background call is never concurrency-safe: it returns at once, so running
		// it alone costs nothing, and turns recorded before background shells (whose
		// schema refused run_in_background, which made the call unsafe) replay with the
		// schedule they ran.
		ReadOnly: func(in json.RawMessage) bool {
			var b BashInput
			return json.Unmarshal(in, &b) == nil && !b.RunInBackground && readonly.IsReadOnly(b.Command)
		},
		Check: checkBash, schema: mustCompile(BashName, bashSchema),
		MaxInputBytes: maxShortInputBytes, tooBigHint: bashTooBigHint,
	},
	ReadName: {
		Name: ReadName, MaxResultSizeChars: Unlimited, Interrupt: InterruptCancel,
		ReadOnly: always, schema: mustCompile(ReadName, readSchema),
		MaxInputBytes: maxShortInputBytes,
	},
	WriteName: {
		Name: WriteName, MaxResultSizeChars: 100_000, Interrupt: InterruptBlock,
		schema:        mustCompile(WriteName, writeSchema),
		MaxInputBytes: maxContentInputBytes, tooBigHint: contentTooBigHint,
	},
	EditName: {
		Name: EditName, MaxResultSizeChars: 100_000, Interrupt: InterruptBlock,
		Check: checkEdit, schema: mustCompile(EditName, editSchema),
		MaxInputBytes: maxContentInputBytes, tooBigHint: contentTooBigHint,
	},
	GlobName: {
		Name: GlobName, MaxResultSizeChars: 100_000, Interrupt: InterruptCancel,
		ReadOnly: always, schema: mustCompile(GlobName, globSchema),
		MaxInputBytes: maxShortInputBytes,
	},
	GrepName: {
		Name: GrepName, MaxResultSizeChars: 20_000, Interrupt: InterruptCancel,
		ReadOnly: always, schema: mustCompile(GrepName, grepSchema),
		MaxInputBytes: maxShortInputBytes,
	},
	TaskStopName: taskStopDefinition,
	WebFetchName: {
		Name: WebFetchName, MaxResultSizeChars: 100_000, Interrupt: InterruptCancel,
		ReadOnly: always, Check: checkURL, schema: mustCompile(WebFetchName, webFetchSchema),
		MaxInputBytes: maxShortInputBytes,
	},
}

const bashTooBigHint = ": write a long script to a file with Write and run the file"

// checkBash refuses a command longer than the kernel lets `bash -c` take, which
// would otherwise fail to start with "argument list too long".
func checkBash(in json.RawMessage) error {
	var b BashInput
	if err := json.Unmarshal(in, &b); err != nil {
		return err
	}
	if len(b.Command) > MaxArgBytes {
		return fmt.Errorf("the command is %d bytes; bash -c takes at most %d (the kernel's limit on one argument)%s",
			len(b.Command), MaxArgBytes, bashTooBigHint)
	}
	return nil
}

// Lookup finds a tool by its exact (case-sensitive) name: a built-in tool, then a
// custom tool registered in this process (custom.go).
func Lookup(name string) (*Definition, bool) {
	if d, ok := registry[name]; ok {
		return d, true
	}
	return lookupCustom(name)
}

// Names lists the built-in tools, sorted (CustomNames lists the others).
func Names() []string {
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

func checkEdit(in json.RawMessage) error {
	var e EditInput
	if err := json.Unmarshal(in, &e); err != nil {
		return err
	}
	if e.OldString == e.NewString {
		return fmt.Errorf("No changes to make: old_string and new_string are exactly the same.")
	}
	return nil
}

func checkURL(in json.RawMessage) error {
	var w WebFetchInput
	if err := json.Unmarshal(in, &w); err != nil {
		return err
	}
	u, err := url.Parse(w.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("url %q is not an absolute http or https URL", w.URL)
	}
	return nil
}
