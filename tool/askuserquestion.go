package tool

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
)

// AskUserQuestionName is Claude Code's tool by which the model asks the user
// multiple-choice questions.
const AskUserQuestionName = "AskUserQuestion"

// Question is one question of an AskUserQuestion call (Claude Code's shape).
type Question struct {
	Question    string           `json:"question"`
	Header      string           `json:"header"`
	Options     []QuestionOption `json:"options"`
	MultiSelect bool             `json:"multiSelect"`
}

// QuestionOption is one choice of a question.
type QuestionOption struct {
	Label       string `json:"label"`
	Description string `json:"description"`
	Preview     string `json:"preview,omitempty"`
}

// AskUserQuestionInput is Claude Code's AskUserQuestionInput (sdk-tools.d.ts); the
// answers and annotations a client may fill in are ignored: a person answers.
type AskUserQuestionInput struct {
	Questions []Question `json:"questions"`
}

// AskUserQuestionOutput is Claude Code's AskUserQuestionOutput: the tool_response
// PostToolUse hooks read.
type AskUserQuestionOutput struct {
	Questions    []Question        `json:"questions"`
	Answers      map[string]string `json:"answers"`
	Response     string            `json:"response,omitempty"`
	AfkTimeoutMs int64             `json:"afkTimeoutMs,omitempty"`
}

// AskUserQuestion asks a person and waits for the answer. It has no activity: the
// turn hands the call to its session, which keeps the questions until someone
// answers them (`starter agent answer`, the Go API's Session.Answer, an Answer
// update from any client) or their timeout passes, so the answer may come hours
// later from another process (workflows/session_askuserquestion.go). It changes
// nothing, so it needs no permission (rules naming it still apply) and runs beside
// other safe calls; a user's message while it waits answers it as unanswered.
type AskUserQuestion struct{ Base }

// Spec of AskUserQuestion.
func (AskUserQuestion) Spec() Spec {
	return Spec{Name: AskUserQuestionName, Builtin: true, Coerce: true, InSession: true, MaxInputBytes: 1 << 20,
		Interrupt: InterruptCancel, Description: askUserQuestionDescription, InputSchema: askUserQuestionSchema}
}

const askUserQuestionDescription = `Asks the user one to four multiple-choice questions and waits for the answers: for a decision only the user can make (which approach, which library, what to do with an ambiguity), not for things you can find out yourself.

- Each question has a short header (a chip of at most 12 characters), the question itself (clear, ending with a question mark) and 2-4 distinct options, each a short label with a description of what choosing it means. The user may always answer in their own words instead; do not add an "Other" option.
- multiSelect: true lets the user choose several options; word the question so.
- The answer comes back as "question"="answer" pairs. The user may answer much later, from another terminal: the session waits durably. When nobody answers before the session's question timeout, you are told so: go on with your best judgment.
- Ask only when the answer changes what you do; otherwise state the approach you take and continue.`

const askUserQuestionSchema = `{
  "type": "object",
  "properties": {
    "questions": {
      "type": "array", "minItems": 1, "maxItems": 4,
      "description": "Questions to ask the user (1-4 questions)",
      "items": {
        "type": "object",
        "properties": {
          "question": {"type": "string", "description": "The complete question to ask the user, ending with a question mark."},
          "header": {"type": "string", "description": "Very short label displayed as a chip/tag (max 12 chars)."},
          "options": {
            "type": "array", "minItems": 2, "maxItems": 4,
            "description": "The available choices (2-4, distinct). No 'Other' option: the user can always answer in their own words.",
            "items": {
              "type": "object",
              "properties": {
                "label": {"type": "string", "description": "The display text of the option (1-5 words)."},
                "description": {"type": "string", "description": "What this option means or what happens if it is chosen."},
                "preview": {"type": "string", "description": "Optional content shown when the option is focused (a mockup, a code snippet)."}
              },
              "required": ["label", "description"],
              "additionalProperties": false
            }
          },
          "multiSelect": {"type": "boolean", "description": "Set to true to allow the user to select multiple options instead of just one."}
        },
        "required": ["question", "header", "options"],
        "additionalProperties": false
      }
    },
    "answers": {"type": "object", "additionalProperties": {"type": "string"}, "description": "Filled in by the permission component; leave it out."},
    "annotations": {"type": "object", "description": "Filled in by the permission component; leave it out."},
    "metadata": {"type": "object", "properties": {"source": {"type": "string"}}, "description": "Optional metadata for tracking; not shown to the user."}
  },
  "required": ["questions"],
  "additionalProperties": false
}`

// QuestionsOf reads the questions of an input (validated before).
func QuestionsOf(input json.RawMessage) []Question {
	var in AskUserQuestionInput
	_ = json.Unmarshal(input, &in) // a bad input still gets a name
	return in.Questions
}

