package workflows

import (
	"fmt"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/toolpipe/toolpipe/contract"
)

// Workspace source (issue 26 item 3). A session started with Repo (URL[@REF]) has
// its host clone the repository into the working directory before anything reads
// it (the session's hooks, MCP servers, the baseline checkpoint, the first turn):
// PrepareWorkspace, on the host's queue, behind GetVersion(session-repo). A resumed
// session finds its clone there and keeps it; a continued run does not ask again.

// prepareTimeout bounds one clone.
const prepareTimeout = 30 * time.Minute

// prepareWorkspace clones the session's repository on its host.
func (s *session) prepareWorkspace(ctx workflow.Context) error {
	if s.in.Repo == "" || s.in.Carry != nil || s.in.Depth > 0 {
		return nil
	}
	if workflow.GetVersion(ctx, sessionRepo, workflow.DefaultVersion, 1) < 1 {
		return nil
	}
	url, ref := contract.SplitRepo(s.in.Repo)
	var toStart time.Duration
	if s.in.Placement != nil {
		toStart = s.opts.Turn.withDefaults().HostStartTimeout
	}
	actx := workflow.WithActivityOptions(onHost(ctx, s.toolQueue()), workflow.ActivityOptions{
		ScheduleToStartTimeout: toStart,
		StartToCloseTimeout:    prepareTimeout,
		HeartbeatTimeout:       s.opts.Turn.withDefaults().HeartbeatTimeout,
		Summary:                fmt.Sprintf("Clone %s into %s", s.in.Repo, s.in.Workdir),
		RetryPolicy:            &temporal.RetryPolicy{InitialInterval: time.Second, MaximumAttempts: 3},
	})
	var res contract.PrepareResult
	if err := workflow.ExecuteActivity(actx, s.names.of(contract.PrepareWorkspaceActivityName), contract.PrepareRequest{
		SessionID: s.in.SessionID, Workdir: s.in.Workdir, Repo: url, Ref: ref, Generation: s.generation(),
	}).Get(ctx, &res); err != nil {
		return err
	}
	if res.Cloned {
		s.note(SessionEvent{Kind: EventNotice, Text: fmt.Sprintf("cloned %s into %s (commit %s)", s.in.Repo, s.in.Workdir, shortID(res.Commit))})
	}
	return nil
}
