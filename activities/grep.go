package activities

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"

	"go.temporal.io/sdk/temporal"

	"github.com/toolpipe/toolpipe/contract"
	"github.com/toolpipe/toolpipe/persistence"
	"github.com/toolpipe/toolpipe/search"
	"github.com/toolpipe/toolpipe/tool"
)

// Grep searches with ripgrep when it is on the worker's PATH, as Claude Code does,
// and with package search's Go engine otherwise; both print Claude Code's text.
// The output goes through size control as it is written, so head_limit 0 over a
// million matches is persisted, never held.
func (a *Activities) Grep(ctx context.Context, call tool.Call) (tool.Output, error) {
	var in tool.GrepInput
	if err := json.Unmarshal(call.Input, &in); err != nil {
		return tool.Output{}, badCall(call, err)
	}
	stop := keepAlive(ctx, call.ToolUseID, nil)
	defer stop()
	path, failed := a.persistedHere(resolve(call.Workdir, in.Path)) // persisted_fetch.go
	if failed != "" {
		return errorOutput("%s", failed)
	}
	st, err := os.Stat(path)
	if err != nil {
		if errors.Is(err, syscall.ENOTDIR) {
			return errorOutput("%s", nodeError("stat", path, err)) // a path through a file, as Claude Code says it
		}
		return errorOutput("Path does not exist: %s. Note: your current working directory is %s.%s", in.Path, call.Workdir, workdirHint(call.Workdir, path))
	}
	if msg := deniedRead(call, "search", path); msg != "" { // deny_read.go
		return useErrorOutput("%s", msg)
	}
	if !st.IsDir() && !st.Mode().IsRegular() {
		return useErrorOutput("%s", notRegularMessage("Grep", path, st.Mode())) // not_regular.go
	}
	_, hide, err := searchScope(call)
	if err != nil {
		return tool.Output{}, temporal.NewApplicationErrorWithOptions("grep: "+err.Error(), contract.ErrInfrastructure, temporal.ApplicationErrorOptions{NonRetryable: true})
	}
	req := grepRequest(in, call.Workdir, path)
	req.Hide = hide
	req.Rg, _ = exec.LookPath("rg") // "" without rg: the Go engine
	sw := persistence.NewSpillWriter(a.store, safeName(call.SessionID), call.ToolUseID, false, a.threshold(call))
	err = search.Grep(ctx, req, sw)
	if errors.Is(err, search.ErrRgBlockedOnFIFO) && ctx.Err() == nil {
		// An ignore file that is a FIFO stops rg (search/rg_fifo.go): the Go engine
		// gives the same output and skips it.
		sw.Abort()
		req.Rg = ""
		sw = persistence.NewSpillWriter(a.store, safeName(call.SessionID), call.ToolUseID, false, a.threshold(call))
		err = search.Grep(ctx, req, sw)
	}
	var rejected *search.RejectedError
	switch {
	case ctx.Err() != nil:
		sw.Abort()
		return tool.Output{}, ctx.Err()
	case errors.As(err, &rejected):
		sw.Abort()
		return errorOutput("%s", rejected.Error())
	case err != nil:
		sw.Abort()
		return tool.Output{}, fmt.Errorf("grep: %w", err)
	}
	out, err := sw.Finish()
	if err != nil {
		return tool.Output{}, fmt.Errorf("grep: %w", err)
	}
	a.notePersist(call, out)
	return tool.Output{Content: out.Content}, nil
}

// grepRequest gives the input's fields Claude Code's meaning: -n on by default,
// head_limit 250 by default and 0 for all, context (or -C) for both sides,
// overriding -A and -B.
func grepRequest(in tool.GrepInput, workdir, path string) search.GrepRequest {
	req := search.GrepRequest{
		Workdir: workdir, Path: path, Pattern: in.Pattern, Glob: in.Glob, Type: in.Type, Mode: in.OutputMode,
		CaseInsensitive: in.CaseInsensitive, LineNumbers: in.LineNumbers == nil || *in.LineNumbers,
		OnlyMatching: in.OnlyMatching, Multiline: in.Multiline, HeadLimit: search.GrepHeadLimit,
	}
	if in.HeadLimit != nil {
		req.HeadLimit = *in.HeadLimit
	}
	if in.Offset != nil {
		req.Offset = *in.Offset
	}
	// context (or its alias -C) wins over -A and -B, as in Claude Code.
	switch around := cmp.Or(in.Context, in.C); {
	case around != nil:
		req.Before, req.After = *around, *around
	default:
		if in.Before != nil {
			req.Before = *in.Before
		}
		if in.After != nil {
			req.After = *in.After
		}
	}
	return req
}
