package workflows

import (
	"fmt"
	"path/filepath"

	"go.temporal.io/sdk/workflow"

	"github.com/toolpipe/toolpipe/budget"
	"github.com/toolpipe/toolpipe/contract"
	"github.com/toolpipe/toolpipe/conversation"
	"github.com/toolpipe/toolpipe/internal/preview"
	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/wire"
)

// appendPending applies the conversation budget (DESIGN §4.3) to the messages the
// model has not seen yet (the last turn's results and the user's new messages) and
// stores them. Every message before them was budgeted when it was new and is stored
// as it was sent: Enforce freezes what it has seen, so budgeting only the new tail
// gives exactly what budgeting the whole conversation would, and the stored prefix
// never changes a byte.
func (s *session) appendPending(ctx workflow.Context) error {
	queued := len(s.pendingUser)
	var tail []conversation.Message
	if len(s.pendingResults) > 0 {
		tail = append(tail, conversation.ToolResults(s.pendingResults))
	}
	tail = append(tail, s.pendingUser...)
	if len(tail) == 0 {
		return nil
	}
	out, records, err := budget.Enforce(conversation.ToBudget(tail), s.state, s.budgetConfig())
	if err != nil {
		return fmt.Errorf("session: budget: %w", err)
	}
	msgs := conversation.FromBudget(tail, out)
	req := conversation.AppendRequest{SessionID: s.in.SessionID, Seq: s.head.Next, Messages: msgs, Records: records}
	for _, r := range records {
		req.Originals = append(req.Originals, conversation.Original{ToolUseID: r.ToolUseID, Content: originalOf(tail, r.ToolUseID)})
	}
	head := s.head
	before := head.Conversation // what a rewind to before the next call keeps (session_rewind.go)
	for i, m := range msgs {
		head.Conversation = head.Conversation.Append(s.in.SessionID, s.head.Next+i, 1, m.Size())
		if i == 0 && len(s.pendingResults) > 0 {
			before = head.Conversation
		}
	}
	head.Next += len(msgs)
	req.Head = head
	summary := fmt.Sprintf("Append %d message(s), %d replaced result(s)", len(msgs), len(records))
	if err := workflow.ExecuteActivity(s.storeCtx(ctx, summary), s.names.of(contract.AppendActivityName), req).Get(ctx, nil); err != nil {
		return err
	}
	s.head = head
	s.markPoint(before, s.pendingUser[:queued])
	if len(s.pendingResults) > 0 {
		s.lastResults = msgs[0].Size()
	}
	// Messages queued during the append wait for the next call, their hooks not yet run.
	s.pendingResults, s.pendingUser, s.checkedUser = nil, s.arrivedSince(ctx, queued), 0 // session_arrivals.go
	s.toolNames = map[string]string{}
	return nil
}

// budgetConfig builds the stub of a replaced result exactly as the append activity
// will persist it, <results dir>/<id>.txt, from the content in hand: the workflow
// decides the bytes the model sees, the activity only writes the original.
func (s *session) budgetConfig() budget.Config {
	return budget.Config{
		BudgetChars: s.opts.BudgetChars,
		Stub: func(id, content string) string {
			cut, more := preview.Preview([]byte(content), preview.PreviewSizeBytes)
			return preview.Message(preview.Output{
				Path: filepath.Join(s.resultsDir, id+".txt"), Size: int64(len(content)), Preview: cut, HasMore: more,
			})
		},
		Exempt: func(id string) bool {
			// An id that cannot name a file cannot be persisted, so it is never replaced.
			if preview.ValidateName("tool_use_id", id) != nil {
				return true
			}
			def, ok := s.tools.Lookup(s.toolNames[id])
			return ok && def.MaxResultSizeChars() == tool.Unlimited
		},
	}
}

// originalOf finds the content a replacement stands for.
func originalOf(msgs []conversation.Message, id string) string {
	for _, m := range msgs {
		for _, b := range m.Content {
			if b.Type == wire.BlockToolResult && b.ToolUseID == id {
				return b.Content
			}
		}
	}
	return ""
}
