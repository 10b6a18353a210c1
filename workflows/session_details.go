package workflows

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"go.temporal.io/sdk/workflow"

	"github.com/toolpipe/toolpipe/conversation"
)

// summaryPromptRunes is how much of the prompt a session's static summary shows.
const summaryPromptRunes = 60

// SessionStaticSummary is the one-line title of a session in the Temporal UI's
// workflow list, set by whoever starts it: "agent: " and the start of its prompt.
func SessionStaticSummary(in SessionInput) string {
	p := strings.Join(strings.Fields(in.Prompt), " ")
	if p == "" {
		return "agent: session " + in.SessionID
	}
	if utf8.RuneCountInString(p) > summaryPromptRunes {
		p = string([]rune(p)[:summaryPromptRunes-1]) + "…"
	}
	return "agent: " + p
}

// SessionStaticDetails is the markdown under a session's summary: what it was started
// with. Where it stands is in its current details.
func SessionStaticDetails(in SessionInput) string {
	model := in.Model.withDefaults()
	opts := in.Options.withDefaults()
	var b strings.Builder
	fmt.Fprintf(&b, "Session `%s`, working directory `%s`.\n\n", cell(in.SessionID), cell(in.Workdir))
	fmt.Fprintf(&b, "Model `%s`, at most %d model calls, a budget of %d chars per user message.\n", cell(model.Model), opts.MaxTurns, opts.BudgetChars)
	return b.String()
}

// SessionDetails is what a session's current details show.
type SessionDetails struct {
	State SessionState
	// Budget is the limit of one user message's tool results, in chars;
	// LastResults the size of the last results message after the budget.
	Budget, LastResults int
	// ModelStop is the stop reason of the last model call.
	ModelStop string
	MaxTurns  int
}

// phaseWords says a session's phase for people.
func phaseWords(st SessionState) string {
	if len(st.Questions) > 0 { // the turn waits for them
		return fmt.Sprintf("waiting for a person to answer (AskUserQuestion, turn %d)", st.TurnNumber)
	}
	switch st.Phase {
	case PhaseModel:
		if st.TurnNumber > 0 { // its turn has started: tools run while it streams
			return fmt.Sprintf("calling the model (call %d) · running turn %d", st.Turns+1, st.TurnNumber)
		}
		return fmt.Sprintf("calling the model (call %d)", st.Turns+1)
	case PhaseTools:
		return fmt.Sprintf("running turn %d (of model call %d)", st.TurnNumber, st.Turns+1)
	case PhaseDone:
		return "done: " + st.StopReason
	case PhaseCompacting:
		return fmt.Sprintf("compacting the conversation (before model call %d)", st.Turns+1)
	case PhaseBackground:
		return "waiting for background tasks"
	case PhaseSleeping:
		if w := st.Wakeup; w != nil {
			return fmt.Sprintf("sleeping until %s UTC (ScheduleWakeup)", w.At.UTC().Format("15:04:05"))
		}
		return "sleeping (ScheduleWakeup)"
	}
	return "between turns"
}

