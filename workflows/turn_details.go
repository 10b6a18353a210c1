package workflows

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/toolpipe/toolpipe/scheduler"
	"github.com/toolpipe/toolpipe/searchattr"
	"github.com/toolpipe/toolpipe/tool"
)

// Values of searchattr.Status, which a turn upserts with searchattr.SessionID when
// TurnInput.SearchAttributes says the namespace has them.
const (
	// StatusRunning: the turn has tools to run or may receive more.
	StatusRunning = "running"
	// StatusWaiting: a call waits for a person to approve or deny it, which a
	// visibility query finds across sessions: ToolpipeStatus = "awaiting_approval".
	StatusWaiting = string(StatusAwaitingApproval)
	// StatusDone: every tool has been yielded and the intake is closed.
	StatusDone = "done"
	// StatusCancelled: the workflow was cancelled before it finished.
	StatusCancelled = "cancelled"
	// StatusFailed: the workflow failed (for a session: a model error nothing could
	// fix); its failure says why.
	StatusFailed = "failed"
)

// upsertTerminal records why a turn ends without finishing, on a context that a
// cancellation does not stop (the upsert is the last command of a cancelled run).
func (t *turn) upsertTerminal(ctx workflow.Context, status string) {
	if !t.in.SearchAttributes {
		return
	}
	dctx, _ := workflow.NewDisconnectedContext(ctx)
	if workflow.GetVersion(dctx, terminalStatus, workflow.DefaultVersion, 1) == workflow.DefaultVersion {
		return
	}
	// Tools that complete in the same workflow task still publish their state after
	// this: the terminal status stays.
	t.terminal = status
	upsertSearchAttributes(dctx, t.in.SessionID, status)
}

// detailsMaxRows bounds the table of the current details: the UI shows it at a
// glance, and rendering it runs on every scheduling step of a turn of up to
// MaxToolsPerTurn tools.
const detailsMaxRows = 50

// publish brings what the Temporal UI shows up to date: the current details (held
// by the worker and read through the metadata query, so they add no history event)
// and, when enabled, the status search attribute (one event per change). It is
// called from one place, the end of pump, after every change to the tools' states.
func (t *turn) publish() {
	// siblingCtx is a child of the workflow's root context; the details and search
	// attributes belong to the workflow, whichever context reaches them.
	ctx := t.siblingCtx
	if d := RenderTurnDetails(t.detailsState()); d != workflow.GetCurrentDetails(ctx) {
		workflow.SetCurrentDetails(ctx, d)
	}
	t.upsertStatus(ctx)
}

// detailsState is the State query's answer as far as the details show it, built
// from what the tracker keeps (descriptions computed once) since it runs after
// every scheduling step of turns of up to MaxToolsPerTurn tools.
func (t *turn) detailsState() TurnState {
	s := TurnState{Interruptible: t.tracker.Interruptible(), IntakeClosed: t.closed, Errored: t.tracker.Errored(),
		Pending: t.pendingList(), Notices: t.gate.notices}
	s.Tools = make([]ToolState, 0, len(t.tracker.Tools()))
	for _, x := range t.tracker.Tools() {
		ts := ToolState{ID: x.Block.ID, Name: x.Block.Name, Description: x.Description, Status: x.Status}
		if x.Result != nil {
			ts.IsError = x.Result.IsError
			ts.Error = errorFirstLine(*x.Result)
		}
		if t.awaitingApproval(x.Block.ID) {
			ts.Status = StatusAwaitingApproval
		}
		s.Tools = append(s.Tools, ts)
	}
	return s
}

// upsertStatus keeps ToolpipeSessionID and ToolpipeStatus current. It does nothing
// unless the starter said the namespace has them: upserting an unregistered search
// attribute fails every workflow task, and turns recorded before this existed carry
// false, so they replay with no new command.
func (t *turn) upsertStatus(ctx workflow.Context) {
	if !t.in.SearchAttributes {
		return
	}
	status := StatusRunning
	var extra []temporal.SearchAttributeUpdate
	switch {
	case t.terminal != "":
		status = t.terminal
	case t.finished():
		status = StatusDone
		extra = t.failedCallsUpdate() // turn_failures.go: in the same event as done
	case len(t.pendingList()) > 0:
		status = StatusWaiting
	}
	upsertSearchAttributes(ctx, t.in.SessionID, status, extra...)
}

// upsertSearchAttributes sets ToolpipeSessionID and ToolpipeStatus, with one event
// only when a value changes. The SDK keeps the values upserted so far (and those set
// at start), also on replay: they are the state that says what changed.
func upsertSearchAttributes(ctx workflow.Context, sessionID, status string, extra ...temporal.SearchAttributeUpdate) {
	statusKey := temporal.NewSearchAttributeKeyKeyword(searchattr.Status)
	sessionKey := temporal.NewSearchAttributeKeyKeyword(searchattr.SessionID)
	current := workflow.GetTypedSearchAttributes(ctx)
	var updates []temporal.SearchAttributeUpdate
	if v, ok := current.GetKeyword(statusKey); !ok || v != status {
		updates = append(updates, statusKey.ValueSet(status))
	}
	if v, ok := current.GetKeyword(sessionKey); !ok || v != sessionID {
		updates = append(updates, sessionKey.ValueSet(sessionID))
	}
	updates = append(updates, extra...)
	if len(updates) == 0 {
		return
	}
	if err := workflow.UpsertTypedSearchAttributes(ctx, updates...); err != nil {
		workflow.GetLogger(ctx).Warn("upsert search attributes", "error", err)
	}
}

