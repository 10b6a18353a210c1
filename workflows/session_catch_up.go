package workflows

import (
	"fmt"

	"go.temporal.io/sdk/workflow"

	"github.com/toolpipe/toolpipe/contract"
)

// Catching up on a host (issue 26, DESIGN §11). A session that ended and is
// continued later (a new prompt, a rewind of a closed session) starts a new run,
// and a placed run goes to whichever host has room, which need not be the host
// that ran the session last: that host may be gone, full, or the session may have
// moved since the host last held it. Hosts share no disk, so the new host's
// workspace may be missing, or be the session's files as they were when it last
// ran there. Before anything reads the workspace (hooks, skills, the baseline,
// the first turn, a rewind's capture), the run hands its host the latest state of
// the session's workspace timeline; the host leaves the workspace as it is when
// its own last capture or restore of it was that state (so what a person changed
// there between runs stays, and the baseline captures it), and restores it
// otherwise (RestoreCheckpoint with CatchUp). A host that does not take the
// restore is lost: the run moves as a turn's host loss does, and tries once more.

// catchUpTries bounds the hosts a catch-up tries (each move is one more).
const catchUpTries = 3

// catchUp brings the workspace on the run's host to the session's latest state.
// Like a move's restore, a failure is a notice: the session goes on with the
// workspace as the host has it, and says so.
func (s *session) catchUp(ctx workflow.Context) {
	if s.in.Placement == nil || s.in.Depth > 0 || s.in.Carry != nil || s.latest == nil || s.in.Workdir == "" {
		return
	}
	if workflow.GetVersion(ctx, placedCatchUp, workflow.DefaultVersion, 1) < 1 {
		return
	}
	latest := *s.latest
	for try := 1; ; try++ {
		host := s.in.Placement.Host
		actx := s.checkpointCtx(ctx, fmt.Sprintf("Bring the workspace of session %s on host %s to checkpoint %s", s.in.SessionID, host, shortID(latest.Checkpoint)))
		var res contract.RestoreResult
		err := workflow.ExecuteActivity(actx, s.names.of(contract.RestoreCheckpointActivityName), contract.RestoreRequest{
			SessionID: s.in.SessionID, Workdir: s.in.Workdir, ID: latest.Checkpoint, CatchUp: true, Generation: s.generation(),
		}).Get(ctx, &res)
		switch {
		case err == nil && res.Current:
			return // this host left the workspace at the latest state
		case err == nil:
			s.note(SessionEvent{Kind: EventNotice, Text: fmt.Sprintf("host %s did not hold the session's latest files: workspace %s restored from checkpoint %s (%d files, %d written, %d removed, %d fetched from the store)",
				host, s.in.Workdir, shortID(res.ID), res.Files, res.Written, res.Removed, res.Fetched)})
			return
		case hostLost(err) && try < catchUpTries:
			if merr := s.move(ctx, host); merr != nil {
				s.note(SessionEvent{Kind: EventNotice, Text: fmt.Sprintf("host %s did not take the workspace's restore, and the session could not move: %v", host, merr)})
				return
			}
			continue
		}
		s.note(SessionEvent{Kind: EventNotice, Text: fmt.Sprintf("the session's latest files (checkpoint %s) could not be restored on host %s: the workspace %s is as that host has it: %v",
			shortID(latest.Checkpoint), host, s.in.Workdir, err)})
		return
	}
}
