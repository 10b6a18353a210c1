package activities

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"go.temporal.io/sdk/temporal"

	"github.com/toolpipe/toolpipe/contract"
	"github.com/toolpipe/toolpipe/tool"
)

// BashBackground runs a background command to its end, heartbeating all along: it
// starts through bashProcess like every Bash command (environment without secrets,
// the sandbox), in its own process group, with its output going straight to the
// task's file. Its timeout is the background one (30 minutes unless the call says
// otherwise, at most 2 hours). Cancellation (TaskStop, the session's end) kills
// the group; a dead worker takes the group's leader with it (Pdeathsig), the
// next worker's sweep kills the rest of the group (group_record.go) and ends
// the attempt as lost.
func (a *Activities) BashBackground(ctx context.Context, req contract.BackgroundRequest) (contract.BackgroundOutcome, error) {
	var in tool.BashInput
	if err := json.Unmarshal(req.Call.Input, &in); err != nil {
		return contract.BackgroundOutcome{}, badCall(req.Call, err)
	}
	if req.OutputFile == "" || !filepath.IsAbs(req.OutputFile) {
		return contract.BackgroundOutcome{}, temporal.NewApplicationErrorWithOptions(
			fmt.Sprintf("background task %s: the output file %q is not an absolute path", req.TaskID, req.OutputFile),
			contract.ErrBadCall, temporal.ApplicationErrorOptions{NonRetryable: true})
	}
	// On a fleet the path is the session's first host's; this host writes its own
	// copy and sends it to the blob store when the task ends (sharedOutput), where
	// Read on any host finds it (persisted_fetch.go).
	if local, ok := a.sharedTaskOutput(req.OutputFile); ok {
		req.OutputFile = local
		defer a.sharedOutput(req.TaskID, local)
	}
	tail := &tailer{}
	stop := keepAlive(ctx, req.Call.ToolUseID, tail.progress)
	defer stop()
	run := a.bashProcess(req.Call, in, in.BackgroundTimeout(), tail)
	defer run.cleanup()
	if run.refuse != "" {
		if err := appendOutput(req.OutputFile, run.refuse+"\n", true); err != nil {
			return contract.BackgroundOutcome{}, infraFailure(err)
		}
		return contract.BackgroundOutcome{Refused: run.refuse}, nil
	}
	run.spec.outputFile = req.OutputFile
	res, err := runGroup(ctx, a.scratch(req.Call), run.spec)
	if err != nil {
		if ctx.Err() != nil {
			return contract.BackgroundOutcome{}, ctx.Err()
		}
		return contract.BackgroundOutcome{}, infraFailure(err)
	}
	res.output.Close() // the task's file stays: the model reads it
	var end strings.Builder
	for _, n := range run.notes {
		end.WriteString("\n" + n)
	}
	if res.timedOut {
		fmt.Fprintf(&end, "\n[stopped after its timeout of %s]", in.BackgroundTimeout())
	} else {
		fmt.Fprintf(&end, "\n[exited with code %d]", res.exitCode)
	}
	if err := appendOutput(req.OutputFile, end.String(), false); err != nil {
		return contract.BackgroundOutcome{}, infraFailure(err)
	}
	return contract.BackgroundOutcome{ExitCode: res.exitCode, TimedOut: res.timedOut}, nil
}

// appendOutput adds text to a task's output file, creating it when create is set.
func appendOutput(file, text string, create bool) error {
	flags := os.O_WRONLY | os.O_APPEND
	if create {
		if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
			return err
		}
		flags |= os.O_CREATE | os.O_TRUNC
	}
	f, err := os.OpenFile(file, flags, 0o600)
	if err != nil {
		return err
	}
	_, err = f.WriteString(text)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

func infraFailure(err error) error {
	return temporal.NewApplicationErrorWithOptions(fmt.Sprintf("background bash: %v", err), contract.ErrInfrastructure,
		temporal.ApplicationErrorOptions{Cause: err})
}
