package workflows

import (
	"errors"
	"fmt"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/toolpipe/toolpipe/contract"
	"github.com/toolpipe/toolpipe/tool"
)

// Host loss (issue 26 item 5, DESIGN §11). A placed session's calls wait in its
// host's queue at most HostStartTimeout: a host that is gone never takes them, and
// they are reported as not run (HostLostMessage); a call the host was running when
// it went is reported interrupted by its heartbeat timeout (LostWorkerMessage), and
// is not run again. After a turn with either, the session probes its host (one
// activity on the host's queue, with the same schedule-to-start bound). A host that
// does not answer is lost: the session places itself again with the next
// generation, on another host (PlaceSession with Lost), which records that
// generation in the blob store (the fence: the lost host refuses the older
// generation's calls should it come back, activities/fence.go), and restores the
// latest checkpoint there (RestoreCheckpoint, into the same path). A host that
// answers without the workspace (it came back with an empty disk) gets the
// checkpoint restored in place of it. The model sees the interrupted calls' results
// and goes on; background tasks of the lost host are reported lost by their own
// heartbeat timeouts (session_background.go). Nothing that ran is run again: the
// session only restores files and re-runs no call.

// HostLostMessage is the result of a call of a placed session that its host never
// took: the host is gone, and the call did not run.
const HostLostMessage = "interrupted: the session's host was lost before this tool started; it did not run (the session moves to another host)"

// hostLost: the call waited in its host's queue past its schedule-to-start timeout.
func hostLost(err error) bool {
	var te *temporal.TimeoutError
	return errors.As(err, &te) && te.TimeoutType() == enumspb.TIMEOUT_TYPE_SCHEDULE_TO_START
}

// generation is the session's placement generation (0 when not placed).
func (s *session) generation() int {
	if s.in.Placement == nil {
		return 0
	}
	return s.in.Placement.Generation
}

// hostTrouble: a result of the turn says its host may be gone.
func hostTrouble(results []tool.Result) bool {
	for _, r := range results {
		if r.IsError && (r.Content == LostWorkerMessage || r.Content == HostLostMessage) {
			return true
		}
	}
	return false
}

// checkHost probes the session's host after a turn that suggests it is gone, and
// moves the session when it is. It reports whether the workspace was restored (the
// turn's own checkpoint is then moot: its changes went with the host).
func (s *session) checkHost(ctx workflow.Context, results []tool.Result) (bool, error) {
	if s.in.Placement == nil || s.in.Depth > 0 || !hostTrouble(results) {
		return false, nil
	}
	if workflow.GetVersion(ctx, sessionMove, workflow.DefaultVersion, 1) < 1 {
		return false, nil
	}
	opts := s.opts.Turn.withDefaults()
	actx := workflow.WithActivityOptions(onHost(ctx, s.toolQueue()), workflow.ActivityOptions{
		ScheduleToStartTimeout: opts.HostStartTimeout,
		StartToCloseTimeout:    10 * time.Second,
		Summary:                "Probe host " + s.in.Placement.Host + " of session " + s.in.SessionID,
		RetryPolicy:            &temporal.RetryPolicy{MaximumAttempts: 1},
	})
	var reply contract.ProbeReply
	err := workflow.ExecuteActivity(actx, s.names.of(contract.ProbeHostActivityName),
		contract.ProbeRequest{SessionID: s.in.SessionID, Workdir: s.in.Workdir, Generation: s.generation()}).Get(ctx, &reply)
	switch {
	case err == nil && reply.Workspace:
		return false, nil // the host is there, its workspace too: a worker was lost, not the host
	case err == nil:
		s.note(SessionEvent{Kind: EventNotice, Text: fmt.Sprintf("host %s came back without the workspace %s: restoring the latest checkpoint", s.in.Placement.Host, s.in.Workdir)})
		return true, s.restoreWorkspace(ctx)
	}
	lost := s.in.Placement.Host
	if err := s.move(ctx, lost); err != nil {
		return false, err
	}
	return true, s.restoreWorkspace(ctx)
}

// move places the session on another host with the next generation.
func (s *session) move(ctx workflow.Context, lost string) error {
	gen := s.generation() + 1
	actx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: placeTimeout,
		Summary:             fmt.Sprintf("Move session %s off lost host %s (placement %d)", s.in.SessionID, lost, gen),
		RetryPolicy: &temporal.RetryPolicy{
			InitialInterval: 200 * time.Millisecond, BackoffCoefficient: 1.5, MaximumInterval: 2 * time.Second,
		},
	})
	var p contract.Placement
	if err := workflow.ExecuteActivity(actx, s.names.of(contract.PlaceSessionActivityName),
		contract.PlaceRequest{SessionID: s.in.SessionID, Generation: gen, Lost: lost}).Get(ctx, &p); err != nil {
		return err
	}
	s.in.Placement = &p
	s.moves++
	s.note(SessionEvent{Kind: EventNotice, Text: fmt.Sprintf("host %s was lost: the session moved to host %s (task queue %s, placement %d)", lost, p.Host, p.Queue, p.Generation)})
	s.publish(ctx)
	return nil
}

// restoreWorkspace writes the latest checkpoint into the workspace on the
// session's (new) host. Without one, the workspace is what that host has.
func (s *session) restoreWorkspace(ctx workflow.Context) error {
	s.awaitCheckpoint(ctx)
	last, ok := s.lastCheckpoint()
	if !ok {
		s.note(SessionEvent{Kind: EventNotice, Text: fmt.Sprintf("no checkpoint to restore: the workspace %s on host %s is as that host has it", s.in.Workdir, s.in.Placement.Host)})
		return nil
	}
	opts := s.opts.Turn.withDefaults()
	actx := workflow.WithActivityOptions(onHost(ctx, s.toolQueue()), workflow.ActivityOptions{
		ScheduleToStartTimeout: opts.HostStartTimeout,
		StartToCloseTimeout:    checkpointTimeout,
		HeartbeatTimeout:       opts.HeartbeatTimeout,
		Summary:                fmt.Sprintf("Restore checkpoint %s (after turn %d) on host %s", shortID(last.Checkpoint), last.Turn, s.in.Placement.Host),
		RetryPolicy:            &temporal.RetryPolicy{InitialInterval: time.Second, MaximumAttempts: 3},
	})
	var res contract.RestoreResult
	err := workflow.ExecuteActivity(actx, s.names.of(contract.RestoreCheckpointActivityName), contract.RestoreRequest{
		SessionID: s.in.SessionID, Workdir: s.in.Workdir, ID: last.Checkpoint, Move: true, Generation: s.generation(),
	}).Get(ctx, &res)
	if err != nil {
		s.note(SessionEvent{Kind: EventNotice, Text: fmt.Sprintf("restoring checkpoint %s on host %s failed: %v", shortID(last.Checkpoint), s.in.Placement.Host, err)})
		return nil // the session goes on; the model sees the workspace as it is
	}
	s.note(SessionEvent{Kind: EventNotice, Text: fmt.Sprintf("workspace restored on host %s from checkpoint %s (after turn %d): %d files, %d fetched from the store",
		s.in.Placement.Host, shortID(last.Checkpoint), last.Turn, res.Files, res.Fetched)})
	return nil
}
