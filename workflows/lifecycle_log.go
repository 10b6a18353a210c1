package workflows

import (
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"
)

// A worker logs one info line when a turn or session starts and one when it ends,
// through the SDK's workflow logger: it adds the workflow's id, run and task queue,
// follows the worker's level and format, and stays silent while a workflow replays,
// so a line is written once however often the workflow is replayed. The lines add
// no command to history.

// Outcomes in the end lines.
const (
	outcomeDone      = "done"
	outcomeCancelled = "cancelled"
	outcomeFailed    = "failed"
	outcomeContinued = "continued_as_new"
)

// outcomeOf says how a workflow function ended from its error.
func outcomeOf(err error) string {
	switch {
	case err == nil:
		return outcomeDone
	case workflow.IsContinueAsNewError(err):
		return outcomeContinued
	case temporal.IsCanceledError(err):
		return outcomeCancelled
	}
	return outcomeFailed
}

// logTurnStart is the turn's first line.
func logTurnStart(ctx workflow.Context, in TurnInput) {
	workflow.GetLogger(ctx).Info("turn started", "session", in.SessionID, "tools", len(in.Blocks), "streaming", !in.CloseIntake)
}

// ended is the last thing a turn does: its status search attribute for a failure
// (a cancellation records its own, upsertTerminal) and its end line.
func (t *turn) ended(ctx workflow.Context, err error) {
	if t == nil {
		return
	}
	if !temporal.IsCanceledError(err) {
		upsertEnded(ctx, t.in.SearchAttributes, t.in.SessionID, err) // terminal_status.go
	}
	errs := 0
	for _, r := range t.emitted {
		if r.IsError {
			errs++
		}
	}
	args := []any{"session", t.in.SessionID, "outcome", outcomeOf(err), "tools", len(t.tracker.Tools()),
		"tool_errors", errs, "duration", workflow.Now(ctx).Sub(workflow.GetInfo(ctx).WorkflowStartTime).Round(1e6).String()}
	if err != nil && !temporal.IsCanceledError(err) {
		args = append(args, "error", err.Error())
	}
	workflow.GetLogger(ctx).Info("turn ended", args...)
}

// logSessionStart is a session run's first line.
func logSessionStart(ctx workflow.Context, in SessionInput) {
	workflow.GetLogger(ctx).Info("session started", "session", in.SessionID, "continued", in.Carry != nil)
}

// ended is the last thing a session run does: its status search attribute when it
// failed or was cancelled, and its end line.
func (s *session) ended(ctx workflow.Context, err error) {
	upsertEnded(ctx, s.in.SearchAttributes, s.in.SessionID, err) // terminal_status.go
	args := []any{"session", s.in.SessionID, "outcome", outcomeOf(err), "turns", s.turns,
		"duration", workflow.Now(ctx).Sub(workflow.GetInfo(ctx).WorkflowStartTime).Round(1e6).String()}
	if s.stopReason != "" {
		args = append(args, "stop_reason", s.stopReason)
	}
	if err != nil && outcomeOf(err) == outcomeFailed {
		args = append(args, "error", err.Error())
	}
	workflow.GetLogger(ctx).Info("session ended", args...)
}
