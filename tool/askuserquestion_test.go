package tool

import (
	"encoding/json"
	"strings"
	"testing"
)

// Answers are read as a person types them: an option's number or label (any
// case) is the label, several comma-separated for a multiSelect question, and
// anything else is the person's own words; a call asking one question twice, or
// with two options alike, is refused.
func TestAskUserQuestionAnswersAndChecks(t *testing.T) {
	q := Question{Question: "Which?", MultiSelect: true, Options: []QuestionOption{{Label: "Auth"}, {Label: "Search"}, {Label: "Export"}}}
	for in, want := range map[string]string{"1": "Auth", "search": "Search", "1, export": "Auth, Export", "auth and more": "auth and more", "1, nope": "1, nope"} {
		if got := q.ResolveAnswer(in); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
	two := func(a, b string) json.RawMessage {
		x, _ := json.Marshal(AskUserQuestionInput{Questions: []Question{
			{Question: a, Options: []QuestionOption{{Label: "x"}, {Label: "y"}}},
			{Question: b, Options: []QuestionOption{{Label: "x"}, {Label: "x"}}}}})
		return x
	}
	if err := (AskUserQuestion{}).CheckInput(two("A?", "A?")); err == nil || !strings.Contains(err.Error(), "Question texts must be unique") {
		t.Errorf("same question twice: %v", err)
	}
	if err := (AskUserQuestion{}).CheckInput(two("A?", "B?")); err == nil || !strings.Contains(err.Error(), "Option labels must be unique") {
		t.Errorf("same label twice: %v", err)
	}
}
