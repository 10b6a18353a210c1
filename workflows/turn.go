package workflows

import (
	"fmt"
	"strings"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/toolpipe/toolpipe/scheduler"
	"github.com/toolpipe/toolpipe/tool"
)

// turn is the state of one running Turn workflow. Every field is rebuilt on replay
// from the same events, which is what makes the executor durable.
type turn struct {
	// tools are the worker's (Workflows); lookup adds the turn's MCP tools and
	// what it recorded of tools that are not original (turn_mcp.go).
	tools   *tool.Registry
	in      TurnInput
	opts    TurnOptions
	tracker *scheduler.Tracker
	context tool.Context
	emitted []tool.Result
	closed  bool
	// terminal is the final ToolpipeStatus of a turn that ends without finishing
	// (cancelled), or "".
	terminal string

	// siblingCtx parents every tool's context; cancelling it is the Bash cascade.
	// It is a child of the workflow context, so the turn itself is never cancelled.
	siblingCtx    workflow.Context
	cancelSibling workflow.CancelFunc
	// cancels stops one tool (an interrupt), keyed by tool_use id.
	cancels map[string]workflow.CancelFunc
	// gate is the hook and permission pipeline's state (turn_approval.go);
	// steps are the gate's steps, in order (turn_gate.go).
	gate  gateState
	steps []gateStep
	// mcp are the turn's MCP tools by name (turn_mcp.go); ready is false until
	// they are listed and the start input's blocks are tracked: blocks that an
	// update adds meanwhile wait for it.
	mcp   map[string]*tool.Definition
	ready bool
	// rejectAlone: a call whose input fails validation completes without the Bash
	// sibling cascade (change rejectedInputAlone).
	rejectAlone bool
	// ctx is the workflow's context, for what lookups record (turn_custom.go);
	// customs are the custom tool names decided so far: known or not.
	ctx     workflow.Context
	customs map[string]bool
	// repair: inputs are read as Claude Code reads them, and notes are what the
	// repairs' results end with, by tool_use id (turn_repair.go).
	repair bool
	notes  map[string]string
	// decode: the escapes a model wrote out in its inputs are decoded, paths
	// trimmed and a leading cd into the working directory dropped (turn_repair.go).
	decode bool
	// showFailures: failed calls are failed activities, refused calls are recorded,
	// and the finished turn writes its calls to its memo (turn_failures.go).
	showFailures bool
	// records counts the RefusedCall records not yet written.
	records int
}

// Turn runs the tool calls of one assistant turn with Claude Code's streaming
// executor semantics (DESIGN §3) and returns every result in arrival order.
func (w *Workflows) Turn(ctx workflow.Context, in TurnInput) (TurnResult, error) {
	logTurnStart(ctx, in) // lifecycle_log.go
	// Not deferred: the SDK unwinds an evicted workflow's coroutines with Goexit,
	// which runs defers, and a workflow that is still running must not log its end.
	t := &turn{tools: w.tools}
	res, err := t.run(ctx, in)
	t.ended(ctx, err) // lifecycle_log.go
	return res, err
}

// run is the body of Turn.
func (t *turn) run(ctx workflow.Context, in TurnInput) (TurnResult, error) {
	ctx = onHost(ctx, in.ToolQueue) // the session's host (fleet.go)
	*t = turn{
		tools:   t.tools,
		in:      in,
		opts:    in.Options.withDefaults(),
		context: in.Context,
		cancels: map[string]workflow.CancelFunc{},
		mcp:     map[string]*tool.Definition{},
		ctx:     ctx,
	}
	t.steps = gateSteps(t, in.Settings)
	t.tracker = scheduler.New(turnTools{t})
	t.useMCPSpecs(in.MCPTools)
	t.siblingCtx, t.cancelSibling = workflow.WithCancel(ctx)
	// Registering a handler lets updates that came with the first workflow task run
	// (the SDK yields to them): the state they read and write must be set up before,
	// and blocks they add wait (ready) until the start input's blocks are in.
	t.closed = in.CloseIntake
	// Turns from before this rule added such blocks at once, before the input's.
	t.ready = workflow.GetVersion(ctx, startInputFirst, workflow.DefaultVersion, 1) == workflow.DefaultVersion &&
		!(in.MCP && len(in.MCPTools) == 0)
	t.rejectAlone = workflow.GetVersion(ctx, rejectedInputAlone, workflow.DefaultVersion, 1) >= 1
	t.useRepair(ctx)
	t.showFailures = workflow.GetVersion(ctx, failuresShown, workflow.DefaultVersion, 1) >= 1
	if err := t.register(ctx); err != nil {
		return TurnResult{}, err
	}
	if err := validateBlocks(t.tracker, in.Blocks); err != nil {
		return TurnResult{}, temporal.NewApplicationErrorWithOptions(
			"turn: "+message(err), ErrBadTurnInput, temporal.ApplicationErrorOptions{NonRetryable: true})
	}
	if in.MCP && len(in.MCPTools) == 0 {
		t.listMCP(ctx)
	}
	t.add(in.Blocks)
	t.ready = true

	if err := workflow.Await(ctx, func() bool { return t.finished() && t.records == 0 && workflow.AllHandlersFinished(ctx) }); err != nil {
		if temporal.IsCanceledError(err) {
			t.upsertTerminal(ctx, StatusCancelled)
		}
		return TurnResult{}, fmt.Errorf("turn: %w", err)
	}
	t.publish()      // the intake may have closed after the last tool was yielded
	t.writeMemo(ctx) // turn_failures.go
	return t.result(), nil
}