// IsConcurrencySafe: always; it changes nothing.
func (AskUserQuestion) IsConcurrencySafe(json.RawMessage) bool { return true }

// CheckInput refuses questions a person could not answer: two alike, or two
// options of one question alike.
func (AskUserQuestion) CheckInput(input json.RawMessage) error {
	var seen []string
	for _, q := range QuestionsOf(input) {
		if slices.Contains(seen, q.Question) {
			return fmt.Errorf("Question texts must be unique: %q is asked twice.", q.Question)
		}
		seen = append(seen, q.Question)
		var labels []string
		for _, o := range q.Options {
			if slices.Contains(labels, o.Label) {
				return fmt.Errorf("Option labels must be unique within each question: %q has two options labelled %q.", q.Question, o.Label)
			}
			labels = append(labels, o.Label)
		}
	}
	return nil
}

// Subject: the first question.
func (AskUserQuestion) Subject(input json.RawMessage) string {
	if qs := QuestionsOf(input); len(qs) > 0 {
		return qs[0].Question
	}
	return ""
}

// Summary: the first question, and how many more.
func (t AskUserQuestion) Summary(input json.RawMessage) string {
	qs := QuestionsOf(input)
	parts := []string{Code(t.Subject(input), false)}
	if len(qs) > 1 {
		parts = append(parts, fmt.Sprintf("(+%d more)", len(qs)-1))
	}
	return Title(AskUserQuestionName, parts...)
}

// Access: nothing outside the session; allowed unless a rule names the tool.
func (AskUserQuestion) Access(json.RawMessage) Access {
	return Access{Kind: AccessSession, ReadOnly: true}
}

// Run is never called: the session asks.
func (AskUserQuestion) Run(context.Context, Call) (Output, error) {
	return Output{}, fmt.Errorf("%s is answered by the session, not by an activity", AskUserQuestionName)
}

// ResolveAnswer reads a person's answer to q as the model gets it: an option's
// number (1-4) or label stands for the label; several, comma-separated, for a
// multiSelect question; anything else is the person's own words.
func (q Question) ResolveAnswer(answer string) string {
	answer = strings.TrimSpace(answer)
	one := func(a string) (string, bool) {
		a = strings.TrimSpace(a)
		for i, o := range q.Options {
			if a == fmt.Sprint(i+1) || strings.EqualFold(a, o.Label) {
				return o.Label, true
			}
		}
		return a, false
	}
	if l, ok := one(answer); ok {
		return l
	}
	if q.MultiSelect && strings.Contains(answer, ",") {
		var labels []string
		for _, a := range strings.Split(answer, ",") {
			l, ok := one(a)
			if !ok {
				return answer
			}
			labels = append(labels, l)
		}
		return strings.Join(labels, ", ")
	}
	return answer
}

// chosen says an answer is one of q's options (or, for multiSelect, several).
func (q Question) chosen(answer string) bool {
	for _, a := range strings.Split(answer, ", ") {
		if !slices.ContainsFunc(q.Options, func(o QuestionOption) bool { return o.Label == a }) {
			return false
		}
		if !q.MultiSelect {
			return a == answer
		}
	}
	return true
}

// AnswerText is the result the model reads, as Claude Code words it: the answers
// as "question"="answer" pairs, after a line that says whether they were all
// among the options; the user's own response; or that nobody answered within
// timeout (0: nobody answered at all).
func AnswerText(qs []Question, answers map[string]string, response string, timeout time.Duration) string {
	var pairs []string
	all := true
	for _, q := range qs {
		a, ok := answers[q.Question]
		if !ok || a == "" {
			continue
		}
		pairs = append(pairs, `"`+q.Question+`"="`+a+`"`) // as Claude Code's template writes them: no escapes
		all = all && q.chosen(a)
	}
	d := strings.Join(pairs, ", ")
	switch {
	case timeout > 0:
		m := fmt.Sprintf("No response after %ds \u2014 the user may be away from keyboard. Proceed using your best judgment based on the context so far; you can re-ask this question later if it's still relevant.",
			int(math.Round(timeout.Seconds())))
		if d != "" {
			m += "\nBefore going idle the user had selected: " + d + "."
		}
		return m
	case strings.TrimSpace(response) != "":
		return "The user responded: " + response
	case d == "":
		return "The user did not answer the questions."
	case all:
		return "Your questions have been answered: " + d + ". You can now continue with these answers in mind."
	}
	return "The user answered: " + d + ". Read the answers carefully \u2014 they may request clarification, changes, or that you not proceed \u2014 and follow what they actually say."
}

// ErrNoAnswers is an answer that answers nothing.
var ErrNoAnswers = errors.New("the answer has no answers and no response: give an answer to at least one question")
