package workflows

import (
	"errors"
	"fmt"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/toolpipe/toolpipe/contract"
	"github.com/toolpipe/toolpipe/modelinfo"
)

// fitShare is the share of the window a summary request answering a refusal is cut
// to: the estimate is calibrated on the refusal, the rest is margin.
const fitShare = 0.9

// learnWindow reads the window a refusal names. A window smaller than the session's
// becomes the session's for good: it is in s.in, which continue-as-new carries, and
// the next compaction thresholds and kept shares use it. It returns the refusal's
// figures for the compaction that answers it, or nil (an older history, or a
// refusal that names none).
func (s *session) learnWindow(ctx workflow.Context, err error) *modelinfo.TooLong {
	var app *temporal.ApplicationError
	if !errors.As(err, &app) {
		return nil
	}
	tl, ok := modelinfo.ParseTooLong(app.Message())
	if !ok || workflow.GetVersion(ctx, learnsWindow, workflow.DefaultVersion, 1) < 1 {
		return nil
	}
	if tl.Maximum < s.model.ContextWindow {
		s.note(SessionEvent{Kind: EventNotice, Text: fmt.Sprintf(
			"the API's context window for %s is %d tokens, not %d: the session compacts at %.0f%% of it from now on",
			s.model.Model, tl.Maximum, s.model.ContextWindow, 100*CompactThreshold)})
		s.model.ContextWindow, s.in.Model.ContextWindow = tl.Maximum, tl.Maximum
	}
	return &tl
}

// fitSummary bounds the summary request of a compaction that answers a refusal: the
// refused request did not fit, and the summary request repeats its messages.
func (s *session) fitSummary(req *contract.CompactRequest) {
	if s.refused == nil {
		return
	}
	req.FitTokens = int(fitShare * float64(min(s.refused.Maximum, s.model.ContextWindow)))
	req.RefusedTokens = s.refused.Tokens
}