// result is the turn's result as it stands: final once the turn has finished.
func (t *turn) result() TurnResult {
	return TurnResult{Results: t.emitted, Context: t.context,
		Stop: t.gate.stop, StopReason: strings.Join(t.gate.stopReasons, "\n"), Notices: t.gate.notices}
}

// finished: the tools are known, the intake is closed and every tool has been yielded.
func (t *turn) finished() bool { return t.ready && t.closed && t.tracker.Done() }

// add tracks new blocks and schedules what can run.
func (t *turn) add(blocks []tool.Block) {
	for _, b := range blocks {
		x, err := t.tracker.Add(t.repairBlock(b))
		if err != nil {
			panic(err) // validateBlocks ran first: a duplicate here is a bug
		}
		if !x.Known {
			traceRefusedCall(t.siblingCtx, b, *x.Result, refusedUnknownTool) // turn_trace.go
			t.recordRefused(b, *x.Result, "unknown tool")                    // turn_failures.go
		}
	}
	t.pump()
}

// pump runs the scheduling loop the in-process executor shares
// (scheduler.Tracker.Pump), then publishes the turn's state for queries.
func (t *turn) pump() {
	t.tracker.Pump(t.start, t.yield)
	t.publish()
}

// yield hands one completed result over, in arrival order, and applies its modifier.
func (t *turn) yield(x *scheduler.Tracked) {
	t.context = t.context.Apply(x.Modifier)
	t.emitted = append(t.emitted, *x.Result)
}

// complete records a tool's outcome; a Bash error cancels the siblings' scope.
func (t *turn) complete(id string, r tool.Result, m *tool.Modifier) {
	delete(t.cancels, id)
	cascade, err := t.tracker.Complete(id, t.withNote(r), m)
	if err != nil {
		panic(err)
	}
	if cascade {
		t.cancelSibling()
	}
	t.pump()
}

// cancelled records a tool stopped by the cascade or an interrupt.
func (t *turn) cancelled(id string) {
	delete(t.cancels, id)
	if err := t.tracker.Cancelled(id); err != nil {
		panic(err)
	}
	t.pump()
}

// interrupt stops the executing tools whose behaviour is cancel.
func (t *turn) interrupt(req InterruptRequest) {
	stop := t.tracker.Interrupt
	if req.NoMessage {
		stop = t.tracker.InterruptWithoutMessage
	}
	for _, x := range stop() {
		if cancel, ok := t.cancels[x.Block.ID]; ok {
			cancel()
		}
	}
	t.pump()
}

// validateBlocks rejects blocks that cannot be tracked: malformed, duplicate ids, or
// too many for one turn.
func validateBlocks(tr *scheduler.Tracker, blocks []tool.Block) error {
	if len(tr.Tools())+len(blocks) > MaxToolsPerTurn {
		return rejection(ErrTooManyTools, "a turn holds at most %d tool calls; this one would have %d", MaxToolsPerTurn, len(tr.Tools())+len(blocks))
	}
	seen := map[string]bool{}
	for _, b := range blocks {
		if err := tool.CheckBlock(b); err != nil {
			return rejection(ErrMalformedBlock, "%v", err)
		}
		if seen[b.ID] || tr.Has(b.ID) {
			return rejection(ErrDuplicateToolUseID, "duplicate tool_use id %q", b.ID)
		}
		seen[b.ID] = true
	}
	return nil
}
