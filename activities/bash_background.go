package activities

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"go.temporal.io/sdk/temporal"

	"github.com/toolpipe/toolpipe/tool"
)

// BashBackgroundActivityName runs a Bash command started with run_in_background: a
// session's background task (workflows/session_background.go).
const BashBackgroundActivityName = "BashBackground"

// BackgroundRequest is one background task: the Bash call that started it, its id,
// and the file its output goes to, which the model Reads while it runs.
type BackgroundRequest struct {
	Call       tool.Call `json:"call"`
	TaskID     string    `json:"task_id"`
	OutputFile string    `json:"output_file"`
}

// BackgroundOutcome is how a background command ended by itself (a stopped one
// ends the activity as cancelled).
type BackgroundOutcome struct {
	ExitCode int  `json:"exit_code"`
	TimedOut bool `json:"timed_out,omitempty"`
	// Refused is why the command did not run at all (a sandbox it must run in
	// could not start); it is also written to the output file.
	Refused string `json:"refused,omitempty"`
}

// BackgroundTasksDir is where a session's background tasks write their output:
// <state dir>/<session>/tasks, beside its tool-results directory.
func BackgroundTasksDir(resultsDir string) string {
	return filepath.Join(filepath.Dir(resultsDir), "tasks")
}

// BashBackground runs a background command to its end, heartbeating all along: it
// starts through bashProcess like every Bash command (environment without secrets,
// the sandbox), in its own process group, with its output going straight to the
// task's file. Its timeout is the background one (30 minutes unless the call says
// otherwise, at most 2 hours). Cancellation (TaskStop, the session's end) kills
// the group; a dead worker takes the group's leader with it (Pdeathsig), the
// next worker's sweep kills the rest of the group (group_record.go) and ends
// the attempt as lost.
func (a *Activities) BashBackground(ctx context.Context, req BackgroundRequest) (BackgroundOutcome, error) {
	var in tool.BashInput
	if err := json.Unmarshal(req.Call.Input, &in); err != nil {
		return BackgroundOutcome{}, badCall(req.Call, err)
	}
	if req.OutputFile == "" || !filepath.IsAbs(req.OutputFile) {
		return BackgroundOutcome{}, temporal.NewApplicationErrorWithOptions(
			fmt.Sprintf("background task %s: the output file %q is not an absolute path", req.TaskID, req.OutputFile),
			ErrBadCall, temporal.ApplicationErrorOptions{NonRetryable: true})
	}
	tail := &tailer{}
	stop := keepAlive(ctx, req.Call.ToolUseID, tail.progress)
	defer stop()
	run := a.bashProcess(req.Call, in, in.BackgroundTimeout(), tail)
	defer run.cleanup()
	if run.refuse != "" {
		if err := appendOutput(req.OutputFile, run.refuse+"\n", true); err != nil {
			return BackgroundOutcome{}, infraFailure(err)
		}
		return BackgroundOutcome{Refused: run.refuse}, nil
	}
	run.spec.outputFile = req.OutputFile
	res, err := runGroup(ctx, a.scratch(req.Call), run.spec)
	if err != nil {
		if ctx.Err() != nil {
			return BackgroundOutcome{}, ctx.Err()
		}
		return BackgroundOutcome{}, infraFailure(err)
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
		return BackgroundOutcome{}, infraFailure(err)
	}
	return BackgroundOutcome{ExitCode: res.exitCode, TimedOut: res.timedOut}, nil
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
	return temporal.NewApplicationErrorWithOptions(fmt.Sprintf("background bash: %v", err), ErrInfrastructure,
		temporal.ApplicationErrorOptions{Cause: err})
}
