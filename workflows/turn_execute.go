package workflows

import (
	"errors"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/toolpipe/toolpipe/contract"
	"github.com/toolpipe/toolpipe/hooks"
	"github.com/toolpipe/toolpipe/scheduler"
	"github.com/toolpipe/toolpipe/tool"
)

// LostWorkerMessage is the result of a tool with possible side effects whose worker
// died while it ran: it is not run again, since it may have partially run (DESIGN §6).
const LostWorkerMessage = "interrupted: the worker running this tool was lost; it may have partially run"

// ShutdownWorkerMessage is the result of such a tool whose worker shut down (SIGTERM,
// a starter's Ctrl-C) and stopped it when its grace ran out: the worker was not lost,
// and said so (ErrWorkerShutdown).
const ShutdownWorkerMessage = "interrupted: the worker running this tool shut down and stopped it before it finished; it may have partially run"

// Error types of a tool attempt that its worker's end stopped: contract's, named
// here too for the Go API's readers (package worker reports them).
const (
	ErrWorkerLost     = contract.ErrWorkerLost
	ErrWorkerShutdown = contract.ErrWorkerShutdown
)

// start runs the pipeline of DESIGN §3.8 for a tool the scan marked executing. It
// reports whether the tool completed at once (an invalid input), which calls for
// another scan.
func (t *turn) start(x *scheduler.Tracked) (immediate bool) {
	def, _ := t.lookup(x.Block.Name) // known: unknown tools never execute
	id := x.Block.ID
	refused, isRefused := t.legacyBackground(x.Block) // turn_background.go
	err := t.validate(def, x.Block.Input)             // turn_repair.go
	if x.Block.InputBytes > 0 {                       // an input dropped for its size fails as it would whole
		err = def.ValidateBlock(x.Block)
	}
	if err == nil && !isRefused {
		refused, isRefused = t.refuseBackground(x.Block)
	}
	if err != nil || isRefused {
		r := refused
		if !isRefused {
			r = tool.ErrorResult(id, tool.UseError(err.Error()))
		}
		traceRefusedCall(t.siblingCtx, x.Block, r, refusedInput) // turn_trace.go
		t.recordRefused(x.Block, r, "refused input")             // turn_failures.go
		if t.rejectAlone {
			if err := t.tracker.Reject(id, r); err != nil {
				panic(err)
			}
		} else {
			t.completeNow(id, r) // turns from before rejectAlone: a rejected Bash cascaded
		}
		return true
	}
	if len(t.steps) > 0 {
		t.startGated(x, def)
		return false
	}
	call := t.call(x.Block, verdict{})
	if isBackgroundCall(x.Block) {
		t.startBackground(x.Block, call) // the session runs it (turn_background.go)
		return false
	}
	retryable := def.Retryable(x.Block.Input)
	ctx, cancel := workflow.WithCancel(t.siblingCtx)
	t.cancels[id] = cancel
	fut := t.execute(ctx, def, x.Block, call, retryable)
	workflow.Go(ctx, func(gctx workflow.Context) {
		var out tool.Output
		// The future is read with a disconnected context so that a cancelled tool
		// still waits for its activity to acknowledge (WaitForCancellation): the
		// process group is gone before the synthetic result is reported.
		waitCtx, _ := workflow.NewDisconnectedContext(gctx)
		err := fut.Get(waitCtx, &out)
		r, m, cancelled := callOutcome(id, out, err, retryable)
		if !cancelled && !retryable && isShutdown(err) && workflow.GetVersion(gctx, shutdownResult, workflow.DefaultVersion, 1) >= 1 {
			r = tool.ErrorResult(id, ShutdownWorkerMessage)
		}
		if cancelled {
			t.cancelled(id)
		} else {
			t.complete(id, r, m)
		}
	})
	return false
}

