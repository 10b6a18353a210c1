package toolpipe

import (
	"context"

	"github.com/toolpipe/toolpipe/workflows"
)

// The wire types of answering an AskUserQuestion call.
type (
	AnswerRequest   = workflows.AnswerRequest
	AnswerResponse  = workflows.AnswerResponse
	PendingQuestion = workflows.PendingQuestion
)

// Answer answers the questions of a waiting AskUserQuestion call (State's
// Questions lists them): by question (its text or number), an option's label or
// number, or the person's own words; req.ToolUseID may stay empty while only one
// call waits. It returns once the model's result is settled, with its text. Any
// process may answer, at any time the session waits: the asking one need not run.
func (s *Session) Answer(ctx context.Context, req AnswerRequest) (AnswerResponse, error) {
	var r AnswerResponse
	err := update(ctx, s.c, "session", s.ID, "answer", workflows.AnswerUpdate, &r, req)
	return r, err
}