// RenderSessionDetails renders a session's state as the markdown of its current
// details in the Temporal UI.
func RenderSessionDetails(d SessionDetails) string {
	st := d.State
	var b strings.Builder
	fmt.Fprintf(&b, "**%s** · %d of at most %d model calls\n\n", phaseWords(st), st.Turns, d.MaxTurns)
	fmt.Fprintf(&b, "| | |\n|---|---|\n")
	if st.TurnID != "" {
		fmt.Fprintf(&b, "| current turn | `%s` (its details list the tools and any approvals waited for) |\n", cell(st.TurnID))
	}
	fmt.Fprintf(&b, "| tokens | %s |\n", UsageWords(st.Usage))
	if st.LastUsage != (conversation.Usage{}) {
		fmt.Fprintf(&b, "| last call | %s · context %d of %d tokens |\n", UsageWords(st.LastUsage), st.LastUsage.Context(), st.ContextWindow)
	}
	fmt.Fprintf(&b, "| cost | $%.4f (estimated, %s prices) |\n", st.Cost, cell(st.Model))
	fmt.Fprintf(&b, "| conversation | %d messages, %d bytes |\n", st.Messages, st.Bytes)
	fmt.Fprintf(&b, "| budget | last results %d of %d chars · %d results judged, %d replaced |\n",
		d.LastResults, d.Budget, st.Seen, st.Replaced)
	if st.PendingUser > 0 {
		fmt.Fprintf(&b, "| waiting messages | %d |\n", st.PendingUser)
	}
	if st.LastError != "" {
		fmt.Fprintf(&b, "| last error | %s |\n", cell(st.LastError))
	}
	if d.ModelStop != "" {
		fmt.Fprintf(&b, "| last stop reason | `%s` |\n", cell(d.ModelStop))
	}
	if st.Runs > 0 {
		fmt.Fprintf(&b, "| runs | %d (continued as new) |\n", st.Runs+1)
	}
	if p := st.Placement; p != nil {
		fmt.Fprintf(&b, "| host | `%s` (task queue `%s`, placement %d) |\n", cell(p.Host), cell(p.Queue), p.Generation)
	}
	if st.PlanMode {
		fmt.Fprintf(&b, "| mode | plan: calls that could change something are refused until a plan is approved |\n")
	}
	for _, t := range st.Tasks {
		fmt.Fprintf(&b, "| task #%s | %s · %s%s |\n", cell(t.ID), t.Status, cell(t.Subject), taskLinks(t))
	}
	for _, t := range st.BackgroundTasks {
		fmt.Fprintf(&b, "| background task `%s` | %s · `%s` |\n", cell(t.ID), t.Status, cell(t.Command))
	}
	for _, q := range st.Questions {
		for i, qq := range q.Questions {
			fmt.Fprintf(&b, "| question `%s` %d | **%s** %s — answer: `starter agent answer %s ANSWER…` |\n", cell(q.ToolUseID), i+1, cell(qq.Header), cell(qq.Question), cell(st.SessionID))
		}
	}
	if w := st.Wakeup; w != nil {
		fmt.Fprintf(&b, "| wake-up | %s UTC (%ds) · %s · prompt `%s` |\n", w.At.UTC().Format("2006-01-02 15:04:05"), w.Seconds, cell(w.Reason), cell(w.Prompt))
	}
	for _, h := range st.History { // session_rewind.go: the turn to rewind or fork at
		turn := "-"
		if h.Turn > 0 {
			turn = fmt.Sprint(h.Turn)
		}
		files := ""
		if len(h.Files) > 0 {
			files = " · " + cell(strings.Join(h.Files, ", "))
		}
		fmt.Fprintf(&b, "| history turn %s | %s%s · %d in, %d out |\n", turn, cell(h.What), files, h.InTokens, h.OutTokens)
	}
	cps := st.Checkpoints
	if drop := len(cps) - maxCheckpointsShown; drop > 0 {
		fmt.Fprintf(&b, "| checkpoints | %d (the newest %d below) |\n", len(cps), maxCheckpointsShown)
		cps = cps[drop:]
	}
	for _, c := range cps { // session_checkpoint.go
		fmt.Fprintf(&b, "| %s | `%s` (%d files, %d changed) |\n", checkpointLabel(c), shortID(c.Checkpoint), c.Files, c.Changed)
	}
	return b.String()
}

// publish brings the current details up to date after a change of phase, turn,
// usage or budget. They are held by the worker and read through the metadata query:
// no history event, so replays and old histories are unaffected.
func (s *session) publish(ctx workflow.Context) {
	st, _ := s.stateQuery()
	d := RenderSessionDetails(SessionDetails{
		State: st, Budget: s.opts.BudgetChars, LastResults: s.lastResults, ModelStop: s.modelStop, MaxTurns: s.opts.MaxTurns,
	})
	if d != workflow.GetCurrentDetails(ctx) {
		workflow.SetCurrentDetails(ctx, d)
	}
	if s.in.SearchAttributes { // false in sessions recorded before: no new command
		status := StatusRunning
		switch {
		case s.done:
			status = StatusDone
		case len(s.questions) > 0:
			status = StatusAwaitingAnswer // only sessions that asked (askedQuestions)
		case s.phase == PhaseSleeping:
			status = StatusSleeping // only sessions that armed a wake-up (scheduledWakeups)
		}
		upsertSearchAttributes(ctx, s.in.SessionID, status)
	}
}

// UsageWords says a usage for people: input billed in full, cache writes and reads,
// output.
func UsageWords(u conversation.Usage) string {
	return fmt.Sprintf("%d in, %d cache write, %d cache read, %d out",
		u.InputTokens, u.CacheCreationInputTokens, u.CacheReadInputTokens, u.OutputTokens)
}
