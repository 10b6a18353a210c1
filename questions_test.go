package toolpipe_test

import (
	"strings"
	"testing"
	"time"

	"github.com/toolpipe/toolpipe"
	"github.com/toolpipe/toolpipe/internal/fakeanthropic"
	"github.com/toolpipe/toolpipe/internal/testenv"
	"github.com/toolpipe/toolpipe/wire"
)

// A program answers the model's AskUserQuestion through the Go API: State lists
// the waiting question, Session.Answer answers it (by option label) and returns
// what the model reads, which is the call's result in the conversation.
func TestAnswerAQuestionThroughTheGoAPI(t *testing.T) {
	fake, err := fakeanthropic.Start(fakeanthropic.Script{Responses: []fakeanthropic.Response{
		{Content: []wire.Block{{Type: wire.BlockToolUse, ID: "q1", Name: "AskUserQuestion", Input: raw(`{"questions":[{"question":"Ship today?","header":"Release","multiSelect":false,"options":[{"label":"Yes","description":"tag it"},{"label":"No","description":"wait"}]}]}`)}}},
		{Content: []wire.Block{{Type: "text", Text: "Shipping."}}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer fake.Close()
	t.Setenv("ANTHROPIC_BASE_URL", fake.URL())
	t.Setenv("ANTHROPIC_API_KEY", "fake")
	stateDir := t.TempDir()
	c := testenv.StorageClient(t, stateDir+"/payloads")
	queue, _ := stoppableWorker(t, c, stateDir)
	ctx := testenv.Context(t)
	s, err := toolpipe.NewClient(c, queue, toolpipe.WithStateDir(stateDir)).StartSession(ctx, toolpipe.SessionOptions{SessionID: "ask-api", Workdir: t.TempDir(), Prompt: "release?"})
	if err != nil {
		t.Fatal(err)
	}
	for {
		st, err := s.State(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(st.Questions) > 0 {
			if st.Questions[0].Questions[0].Question != "Ship today?" {
				t.Fatalf("questions %+v", st.Questions)
			}
			break
		}
		time.Sleep(20 * time.Millisecond) // polling the state, as the workflows tests' poll does
	}
	resp, err := s.Answer(ctx, toolpipe.AnswerRequest{Answers: map[string]string{"Ship today?": "yes"}})
	want := `Your questions have been answered: "Ship today?"="Yes". You can now continue with these answers in mind.`
	if err != nil || resp.Result != want || resp.ToolUseID != "q1" {
		t.Fatalf("answer: %+v %v", resp, err)
	}
	res, err := s.Result(ctx)
	if err != nil || res.Text != "Shipping." {
		t.Fatalf("result %+v %v", res, err)
	}
	if _, err := s.Answer(ctx, toolpipe.AnswerRequest{Response: "again"}); err == nil || !strings.Contains(err.Error(), "answer") {
		t.Fatalf("an answer after the session ended: %v", err)
	}
}