// call is the payload of a call's activity, built in this one place for every
// call: the block as it runs (a hook may have rewritten its input), the turn's
// context, and how the gate allowed it (v; zero for a turn without a gate). A
// field that only a gate's settings give is zero without them.
func (t *turn) call(b tool.Block, v verdict) tool.Call {
	c := tool.Call{
		SessionID: t.in.SessionID, ToolUseID: b.ID, Name: b.Name,
		Input: b.Input, Workdir: t.in.Workdir, ReadFiles: t.context.ReadFiles, PartialFiles: t.context.PartialFiles,
		Sandbox: t.in.Settings.sandboxSettings(), SandboxOnly: v.sandboxOnly, ReadOnlySandbox: v.readOnly,
		FailOnError: t.showFailures,
	}
	if s := t.in.Settings; s != nil {
		c.Scope = t.searchScope(b.Name)
		// PostToolUse hooks will read the tool's structured response.
		c.Response = len(s.Hooks.Select(hooks.PostToolUse, b.Name)) > 0
	}
	return c
}

// execute schedules a call's activity under the tool's options (activityOptions).
func (t *turn) execute(ctx workflow.Context, def *tool.Definition, b tool.Block, call tool.Call, retryable bool) workflow.Future {
	// The activity need not look up again what the turn knew of its tool.
	call.Declared = &tool.Declared{Safe: retryable, MaxResultSizeChars: def.MaxResultSizeChars()}
	ctx = workflow.WithActivityOptions(ctx, t.activityOptions(def, b, retryable))
	return workflow.ExecuteActivity(ctx, activityType(b.Name), call)
}

// callOutcome turns a tool activity's outcome into the tool's result, or reports
// that the tool was cancelled (the cascade or an interrupt stopped it).
func callOutcome(id string, out tool.Output, err error, retryable bool) (tool.Result, *tool.Modifier, bool) {
	if o, ok := toolErrorOutput(err); ok { // turn_failures.go: an error result, as a failed activity
		out, err = o, nil
	}
	switch {
	case err == nil:
		return tool.Result{ToolUseID: id, Content: out.Content, IsError: out.IsError}, out.Modifier, false
	case temporal.IsCanceledError(err):
		return tool.Result{}, nil, true
	case !retryable && isLostWorker(err):
		return tool.ErrorResult(id, LostWorkerMessage), nil, false
	}
	return tool.ErrorResult(id, "Error: "+failureMessage(err)), nil, false
}

// completeNow completes a tool inside a scan without re-entering pump.
func (t *turn) completeNow(id string, r tool.Result) {
	if _, err := t.tracker.Complete(id, r, nil); err != nil {
		panic(err)
	}
}

// activityOptions: read-only tools are retried; tools that may have side effects
// run at most once, so a lost worker surfaces as LostWorkerMessage. The timeout and
// the title in the UI are the tool's (tool.Tool.Timeout, Summary).
func (t *turn) activityOptions(def *tool.Definition, b tool.Block, retryable bool) workflow.ActivityOptions {
	attempts := int32(1)
	if retryable {
		attempts = t.opts.SafeAttempts
	}
	return workflow.ActivityOptions{
		TaskQueue:           t.queueOf(def, b.Name), // fleet.go
		StartToCloseTimeout: def.Timeout(b.Input),
		HeartbeatTimeout:    t.opts.HeartbeatTimeout,
		WaitForCancellation: true,
		Summary:             def.Summary(b.Input),
		RetryPolicy: &temporal.RetryPolicy{
			InitialInterval:    time.Second,
			BackoffCoefficient: 2,
			MaximumAttempts:    attempts,
		},
	}
}

// isLostWorker: the activity stopped heartbeating or overran, i.e. its worker died,
// or its worker said it died or shut down under it.
func isLostWorker(err error) bool {
	var te *temporal.TimeoutError
	if errors.As(err, &te) {
		return true
	}
	var ae *temporal.ApplicationError
	return errors.As(err, &ae) && (ae.Type() == ErrWorkerLost || ae.Type() == ErrWorkerShutdown)
}

// isShutdown: the tool's worker said it shut down under it (not that it died).
func isShutdown(err error) bool {
	var ae *temporal.ApplicationError
	return errors.As(err, &ae) && ae.Type() == ErrWorkerShutdown
}

// failureMessage unwraps the activity error to the cause a model can act on.
func failureMessage(err error) string {
	var ae *temporal.ApplicationError
	if errors.As(err, &ae) {
		return ae.Message()
	}
	var ae2 *temporal.ActivityError
	if errors.As(err, &ae2) && errors.Unwrap(ae2) != nil {
		return errors.Unwrap(ae2).Error()
	}
	return err.Error()
}
