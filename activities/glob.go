package activities

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"

	"github.com/bmatcuk/doublestar/v4"
	"go.temporal.io/sdk/temporal"

	"github.com/toolpipe/toolpipe/contract"
	"github.com/toolpipe/toolpipe/search"
	"github.com/toolpipe/toolpipe/tool"
)

// Glob lists the files matching a doublestar pattern under path (default: the
// working directory), oldest first and at most 100, as Claude Code does; the walk
// and its limits are package search's.
func (a *Activities) Glob(ctx context.Context, call tool.Call) (tool.Output, error) {
	var in tool.GlobInput
	if err := json.Unmarshal(call.Input, &in); err != nil {
		return tool.Output{}, badCall(call, err)
	}
	stop := keepAlive(ctx, call.ToolUseID, nil)
	defer stop()
	base, pattern := resolve(call.Workdir, in.Path), in.Pattern
	if st, err := os.Stat(base); err != nil || !st.IsDir() {
		return errorOutput("Directory does not exist: %s. Note: your current working directory is %s.", in.Path, call.Workdir)
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
	switch {
	case ctx.Err() != nil:
		return tool.Output{}, ctx.Err()
	case errors.Is(err, search.ErrBadPattern):
		return errorOutput("Invalid glob pattern %q", in.Pattern)
	case err != nil:
		return errorOutput("Glob failed: %v", err)
	}
	return tool.Output{Content: res.Text()}, nil
}
