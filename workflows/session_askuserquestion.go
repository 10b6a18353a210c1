package workflows

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"go.temporal.io/sdk/workflow"

	"github.com/toolpipe/toolpipe/hooks"
	"github.com/toolpipe/toolpipe/tool"
)

// AnswerUpdate answers the questions of a waiting AskUserQuestion call.
const AnswerUpdate = "Answer"

// StatusAwaitingAnswer is ToolpipeStatus of a session whose model waits for a
// person to answer its questions: ToolpipeStatus = "awaiting_answer" finds them.
const StatusAwaitingAnswer = "awaiting_answer"

// AnswerRequest answers an AskUserQuestion call.
type AnswerRequest struct {
	// ToolUseID is the call answered; empty when only one call waits.
	ToolUseID string `json:"tool_use_id,omitempty"`
	// Answers are by question: its text, or its number (1-4). An answer is an
	// option's label or number, several of them comma-separated for a multiSelect
	// question, or the person's own words.
	Answers map[string]string `json:"answers,omitempty"`
	// Response is a free reply instead of answers.
	Response string `json:"response,omitempty"`
}

// AnswerResponse is what the model was told.
type AnswerResponse struct {
	ToolUseID string `json:"tool_use_id"`
	Result    string `json:"result"`
}

// PendingQuestion is an AskUserQuestion call waiting for a person.
type PendingQuestion struct {
	ToolUseID string          `json:"tool_use_id"`
	Questions []tool.Question `json:"questions"`
	AskedAt   time.Time       `json:"asked_at"`
	// Deadline is when nobody having answered is the answer; zero: none.
	Deadline time.Time `json:"deadline,omitempty"`

	answer *AnswerRequest
}

// askUser answers an AskUserQuestion call: it waits until a person answers (the
// Answer update), the session's QuestionTimeout passes, or the user sends a
// message instead, and answers the model in Claude Code's words.
func (s *session) askUser(ctx workflow.Context, ask BackgroundAsk) BackgroundReply {
	workflow.GetVersion(ctx, askedQuestions, workflow.DefaultVersion, 1) // marks histories that asked
	qs := tool.QuestionsOf(ask.Call.Input)
	if s.done {
		return BackgroundReply{Content: "Error: the session is ending; the questions were not asked.", IsError: true}
	}
	if pq := s.questions.find(ask.ToolUseID); pq != nil { // the same call asked twice: one wait
		_ = workflow.Await(ctx, func() bool { return s.questions.find(ask.ToolUseID) == nil })
		return BackgroundReply{Content: "Error: this call was already answered.", IsError: true}
	}
	pq := &PendingQuestion{ToolUseID: ask.ToolUseID, Questions: qs, AskedAt: workflow.Now(ctx)}
	timeout := s.opts.QuestionTimeout
	if timeout > 0 {
		pq.Deadline = pq.AskedAt.Add(timeout)
	}
	s.questions = append(s.questions, pq)
	seq := s.promptSeq
	s.note(SessionEvent{Kind: EventQuestion, ToolUseID: ask.ToolUseID, Text: questionWords(s.in.SessionID, pq)})
	s.publish(ctx)
	s.notifyQuestion(ctx, pq)
	answered := func() bool { return pq.answer != nil || s.promptSeq != seq }
	timedOut := false
	if timeout > 0 {
		ok, _ := workflow.AwaitWithTimeout(ctx, timeout, answered)
		timedOut = !ok
	} else {
		_ = workflow.Await(ctx, answered)
	}
	s.questions = slices.DeleteFunc(s.questions, func(q *PendingQuestion) bool { return q == pq })
	out := tool.AskUserQuestionOutput{Questions: qs, Answers: map[string]string{}}
	var content string
	switch {
	case pq.answer != nil:
		out.Answers, out.Response = resolveAnswers(qs, *pq.answer), pq.answer.Response
		content = tool.AnswerText(qs, out.Answers, out.Response, 0)
	case timedOut:
		out.AfkTimeoutMs = timeout.Milliseconds()
		content = tool.AnswerText(qs, nil, "", timeout)
	default: // a message came instead: the model reads it next
		content = "The user did not answer the questions: they sent a message instead, which follows."
	}
	s.note(SessionEvent{Kind: EventNotice, ToolUseID: ask.ToolUseID, Text: "question answered: " + content})
	s.publish(ctx)
	resp, _ := json.Marshal(out)
	return BackgroundReply{Content: content, Response: resp}
}

// notifyQuestion runs the Notification hooks (type elicitation_dialog) beside
// the wait: they are told, they do not answer.
func (s *session) notifyQuestion(ctx workflow.Context, pq *PendingQuestion) {
	cmds := s.sessionHooks(hooks.Notification, "elicitation_dialog")
	if len(cmds) == 0 {
		return
	}
	workflow.Go(ctx, func(ctx workflow.Context) {
		s.runSessionHooks(ctx, hooks.Notification, cmds, func(in *hooks.Input) {
			in.Message = "Claude has a question for you: " + pq.Questions[0].Question
			in.NotificationType = "elicitation_dialog"
		})
	})
}

