package workflows

import (
	"fmt"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/toolpipe/toolpipe/contract"
	"github.com/toolpipe/toolpipe/conversation"
	"github.com/toolpipe/toolpipe/tool"
)

// Workspace checkpoints (issue 26 item 4, DESIGN §11). A session that asks for them
// (Checkpoints, or Place: a fleet needs them to move) captures its workspace on its
// host when it starts (the baseline, turn 0) and after every step whose calls may
// change files (anything not read-only: Write, Edit, a Bash that is not read-only,
// MCP and custom tools, sub-agents). Captures run beside the session, not in its
// way: the model call that follows a capture streams while it runs, and only the
// next Turn (or sub-agent) waits for it before its tools start, so that a capture
// never reads a workspace a tool is changing. The first capture of a big workspace
// (seconds for 10,000 files) thus overlaps the first model call; the next ones cost
// what changed (BENCHMARKS.md).
//
// Each checkpoint is recorded per turn (TurnCheckpoint): workflow state shown by the
// state query, the details and `agent status`, carried across continue-as-new, and
// in the activity's result in the history. A capture that fails is a notice, never
// the session's failure: the session goes on without that checkpoint.

// checkpointTimeout bounds one capture: the first of a very big workspace.
const checkpointTimeout = 30 * time.Minute

// TurnCheckpoint records the checkpoint taken after a turn: what a rewind (issue 30)
// or a move to another host restores.
type TurnCheckpoint struct {
	// Turn is the number of the Turn (turn-N) whose calls the checkpoint follows;
	// 0 before the session's first Turn. A step of sub-agents only, which runs no
	// Turn, and the baseline of a resumed session have the number of the last Turn.
	Turn int `json:"turn"`
	// Message is the sequence number of the assistant message whose calls ran; 0
	// for a baseline, the workspace as a run of the session found it before its
	// first model call.
	Message int `json:"message"`
	// Checkpoint is the checkpoint id (64 hex digits).
	Checkpoint string `json:"checkpoint"`
	// Files is how many files it holds; Changed how many paths the turn changed
	// (added, changed or removed since the previous capture on the host).
	Files   int `json:"files"`
	Changed int `json:"changed"`
	// Run is the workflow run the checkpoint was taken in.
	Run string `json:"run"`
}

// maxCheckpointsShown bounds the checkpoints the details list (the newest).
const maxCheckpointsShown = 20

// checkpointsOn says, once per run, whether this run takes checkpoints.
func (s *session) checkpointsOn(ctx workflow.Context) bool {
	if s.ckptOn != nil {
		return *s.ckptOn
	}
	on := (s.in.Checkpoints || s.in.Place) && s.in.Depth == 0 && s.in.Workdir != ""
	if on {
		on = workflow.GetVersion(ctx, turnCheckpoints, workflow.DefaultVersion, 1) >= 1
	}
	s.ckptOn = &on
	return on
}

// checkpointBaseline captures the workspace as the session finds it, beside the
// first model call.
func (s *session) checkpointBaseline(ctx workflow.Context) {
	if !s.checkpointsOn(ctx) {
		return
	}
	turnNo := 0 // a resumed session's workspace follows its last turn
	if s.head.TurnsNumbered {
		turnNo = s.head.LastTurn
	}
	s.startCheckpoint(ctx, turnNo, 0)
}

// checkpointAfter captures the workspace after the step of message seq when one of
// its calls may have changed files.
func (s *session) checkpointAfter(ctx workflow.Context, turnNo, seq int, uses []conversation.ToolUse) {
	if !s.checkpointsOn(ctx) || !s.mayChangeFiles(uses) {
		return
	}
	s.startCheckpoint(ctx, turnNo, seq)
}

// mayChangeFiles: a call of a built-in tool that is not read-only (its
// IsConcurrencySafe, on the input as the model wrote it: a read-only tool's invalid
// call changes nothing either), any other tool (MCP, a program's own: what a
// registry holds beside the original tools may differ between workers, so it is
// not asked) or a sub-agent.
func (s *session) mayChangeFiles(uses []conversation.ToolUse) bool {
	for _, tu := range uses {
		if tu.Name == tool.TaskName || !tool.IsOriginal(tu.Name) {
			return true
		}
		def, ok := s.tools.Lookup(tu.Name)
		if !ok || !def.Tool().IsConcurrencySafe(tu.Input) {
			return true
		}
	}
	return false
}

