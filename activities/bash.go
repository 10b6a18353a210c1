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
