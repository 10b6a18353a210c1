package activities

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"

	"go.temporal.io/sdk/temporal"

	"github.com/toolpipe/toolpipe/budget"
	"github.com/toolpipe/toolpipe/contract"
	"github.com/toolpipe/toolpipe/conversation"
	"github.com/toolpipe/toolpipe/internal/preview"
)

// AppendMessages stores budgeted messages of a session: first the full text of each
// result the budget replaced (where its stub says it is), then the replacement
// records, then the messages, then the head. Every write is idempotent, so a retry
// finishes what a lost attempt started.
func (a *Agent) AppendMessages(ctx context.Context, req conversation.AppendRequest) (conversation.AppendReply, error) {
	for _, o := range req.Originals {
		if _, err := a.fs.Persist(req.SessionID, o.ToolUseID, []byte(o.Content), false); err != nil {
			return conversation.AppendReply{}, storeFailure(err)
		}
	}
	if len(req.Records) > 0 {
		if err := a.convs.WriteRecords(req.SessionID, req.Seq, req.Records); err != nil {
			return conversation.AppendReply{}, storeFailure(err)
		}
	}
	reply := conversation.AppendReply{Sizes: make([]int, 0, len(req.Messages))}
	for i, m := range req.Messages {
		stored, err := a.convs.WriteMessage(req.SessionID, req.Seq+i, m)
		if err != nil {
			return conversation.AppendReply{}, storeFailure(err)
		}
		// A retry writes the same bytes; anything else means two conversations claim
		// the same message, and going on would send the model the wrong one.
		if !sameMessage(stored, m) {
			return conversation.AppendReply{}, temporal.NewApplicationErrorWithOptions(
				fmt.Sprintf("conversation store: message %d of session %s is stored with other content", req.Seq+i, req.SessionID),
				contract.ErrConversationStore, temporal.ApplicationErrorOptions{NonRetryable: true})
		}
		reply.Sizes = append(reply.Sizes, stored.Size())
	}
	if err := a.convs.WriteHead(req.SessionID, req.Head); err != nil {
		return conversation.AppendReply{}, storeFailure(err)
	}
	return reply, nil
}

// OpenSession tells a session where its replaced results go and, when it resumes,
// where its conversation stands: the head it stored, and its replacement state
// reconstructed from its messages and records (on top of the parent's state when it
// was a fork), so that it makes the decisions it made before.
func (a *Agent) OpenSession(ctx context.Context, req conversation.OpenRequest) (conversation.OpenReply, error) {
	p, err := a.fs.Path(req.SessionID, "x", false)
	if err != nil {
		return conversation.OpenReply{}, storeFailure(err)
	}
	reply := conversation.OpenReply{ResultsDir: filepath.Dir(p)}
	head, found, err := a.convs.ReadHead(req.SessionID)
	if err != nil || !found {
		return reply, storeFailure(err)
	}
	msgs, err := a.convs.Load(head.Conversation)
	if err != nil {
		return reply, storeFailure(err)
	}
	records, err := a.sessionRecords(req.SessionID, head) // session_rewind.go: a fork's parents' too
	if err != nil {
		return reply, err
	}
	var inherited *budget.State
	if head.Forked {
		inherited = req.Inherited
	}
	timeline, err := a.convs.Workspace(req.SessionID)
	if err != nil {
		return reply, storeFailure(err)
	}
	if n := len(timeline); n > 0 {
		reply.Workspace = &timeline[n-1]
	}
	reply.Found, reply.Head = true, head
	reply.State = budget.Reconstruct(conversation.ToBudget(msgs), records, inherited)
	return reply, nil
}

func sameMessage(a, b conversation.Message) bool {
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && string(x) == string(y)
}

// storeFailure: a bad name cannot get better; an I/O error may.
func storeFailure(err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, preview.ErrInvalidName) {
		return temporal.NewApplicationErrorWithOptions("conversation store: "+err.Error(), contract.ErrConversationStore,
			temporal.ApplicationErrorOptions{NonRetryable: true})
	}
	return storeError(err)
}
