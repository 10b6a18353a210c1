package workflows

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/workflow"

	"github.com/toolpipe/toolpipe/contract"
	"github.com/toolpipe/toolpipe/searchattr"
	"github.com/toolpipe/toolpipe/tool"
)

// Memo keys of a finished turn.
const (
	// MemoCalls holds every call (up to detailsMaxRows, as the details show them):
	// id, call, state and first line of error.
	MemoCalls = "calls"
	// MemoFailedCalls is how many calls ended with an error result.
	MemoFailedCalls = "failed_calls"
)

// MemoCall is one call in a finished turn's memo.
type MemoCall struct {
	ID    string `json:"id"`
	Call  string `json:"call"`
	State string `json:"state"`
	Error string `json:"error,omitempty"`
}

// toolErrorOutput reads the tool's output back from a failed activity that only
// says its result is an error (contract.ErrToolError).
func toolErrorOutput(err error) (tool.Output, bool) {
	var app *temporal.ApplicationError
	if err == nil || !errors.As(err, &app) || app.Type() != contract.ErrToolError {
		return tool.Output{}, false
	}
	var out tool.Output
	if app.Details(&out) != nil {
		// Not readable: still the error it said, as a result.
		return tool.Output{Content: app.Message(), IsError: true}, true
	}
	out.IsError = true
	return out, true
}

// recordRefused records a call that never became an activity as a failed
// RefusedCall activity, under the call's summary, so that the timeline lists every
// call. what says why it never ran.
func (t *turn) recordRefused(b tool.Block, r tool.Result, what string) {
	if !t.showFailures {
		return
	}
	// Not the siblings' context: a call refused after a Bash failed is recorded too.
	ctx, _ := workflow.NewDisconnectedContext(t.ctx)
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		StartToCloseTimeout: 10 * time.Second,
		RetryPolicy:         &temporal.RetryPolicy{MaximumAttempts: 1},
		Summary:             t.summary(b) + " (" + what + ")",
	})
	t.records++
	fut := workflow.ExecuteActivity(ctx, contract.RefusedCallActivityName,
		contract.RefusedCallRequest{ToolUseID: b.ID, Error: errorFirstLine(r)})
	workflow.Go(ctx, func(gctx workflow.Context) {
		_ = fut.Get(gctx, nil) // it fails by design: the failure is the record
		t.records--
	})
}

// errorFirstLine is the first line of an error result, without Claude Code's
// <tool_use_error> wrapper; "" for a result that is not an error.
func errorFirstLine(r tool.Result) string {
	if !r.IsError {
		return ""
	}
	s := strings.TrimSpace(r.Content)
	s = strings.TrimPrefix(s, "<tool_use_error>")
	line, _, _ := strings.Cut(s, "\n")
	line = strings.TrimSuffix(line, "</tool_use_error>")
	if rs := []rune(line); len(rs) > 200 {
		line = string(rs[:199]) + "…"
	}
	return line
}

// failedCalls counts the calls whose result is an error.
func (t *turn) failedCalls() int {
	n := 0
	for _, x := range t.tracker.Tools() {
		if x.Result != nil && x.Result.IsError {
			n++
		}
	}
	return n
}

// writeMemo puts the finished turn's calls in its memo: the UI's Memo tab shows them
// from the history, with no worker to ask.
func (t *turn) writeMemo(ctx workflow.Context) {
	if !t.showFailures {
		return
	}
	st := t.detailsState()
	rows := detailRows(st.Tools)
	calls := make([]MemoCall, 0, len(rows))
	for _, i := range rows {
		x := st.Tools[i]
		calls = append(calls, MemoCall{ID: x.ID, Call: x.Description, State: stateWord(x), Error: x.Error})
	}
	if err := workflow.UpsertMemo(ctx, map[string]any{MemoCalls: calls, MemoFailedCalls: t.failedCalls()}); err != nil {
		workflow.GetLogger(ctx).Warn("upsert memo", "error", err)
	}
}

// failedCallsUpdate is ToolpipeFailedCalls for the final status upsert, when the
// namespace has it and the turn shows failures.
func (t *turn) failedCallsUpdate() []temporal.SearchAttributeUpdate {
	if !t.showFailures || !t.in.FailedCallsAttribute {
		return nil
	}
	key := temporal.NewSearchAttributeKeyInt64(searchattr.FailedCalls)
	n := int64(t.failedCalls())
	if v, ok := workflow.GetTypedSearchAttributes(t.ctx).GetInt64(key); ok && v == n {
		return nil
	}
	return []temporal.SearchAttributeUpdate{key.ValueSet(n)}
}

// summary is a refused call's title in the UI: its tool's (tool.Definition.Summary),
// or the name and the usual fields for a name the turn has no tool for. It records
// nothing (the turn's lookup decided the call before).
func (t *turn) summary(b tool.Block) string {
	def, ok := t.mcp[b.Name]
	if !ok {
		def, ok = t.tools.Lookup(b.Name)
	}
	if ok {
		return def.Summary(b.Input)
	}
	subject := tool.Base{}.Subject(b.Input)
	var compact bytes.Buffer
	if tool.IsMCPName(b.Name) && json.Compact(&compact, b.Input) == nil {
		subject = compact.String() // an MCP tool's fields have no fixed names: its whole input shows
	}
	return tool.Title(b.Name, tool.Code(subject, false))
}
