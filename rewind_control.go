package toolpipe

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"

	"github.com/toolpipe/toolpipe/conversation"
	"github.com/toolpipe/toolpipe/workflows"
)

// controlInput is the start input of the run that serves a rewind when the session
// is not running. That run restores files where the session works and on the host
// it is placed on, so it takes both from the session's last run: its working
// directory (unless the caller names one), its placement and checkpointing and its
// turn options (the host timeouts). A running session takes the update itself and
// the input is not used; it is made from that run's all the same, since the run
// may end between the look and the update (a rewind's own run, ending after the
// last rewind), and the update then starts the run this input describes.
func (s *Session) controlInput(ctx context.Context, o RewindOptions) (workflows.SessionInput, error) {
	in := workflows.SessionInput{SessionID: s.sessionID(), Workdir: o.Workdir, Control: &workflows.SessionControl{Rewind: true}}
	last, err := s.lastRunInput(ctx)
	if err != nil || last == nil {
		return in, err
	}
	code := conversation.RewindScope(o.Scope).Code()
	switch {
	case o.Workdir == "":
		in.Workdir = last.Workdir
	case code && last.Workdir != "" && filepath.Clean(o.Workdir) != filepath.Clean(last.Workdir):
		return in, invalid("rewind: session %s works in %s, not %s: a rewind of its code writes and removes files in its own directory (give --workdir %s, or none)",
			in.SessionID, last.Workdir, o.Workdir, last.Workdir)
	}
	in.Place, in.Checkpoints = last.Place, last.Checkpoints
	in.Options.Turn = last.Options.Turn
	return in, nil
}

// lastRunInput is the input of the session's latest run, running or closed; nil
// when the session never ran.
func (s *Session) lastRunInput(ctx context.Context) (*workflows.SessionInput, error) {
	d, err := s.c.DescribeWorkflowExecution(ctx, s.ID, "")
	var nf *serviceerror.NotFound
	switch {
	case errors.As(err, &nf):
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("toolpipe: session %s: rewind: %w", s.sessionID(), err)
	}
	info := d.GetWorkflowExecutionInfo()
	iter := s.c.GetWorkflowHistory(ctx, s.ID, info.GetExecution().GetRunId(), false, enumspb.HISTORY_EVENT_FILTER_TYPE_ALL_EVENT)
	if !iter.HasNext() {
		return nil, nil
	}
	ev, err := iter.Next()
	if err != nil {
		return nil, fmt.Errorf("toolpipe: session %s: rewind: history: %w", s.sessionID(), err)
	}
	started := ev.GetWorkflowExecutionStartedEventAttributes()
	if started == nil {
		return nil, nil
	}
	var in workflows.SessionInput
	if err := s.api.decode(ctx, started.GetInput(), &in); err != nil {
		return nil, fmt.Errorf("toolpipe: session %s: rewind: the last run's input: %w", s.sessionID(), err)
	}
	return &in, nil
}
