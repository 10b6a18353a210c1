package activities

import (
	"encoding/json"
	"fmt"
	"strconv"
	"sync"

	"go.temporal.io/sdk/temporal"

	"github.com/toolpipe/toolpipe/contract"
	"github.com/toolpipe/toolpipe/tool"
)

// The built-in tools, one file each: bash.go, read.go, write.go, edit.go, glob.go,
// grep.go, webfetch.go, notebookedit.go (TaskStop, which the session answers, is
// tool.TaskStop).
// Each file holds the whole tool: its declaration for the model, its checks and
// repairs, what people and hooks see, and the function that runs it.

// builtins returns the built-in tools bound to a (nil: their declarations only).
func builtins(a *Activities) []tool.Tool {
	return []tool.Tool{
		bashTool{a: a}, readTool{a: a}, writeTool{a: a}, editTool{a: a},
		globTool{a: a}, grepTool{a: a}, webFetchTool{a: a}, notebookEditTool{a: a}, tool.TaskStop{},
	}
}

// Builtins is the registry of the built-in tools, for what only reads their
// declarations: a client dropping oversize inputs, a command checking a tool name,
// tests. A worker's registry is its Activities' (Registry), whose tools run.
var Builtins = sync.OnceValue(func() *tool.Registry { return tool.MustRegistry(builtins(nil)...) })

// Registry is the tools these activities run and the workflows they serve
// schedule: the built-in ones and Config.Tools. Hand it to the workflows of the
// same worker (workflows.New).
func (a *Activities) Registry() *tool.Registry { return a.reg }

// maxShortInputBytes bounds the raw input of tools whose fields are commands,
// paths, patterns and URLs: far above any usable value (a command over MaxArgBytes
// cannot run; a path over 4 KiB cannot be opened), far below what slows a workflow
// task.
const maxShortInputBytes = 1 << 20

// maxContentInputBytes bounds Write and Edit inputs: 16 MiB is far more than a
// model writes in one message, and validating it stays well inside a workflow
// task's deadlock timeout.
const maxContentInputBytes = tool.MaxBlockInputBytes

const contentTooBigHint = ": generate a file that large with a command or script instead"

// filePath is the file_path of an input (validated before).
func filePath(input json.RawMessage) string {
	var in struct {
		FilePath string `json:"file_path"`
	}
	_ = json.Unmarshal(input, &in)
	return in.FilePath
}

// searchSummary is Glob's and Grep's title: the pattern, then the files and the
// directory searched.
func searchSummary(name string, input json.RawMessage) string {
	var in struct {
		Pattern string `json:"pattern"`
		Path    string `json:"path"`
		Glob    string `json:"glob"`
	}
	_ = json.Unmarshal(input, &in) // an input that does not parse still gets a title
	parts := []string{tool.Code(in.Pattern, false)}
	if in.Glob != "" {
		parts = append(parts, "in files", tool.Code(in.Glob, false))
	}
	if in.Path != "" {
		parts = append(parts, "in", tool.Code(in.Path, true))
	}
	return tool.Title(name, parts...)
}

// errUnbound is the failure of a built-in tool's Run from Builtins, which has no
// worker to run on.
func errUnbound(call tool.Call) error {
	return temporal.NewApplicationErrorWithOptions(fmt.Sprintf("%s: this tool is a declaration (activities.Builtins); run it through a worker's Activities", call.Name),
		contract.ErrInfrastructure, temporal.ApplicationErrorOptions{NonRetryable: true})
}

// num writes n with thousands separators, as the descriptions write numbers.
func num(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