// RenderTurnDetails renders a turn's state as the markdown of its current details in
// the Temporal UI: a line of counts, then a table of tools and their states.
func RenderTurnDetails(s TurnState) string {
	var b strings.Builder
	counts := map[string]int{}
	for _, x := range s.Tools {
		counts[stateWord(x)]++
	}
	fmt.Fprintf(&b, "**%d tool call(s)**", len(s.Tools))
	order := []string{"executing", "queued", "done", "error"}
	var others []string // states this file does not know, e.g. awaiting approval
	for w := range counts {
		if !slices.Contains(order, w) {
			others = append(others, w)
		}
	}
	slices.Sort(others) // never map order: the details must not vary
	for _, w := range append(others, order...) {
		if counts[w] > 0 {
			fmt.Fprintf(&b, " · %d %s", counts[w], w)
		}
	}
	if s.Interruptible {
		b.WriteString(" · interruptible")
	}
	if !s.IntakeClosed {
		b.WriteString(" · more may stream in")
	}
	b.WriteString("\n")
	if s.Errored {
		b.WriteString("\nA Bash call failed: its parallel siblings were cancelled.\n")
	}
	// What waits for a person comes before the table: it is why one opens the page.
	if len(s.Pending) > 0 {
		fmt.Fprintf(&b, "\n**Waiting for approval (%d)** · answer with `starter approve|deny <workflow id> <tool_use id>`\n\n", len(s.Pending))
		for _, p := range s.Pending {
			fmt.Fprintf(&b, "- `%s` `%s`: %s (since %s; denied if unanswered at %s)\n", cell(p.ToolUseID), cell(p.Description),
				strings.Join(strings.Fields(p.Reason), " "), p.Since.UTC().Format(time.RFC3339), p.Deadline.UTC().Format(time.RFC3339))
		}
	}
	if len(s.Tools) == 0 {
		return b.String()
	}
	b.WriteString("\n| # | id | call | state | error |\n|---:|---|---|---|---|\n")
	rows := detailRows(s.Tools)
	for _, i := range rows {
		x := s.Tools[i]
		errText := ""
		if x.Error != "" {
			errText = "`" + cell(x.Error) + "`"
		}
		fmt.Fprintf(&b, "| %d | `%s` | `%s` | %s | %s |\n", i+1, cell(x.ID), cell(x.Description), stateWord(x), errText)
	}
	if hidden := len(s.Tools) - len(rows); hidden > 0 {
		fmt.Fprintf(&b, "\n%d finished tool call(s) not shown.\n", hidden)
	}
	if n := len(s.Notices); n > 0 {
		b.WriteString("\n**Notices:**\n\n")
		for _, x := range s.Notices[max(n-detailsMaxNotices, 0):] {
			fmt.Fprintf(&b, "- `%s`: %s\n", cell(x.ToolUseID), strings.Join(strings.Fields(x.Text), " "))
		}
	}
	return b.String()
}

// detailsMaxNotices bounds the notices shown: the latest ones matter.
const detailsMaxNotices = 10

// detailRows picks which tools the table shows: all of them when they fit, else
// every unfinished one and then the most recent finished ones, in arrival order.
func detailRows(tools []ToolState) []int {
	if len(tools) <= detailsMaxRows {
		rows := make([]int, len(tools))
		for i := range rows {
			rows[i] = i
		}
		return rows
	}
	var rows []int
	for i, x := range tools {
		if !finished(x) && len(rows) < detailsMaxRows {
			rows = append(rows, i)
		}
	}
	for i := len(tools) - 1; i >= 0 && len(rows) < detailsMaxRows; i-- {
		if finished(tools[i]) {
			rows = append(rows, i)
		}
	}
	slices.Sort(rows)
	return rows
}

func finished(x ToolState) bool {
	return x.Status == scheduler.Completed || x.Status == scheduler.Yielded
}

// stateWord is a tool's state for people: completed and yielded are both "done"
// (or "error"), since the difference only matters to the result ordering. A state
// this file does not know (say, waiting for an approval) shows as it is.
func stateWord(x ToolState) string {
	switch {
	case finished(x) && x.IsError:
		return "error"
	case finished(x):
		return "done"
	}
	return string(x.Status)
}

// cell makes text safe inside a markdown table's code span: one line, no pipe or
// backtick that would end the cell or the span early.
func cell(s string) string {
	return cellEscaper.Replace(strings.Join(strings.Fields(s), " "))
}

var cellEscaper = strings.NewReplacer("|", `\|`, "`", "'")

// TurnStaticSummary is the one-line title of a turn in the Temporal UI's workflow
// list, set when the turn is started.
func TurnStaticSummary(in TurnInput) string {
	if in.CloseIntake {
		return fmt.Sprintf("Turn of session %s: %d tool call(s)", in.SessionID, len(in.Blocks))
	}
	return fmt.Sprintf("Turn of session %s: streamed tool calls", in.SessionID)
}

// TurnStaticDetails is the markdown the Temporal UI shows under a turn's summary:
// where its tools run and the calls known when it was started. Later changes are in
// the current details.
func TurnStaticDetails(in TurnInput) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Session `%s`, working directory `%s`.\n", cell(in.SessionID), cell(in.Workdir))
	if !in.CloseIntake {
		b.WriteString("\nThe assistant message is streamed: more tool calls arrive while the turn runs.\n")
	}
	if len(in.Blocks) == 0 {
		return b.String()
	}
	b.WriteString("\nTool calls at start:\n\n")
	for i, blk := range in.Blocks {
		if i == detailsMaxRows {
			fmt.Fprintf(&b, "- … and %d more\n", len(in.Blocks)-i)
			break
		}
		fmt.Fprintf(&b, "- `%s` `%s`\n", cell(blk.ID), cell(tool.Describe(blk)))
	}
	return b.String()
}