// questionWords says for people what waits and how to answer it.
func questionWords(session string, pq *PendingQuestion) string {
	var b strings.Builder
	fmt.Fprintf(&b, "question waiting (%s): ", pq.ToolUseID)
	for i, q := range pq.Questions {
		if i > 0 {
			b.WriteString(" | ")
		}
		fmt.Fprintf(&b, "%d. [%s] %s", i+1, q.Header, q.Question)
		for j, o := range q.Options {
			fmt.Fprintf(&b, " (%d) %s", j+1, o.Label)
		}
	}
	fmt.Fprintf(&b, " — answer with `starter agent answer %s ANSWER...` (one per question: an option's number or label, or your own words)", session)
	return b.String()
}

// find is the waiting call toolUseID, or nil.
func (qs pendingQuestions) find(toolUseID string) *PendingQuestion {
	for _, q := range qs {
		if q.ToolUseID == toolUseID {
			return q
		}
	}
	return nil
}

// pendingQuestions are the calls waiting for a person, in the order asked.
type pendingQuestions []*PendingQuestion

// state copies them for the state query.
func (qs pendingQuestions) state() []PendingQuestion {
	var out []PendingQuestion
	for _, q := range qs {
		c := *q
		c.answer = nil
		out = append(out, c)
	}
	return out
}

// target is the waiting call an answer is for, or why there is none.
func (s *session) questionTarget(req AnswerRequest) (*PendingQuestion, error) {
	switch {
	case len(s.questions) == 0:
		return nil, errors.New("no question waits in this session")
	case req.ToolUseID != "":
		if pq := s.questions.find(req.ToolUseID); pq != nil {
			return pq, nil
		}
		return nil, fmt.Errorf("no question of call %q waits (waiting: %s)", req.ToolUseID, s.questionIDs())
	case len(s.questions) > 1:
		return nil, fmt.Errorf("%d calls wait for answers (%s): say which one", len(s.questions), s.questionIDs())
	}
	return s.questions[0], nil
}

func (s *session) questionIDs() string {
	var ids []string
	for _, q := range s.questions {
		ids = append(ids, q.ToolUseID)
	}
	return strings.Join(ids, ", ")
}

// validAnswer refuses an answer to nothing, or one naming a question the call
// did not ask.
func (s *session) validAnswer(req AnswerRequest) error {
	pq, err := s.questionTarget(req)
	if err != nil {
		return err
	}
	if len(req.Answers) == 0 && strings.TrimSpace(req.Response) == "" {
		return tool.ErrNoAnswers
	}
	for _, k := range workflow.DeterministicKeys(req.Answers) {
		if questionIndex(pq.Questions, k) < 0 {
			return fmt.Errorf("the call %s asked no question %q: name a question by its text or its number (1-%d)", pq.ToolUseID, k, len(pq.Questions))
		}
	}
	return nil
}

// questionIndex is the question key names (its text or 1-based number), or -1.
func questionIndex(qs []tool.Question, key string) int {
	for i, q := range qs {
		if key == q.Question || key == fmt.Sprint(i+1) {
			return i
		}
	}
	return -1
}

// resolveAnswers keys the answers by question text, options' numbers read as
// their labels.
func resolveAnswers(qs []tool.Question, req AnswerRequest) map[string]string {
	out := map[string]string{}
	for _, k := range workflow.DeterministicKeys(req.Answers) {
		if i := questionIndex(qs, k); i >= 0 && strings.TrimSpace(req.Answers[k]) != "" {
			out[qs[i].Question] = qs[i].ResolveAnswer(req.Answers[k])
		}
	}
	return out
}

// registerAnswer installs the Answer update (session_handlers.go calls it).
func (s *session) registerAnswer(ctx workflow.Context) error {
	return workflow.SetUpdateHandlerWithOptions(ctx, AnswerUpdate,
		func(ctx workflow.Context, req AnswerRequest) (AnswerResponse, error) {
			pq, _ := s.questionTarget(req) // validated
			pq.answer = &req
			var r AnswerResponse
			_ = workflow.Await(ctx, func() bool { return s.questions.find(pq.ToolUseID) == nil })
			r.ToolUseID = pq.ToolUseID
			r.Result = tool.AnswerText(pq.Questions, resolveAnswers(pq.Questions, req), req.Response, 0)
			return r, nil
		},
		workflow.UpdateHandlerOptions{
			Validator:   func(ctx workflow.Context, req AnswerRequest) error { return s.validAnswer(req) },
			Description: "Answer the questions of a waiting AskUserQuestion call: by question (text or number), an option's label or number, or your own words.",
		})
}
