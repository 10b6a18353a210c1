package activities

import (
	"context"
	"strings"

	"go.temporal.io/sdk/temporal"

	"github.com/toolpipe/toolpipe/contract"
	"github.com/toolpipe/toolpipe/tool"
)

// failingOnError makes an error result a failed activity when the turn asks for it
// (tool.Call.FailOnError), so that the Web UI's timeline draws a Bash that exited 1
// in red, as failed, instead of green like a success. The failure is benign (the SDK
// logs it at debug level and counts no activity failure: a tool error is a result,
// not an incident), never retried, and carries the whole Output as its detail: the
// turn reads the result from it exactly as from a completed activity.
func failingOnError(fn ToolFunc) ToolFunc {
	return func(ctx context.Context, call tool.Call) (tool.Output, error) {
		out, err := fn(ctx, call)
		if err != nil || !out.IsError || !call.FailOnError {
			return out, err
		}
		return tool.Output{}, temporal.NewApplicationErrorWithOptions(errorLine(out.Content), contract.ErrToolError,
			temporal.ApplicationErrorOptions{NonRetryable: true, Category: temporal.ApplicationErrorCategoryBenign, Details: []any{out}})
	}
}

// errorLine is the first line of a tool's error, short enough for the UI's list of
// events.
func errorLine(content string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(content), "\n")
	if r := []rune(line); len(r) > 200 {
		line = string(r[:199]) + "…"
	}
	if line == "" {
		line = "the tool returned an error"
	}
	return line
}

// RefusedCall is the activity that records a call that never became a tool
// activity (an unknown tool, a refused input), so that the call has its place in
// the turn's timeline, failed, under its summary. It has no side effect.
func RefusedCall(_ context.Context, req contract.RefusedCallRequest) error {
	return temporal.NewApplicationErrorWithOptions(errorLine(req.Error), contract.ErrRefusedCall,
		temporal.ApplicationErrorOptions{NonRetryable: true, Category: temporal.ApplicationErrorCategoryBenign})
}
