package activities

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"go.temporal.io/sdk/temporal"

	"github.com/toolpipe/toolpipe/tool"
)

// Bash runs a shell command in its own process group in the working directory. A
// non-zero exit is an error result; cancellation and the command's timeout kill the
// whole group.
func (a *Activities) Bash(ctx context.Context, call tool.Call) (tool.Output, error) {
	var in tool.BashInput
	if err := json.Unmarshal(call.Input, &in); err != nil {
		return tool.Output{}, badCall(call, err)
	}
	ms := in.TimeoutMs
	if ms <= 0 {
		ms = tool.BashDefaultTimeoutMs
	}
	timeout := time.Duration(min(ms, tool.BashMaxTimeoutMs)) * time.Millisecond
	tail := &tailer{}
	stop := keepAlive(ctx, call.ToolUseID, tail.progress)
	defer stop()
	res, err := runGroup(ctx, a.scratch(call), procSpec{
		path: "/bin/bash", args: []string{"-c", in.Command}, dir: call.Workdir,
		timeout: timeout, progress: tail,
	})
	if err != nil {
		if ctx.Err() != nil {
			return tool.Output{}, ctx.Err()
		}
		return tool.Output{}, temporal.NewApplicationErrorWithOptions(
			fmt.Sprintf("bash: %v", err), ErrInfrastructure, temporal.ApplicationErrorOptions{Cause: err})
	}
	defer res.discard()
	out, err := a.sizeControl(call, res.output)
	if err != nil {
		return tool.Output{}, err
	}
	return bashResult(out, res.exitCode, res.timedOut, ms), nil
}

// scratch is where a session's in-flight tool outputs are written.
func (a *Activities) scratch(call tool.Call) string {
	return filepath.Join(a.cfg.StateDir, safeName(call.SessionID), "scratch")
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
		fmt.Sprintf("%s: undecodable input: %v", call.Name, err), ErrBadCall,
		temporal.ApplicationErrorOptions{NonRetryable: true, Cause: err})
}
