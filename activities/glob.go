package activities

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/bmatcuk/doublestar/v4"
	"go.temporal.io/sdk/temporal"

	"github.com/toolpipe/toolpipe/contract"
	"github.com/toolpipe/toolpipe/search"
	"github.com/toolpipe/toolpipe/tool"
)

// globTool is Glob: the files a pattern matches, oldest first.
type globTool struct {
	tool.Base
	a *Activities // nil in Builtins: its declaration only
}

func (globTool) Spec() tool.Spec {
	return tool.Spec{Name: tool.GlobName, Description: globDescription, InputSchema: globSchema,
		Interrupt: tool.InterruptCancel, MaxInputBytes: maxShortInputBytes, Searches: true, Builtin: true, Coerce: true}
}

var globDescription = fmt.Sprintf(`Finds files whose paths match a glob pattern, such as **/*.go or src/**/*.{ts,tsx}.

- It searches the working directory, or path when given (a directory; omit the field for the working directory rather than passing "undefined" or "null").
- It lists paths relative to the working directory (absolute outside it), the oldest first, at most %s; when more match, the result says how many, and a narrower pattern finds the rest.
- Use it instead of find or ls with Bash to locate files by name; use Grep to search inside files.
- Searches are read-only: put independent Glob and Grep calls in one message and they run in parallel.`, num(search.GlobLimit))

const globSchema = `{
  "type": "object",
  "properties": {
    "pattern": {"type": "string", "minLength": 1, "description": "The glob pattern to match files against"},
    "path": {"type": "string", "description": "The directory to search in. If not specified, the current working directory will be used. IMPORTANT: Omit this field to use the default directory. DO NOT enter \"undefined\" or \"null\" - simply omit it for the default behavior. Must be a valid directory path if provided."}
  },
  "required": ["pattern"],
  "additionalProperties": false
}`

// globInput is the input of Glob.
type globInput struct {
	Pattern string `json:"pattern"`
	Path    string `json:"path,omitempty"`
}

// IsConcurrencySafe: always.
func (globTool) IsConcurrencySafe(json.RawMessage) bool { return true }

// RepairInput reads an empty pattern as every file.
func (globTool) RepairInput(in map[string]any) (string, bool) { return repairGlob(in) }

// Summary: the pattern and where.
func (globTool) Summary(input json.RawMessage) string { return searchSummary(tool.GlobName, input) }

// Access: the directory searched, under Read rules. An absolute pattern is searched
// from its fixed prefix, whatever path says.
func (globTool) Access(input json.RawMessage) tool.Access {
	var in globInput
	_ = json.Unmarshal(input, &in) // validated against the schema before
	p := in.Path
	if path.IsAbs(in.Pattern) {
		p, _ = doublestar.SplitPattern(in.Pattern)
	}
	return tool.Access{Kind: tool.AccessRead, Paths: []string{p}}
}

// Run lists the files; for PostToolUse hooks, the tool_response is GlobOutput.
func (t globTool) Run(ctx context.Context, call tool.Call) (tool.Output, error) {
	if t.a == nil {
		return tool.Output{}, errUnbound(call)
	}
	start := time.Now()
	out, err := t.a.limited(t.a.Glob)(ctx, call)
	took := time.Since(start)
	return responding(call, out, err, func() any {
		r := globResponse{DurationMs: took.Milliseconds(), Filenames: []string{}, CountIsComplete: true}
		for _, n := range resultLines(out.Content, "No files found") {
			if strings.HasPrefix(n, "(Results are truncated") || strings.HasPrefix(n, "(Showing ") {
				r.Truncated = true
				fmt.Sscanf(n, "(Showing %d of %d", new(int), &r.TotalMatches)
				continue
			}
			r.Filenames = append(r.Filenames, n)
		}
		r.NumFiles = len(r.Filenames)
		r.TotalMatches = max(r.TotalMatches, r.NumFiles)
		return r
	})
}

// globResponse is GlobOutput (sdk-tools.d.ts).
type globResponse struct {
	DurationMs      int64    `json:"durationMs"`
	NumFiles        int      `json:"numFiles"`
	Filenames       []string `json:"filenames"`
	Truncated       bool     `json:"truncated"`
	TotalMatches    int      `json:"totalMatches"`
	CountIsComplete bool     `json:"countIsComplete"`
}

// repairGlob reads an empty pattern as every file, as Claude Code's ripgrep
// does with an empty --glob.
func repairGlob(in map[string]any) (string, bool) {
	if in["pattern"] == "" {
		in["pattern"] = "**"
		return "", true
	}
	return "", false
}

// Glob lists the files matching a pattern under path (default: the working
// directory), oldest first and at most 100, as Claude Code does: the pattern means
// what it means to ripgrep's --glob, which Claude Code runs (a name without a
// slash matches at any depth; hidden and ignored files are listed); the walk and
// its limits are package search's.
func (a *Activities) Glob(ctx context.Context, call tool.Call) (tool.Output, error) {
	var in globInput
	if err := json.Unmarshal(call.Input, &in); err != nil {
		return tool.Output{}, badCall(call, err)
	}
	stop := keepAlive(ctx, call.ToolUseID, nil)
	defer stop()
	base, pattern := resolve(call.Workdir, in.Path), in.Pattern
	switch st, err := os.Stat(base); {
	case errors.Is(err, syscall.ENOTDIR):
		return errorOutput("%s", nodeError("stat", base, err)) // a path through a file
	case err != nil:
		return errorOutput("Directory does not exist: %s. Note: your current working directory is %s.%s", in.Path, call.Workdir, workdirHint(call.Workdir, base))
	case !st.IsDir():
		return errorOutput("Path is not a directory: %s", in.Path)
	}
	if filepath.IsAbs(pattern) {
		base, pattern = doublestar.SplitPattern(filepath.ToSlash(pattern))
	}
	if msg := deniedRead(call, "search", base); msg != "" { // deny_read.go
		return useErrorOutput("%s", msg)
	}
	dirs, hide, err := searchScope(call)
	if err != nil {
		return tool.Output{}, temporal.NewApplicationErrorWithOptions("glob: "+err.Error(), contract.ErrInfrastructure, temporal.ApplicationErrorOptions{NonRetryable: true})
	}
	res, err := search.Glob(ctx, search.GlobRequest{Workdir: call.Workdir, Base: base, Pattern: pattern, Dirs: dirs, Hide: hide})
	var syntax *search.GlobSyntaxError
	switch {
	case ctx.Err() != nil:
		return tool.Output{}, ctx.Err()
	case errors.As(err, &syntax):
		return errorOutput("Search failed — ripgrep rejected the pattern, glob, or file type without searching:\nrg: %v", syntax)
	case errors.Is(err, search.ErrBadPattern):
		return errorOutput("Invalid glob pattern %q", in.Pattern)
	case err != nil:
		return errorOutput("Glob failed: %v", err)
	}
	return tool.Output{Content: res.Text()}, nil
}
