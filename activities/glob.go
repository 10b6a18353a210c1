package activities

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"syscall"

	"github.com/bmatcuk/doublestar/v4"
	"go.temporal.io/sdk/temporal"

	"github.com/toolpipe/toolpipe/contract"
	"github.com/toolpipe/toolpipe/search"
	"github.com/toolpipe/toolpipe/tool"
)

// Glob lists the files matching a pattern under path (default: the working
// directory), oldest first and at most 100, as Claude Code does: the pattern means
// what it means to ripgrep's --glob, which Claude Code runs (a name without a
// slash matches at any depth; hidden and ignored files are listed); the walk and
// its limits are package search's.
func (a *Activities) Glob(ctx context.Context, call tool.Call) (tool.Output, error) {
	var in tool.GlobInput
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
