package workflows

import (
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/toolpipe/toolpipe/contract"
	"github.com/toolpipe/toolpipe/conversation"
)

// KeepShare is the share of the context window that the most recent messages kept
// after a compaction's summary may take: enough for the last few exchanges, as the
// model was seeing them, while leaving most of the window to the work that follows.
const KeepShare = 0.25

// CompactThreshold is the share of the context window past which the next model
// call is preceded by a compaction.
const CompactThreshold = 0.85

// Compaction triggers, as PreCompact hooks receive them.
const (
	TriggerAuto   = "auto"
	TriggerManual = "manual"
)

// CompactUpdate asks a running session to compact before its next model call
// (`starter agent compact`).
const CompactUpdate = "Compact"

// CompactRequestArgs is the CompactUpdate's argument.
type CompactRequestArgs struct {
	Instructions string `json:"instructions,omitempty"`
}

// contextEstimate is how many tokens the next model call will send: the last call's
// input as the API counted it, plus what was added since at BytesPerToken; with no
// call since the last compaction or run, the conversation's bytes alone.
func (s *session) contextEstimate() int64 {
	added := int64(s.head.Conversation.Bytes()-s.ctxBytes) / bytesPerToken
	if s.lastUsage.Context() == 0 || added < 0 {
		return int64(s.head.Conversation.Bytes()) / bytesPerToken
	}
	return s.lastUsage.Context() + added
}

// bytesPerToken is the estimate of stored bytes per token.
const bytesPerToken = 4

// maybeCompact compacts before the next model call when the user asked for it or the
// estimate passes the threshold.
func (s *session) maybeCompact(ctx workflow.Context) error {
	if s.manualCompact != nil {
		instr := *s.manualCompact
		s.manualCompact = nil
		return s.compact(ctx, TriggerManual, instr)
	}
	if float64(s.contextEstimate()) < CompactThreshold*float64(s.model.ContextWindow) {
		return nil
	}
	return s.compact(ctx, TriggerAuto, "")
}

// retryTooLong answers a model call refused as too long: compact once and let the
// loop call again. A second refusal in a row ends the prompt. The refusal names the
// window the API enforces; when it is smaller than the session's, the session adopts
// it (session_window.go), so the compactions that follow keep under it and the
// session is refused once per window it learns, not once per compaction.
func (s *session) retryTooLong(ctx workflow.Context, err error) (bool, error) {
	var mf modelFailure
	if !errors.As(err, &mf) || !contract.IsPromptTooLong(err) || s.triedCompact {
		return false, nil
	}
	if workflow.GetVersion(ctx, contextCompaction, workflow.DefaultVersion, 1) < 1 {
		return false, nil
	}
	s.triedCompact = true
	s.refused = s.learnWindow(ctx, err) // session_window.go
	defer func() { s.refused = nil }()
	if err := s.compact(ctx, TriggerAuto, ""); err != nil {
		return false, err
	}
	return true, nil
}

// compact replaces the conversation the model is sent with a summary the model
// writes (CompactConversation) followed by the most recent messages that fit
// KeepShare of the window; the whole conversation stays in the store. The budget
// state is kept as it is: replaced results stay replaced.
func (s *session) compact(ctx workflow.Context, trigger, instructions string) error {
	if workflow.GetVersion(ctx, contextCompaction, workflow.DefaultVersion, 1) < 1 || s.head.Conversation.Len() == 0 {
		return nil
	}
	instructions = s.preCompact(ctx, trigger, instructions)
	seq := s.head.Next
	s.head.Next++
	before := s.head.Conversation.Len()
	s.phase = PhaseCompacting
	s.publish(ctx)
	actx := workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: modelTimeout,
		HeartbeatTimeout:    s.opts.ModelHeartbeatTimeout,
		Summary:             fmt.Sprintf("Compact %d messages (%s)", before, trigger),
		RetryPolicy: &temporal.RetryPolicy{
			InitialInterval: s.opts.ModelRetryInterval, BackoffCoefficient: 2, MaximumInterval: time.Minute,
			MaximumAttempts:        s.opts.ModelAttempts,
			NonRetryableErrorTypes: []string{contract.ErrModelRejected, contract.ErrPromptTooLong, contract.ErrModelNotConfigured},
		},
	})
	req := contract.CompactRequest{
		Model: s.modelRequest(seq, s.head.Conversation), Instructions: instructions, Trigger: trigger,
		Dir: filepath.Join(filepath.Dir(s.resultsDir), "conversation"),
	}
	keep := workflow.GetVersion(ctx, compactionKeepsRecent, workflow.DefaultVersion, 1) >= 1
	if keep {
		req.KeepBytes = int(KeepShare * float64(s.model.ContextWindow) * bytesPerToken)
	}
	s.fitSummary(&req) // session_window.go
	var rep contract.CompactReply
	err := workflow.ExecuteActivity(actx, contract.CompactActivityName, req).Get(ctx, &rep)
	s.phase = PhaseIdle
	if err != nil {
		return modelFailure{err}
	}
	if !keep {
		rep.Kept = nil
	}
	// The kept messages are the stored ones, sent before with the budget's decisions
	// applied: the budget state stays as it is and they go out byte for byte again.
	s.head.Conversation = contract.Compacted(s.in.SessionID, seq, rep.Size, rep.Kept)
	s.account(rep.Usage, false)
	s.lastUsage, s.ctxBytes = conversation.Usage{}, 0
	s.compactions++
	s.note(SessionEvent{Kind: EventCompact, Text: fmt.Sprintf("compacted (%s): %d messages replaced by a summary of %d bytes and the %d most recent",
		trigger, before, rep.Size, rep.Kept.Len())})
	s.publish(ctx)
	return s.afterCompact(ctx) // session_hooks.go: SessionStart, source compact
}
