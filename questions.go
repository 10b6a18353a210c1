package toolpipe

import (
	"context"
	"time"

	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/workflows"
)

// Question is one question of the model's AskUserQuestion call.
type Question struct {
	Question    string           `json:"question"`
	Header      string           `json:"header"`
	Options     []QuestionOption `json:"options"`
	MultiSelect bool             `json:"multiSelect"`
}

// QuestionOption is one choice of a Question.
type QuestionOption struct {
	Label       string `json:"label"`
	Description string `json:"description"`
	Preview     string `json:"preview,omitempty"`
}

// PendingQuestion is an AskUserQuestion call waiting for a person (SessionState's
// Questions).
type PendingQuestion struct {
	ToolUseID string     `json:"tool_use_id"`
	Questions []Question `json:"questions"`
	AskedAt   time.Time  `json:"asked_at"`
	// Deadline is when nobody having answered becomes the answer (the session's
	// QuestionTimeout); zero: none.
	Deadline time.Time `json:"deadline,omitempty"`
}

// AnswerRequest answers an AskUserQuestion call.
type AnswerRequest struct {
	// ToolUseID is the call answered; empty while only one waits.
	ToolUseID string `json:"tool_use_id,omitempty"`
	// Answers are by question (its text, or its number from 1): an option's label
	// or number, several comma-separated for a multiSelect question, or the
	// person's own words.
	Answers map[string]string `json:"answers,omitempty"`
	// Response is a free reply instead of answers.
	Response string `json:"response,omitempty"`
}

// AnswerResponse says what the model was told.
type AnswerResponse struct {
	ToolUseID string `json:"tool_use_id"`
	Result    string `json:"result"`
}

// Wakeup is a session's pending ScheduleWakeup (SessionState's Wakeup): at At the
// session wakes with Prompt.
type Wakeup struct {
	At      time.Time `json:"at"`
	Seconds int       `json:"seconds"`
	Prompt  string    `json:"prompt"`
	Reason  string    `json:"reason,omitempty"`
	// Noop: the round that armed it found nothing to report; NoopStreak counts
	// such rounds in a row.
	Noop       bool `json:"noop,omitempty"`
	NoopStreak int  `json:"noop_streak,omitempty"`
}

// Answer answers the questions of a waiting AskUserQuestion call (State's
// Questions lists them) and returns once the model's result is settled, with its
// text. Any process may answer while the session waits: the one that started it
// need not run.
func (s *Session) Answer(ctx context.Context, req AnswerRequest) (AnswerResponse, error) {
	var r workflows.AnswerResponse
	err := update(ctx, s.c, "session", s.ID, "answer", workflows.AnswerUpdate, &r,
		workflows.AnswerRequest{ToolUseID: req.ToolUseID, Answers: req.Answers, Response: req.Response})
	return AnswerResponse(r), err
}

func pendingQuestions(qs []workflows.PendingQuestion) []PendingQuestion {
	var out []PendingQuestion
	for _, q := range qs {
		p := PendingQuestion{ToolUseID: q.ToolUseID, AskedAt: q.AskedAt, Deadline: q.Deadline}
		for _, qq := range q.Questions {
			p.Questions = append(p.Questions, question(qq))
		}
		out = append(out, p)
	}
	return out
}

func question(q tool.Question) Question {
	out := Question{Question: q.Question, Header: q.Header, MultiSelect: q.MultiSelect}
	for _, o := range q.Options {
		out.Options = append(out.Options, QuestionOption(o))
	}
	return out
}

func wakeup(w *workflows.Wakeup) *Wakeup {
	if w == nil {
		return nil
	}
	return &Wakeup{At: w.At, Seconds: w.Seconds, Prompt: w.Prompt, Reason: w.Reason, Noop: w.Noop, NoopStreak: w.NoopStreak}
}