// startCheckpoint starts a capture beside the session; awaitCheckpoint waits for it.
func (s *session) startCheckpoint(ctx workflow.Context, turnNo, seq int) {
	s.awaitCheckpoint(ctx) // one at a time: they read one workspace
	gen := 0
	if s.in.Placement != nil {
		gen = s.in.Placement.Generation
	}
	what := fmt.Sprintf("after turn %d", turnNo)
	if seq == 0 {
		what = "at the start"
	}
	actx := s.checkpointCtx(ctx, fmt.Sprintf("Checkpoint of session %s %s", s.in.SessionID, what))
	f := workflow.ExecuteActivity(actx, s.names.of(contract.CaptureCheckpointActivityName), contract.CaptureRequest{
		SessionID: s.in.SessionID, Workdir: s.in.Workdir, Turn: turnNo, Generation: gen,
	})
	s.ckptPending = true
	run := workflow.GetInfo(ctx).WorkflowExecution.RunID
	next := s.head.Next // the model call beside the capture moves it on
	workflow.Go(ctx, func(gctx workflow.Context) {
		defer func() { s.ckptPending = false }()
		var res contract.CheckpointResult
		if err := f.Get(gctx, &res); err != nil {
			s.note(SessionEvent{Kind: EventNotice, Text: fmt.Sprintf("no checkpoint %s: %v", what, err)})
			return
		}
		s.checkpoints = append(s.checkpoints, TurnCheckpoint{Turn: turnNo, Message: seq, Checkpoint: res.ID,
			Files: res.Files, Changed: res.Changed, Run: run})
		if workflow.GetVersion(gctx, workspaceTimeline, workflow.DefaultVersion, 1) >= 1 && s.in.Depth == 0 {
			// The timeline a rewind of the code reads (session_rewind_code.go).
			st := conversation.WorkspaceState{Kind: conversation.WorkspaceTurn, Seq: seq, Turn: turnNo, Checkpoint: res.ID, Next: next}
			if seq == 0 { // a run's start: after every message so far
				st.Kind, st.Seq, st.Turn = conversation.WorkspaceStart, next-1, 0
			}
			if err := s.recordWorkspace(gctx, st); err != nil {
				s.note(SessionEvent{Kind: EventNotice, Text: fmt.Sprintf("checkpoint %s %s is not in the session's timeline (a rewind will not find it): %v", shortID(res.ID), what, err)})
			}
		}
		text := fmt.Sprintf("checkpoint %s %s: %d files, %d changed", shortID(res.ID), what, res.Files, res.Changed)
		if res.Notice != "" {
			text += "; " + res.Notice
		}
		s.note(SessionEvent{Kind: EventNotice, Text: text})
		s.publish(gctx)
	})
}

// checkpointCtx runs a capture or restore on the session's host: retried (both
// may run again), and, for a placed session, given up when no worker of the host
// takes it (a host that is gone never does: host_loss.go).
func (s *session) checkpointCtx(ctx workflow.Context, summary string) workflow.Context {
	var toStart time.Duration
	if s.in.Placement != nil {
		toStart = s.opts.Turn.withDefaults().HostStartTimeout
	}
	return workflow.WithActivityOptions(onHost(ctx, s.toolQueue()), workflow.ActivityOptions{
		ScheduleToStartTimeout: toStart,
		StartToCloseTimeout:    checkpointTimeout,
		HeartbeatTimeout:       s.opts.Turn.withDefaults().HeartbeatTimeout,
		Summary:                summary,
		RetryPolicy:            &temporal.RetryPolicy{InitialInterval: time.Second, MaximumAttempts: 3},
	})
}

// awaitCheckpoint waits for the running capture, if any: before a Turn or a
// sub-agent starts (its tools would change what the capture reads), before
// continue-as-new (the run's activities end with it) and before the session ends.
func (s *session) awaitCheckpoint(ctx workflow.Context) {
	if !s.ckptPending {
		return
	}
	_ = workflow.Await(ctx, func() bool { return !s.ckptPending })
}

// lastCheckpoint is the newest checkpoint, if any.
func (s *session) lastCheckpoint() (TurnCheckpoint, bool) {
	if len(s.checkpoints) == 0 {
		return TurnCheckpoint{}, false
	}
	return s.checkpoints[len(s.checkpoints)-1], true
}

// checkpointLabel names what a checkpoint follows, for the details.
func checkpointLabel(c TurnCheckpoint) string {
	if c.Message == 0 {
		return fmt.Sprintf("checkpoint at start (after turn %d)", c.Turn)
	}
	return fmt.Sprintf("checkpoint after turn %d", c.Turn)
}

func shortID(id string) string { return id[:min(12, len(id))] }
