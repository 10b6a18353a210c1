package workflows_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toolpipe/toolpipe/contract"

	"go.temporal.io/sdk/client"

	"github.com/toolpipe/toolpipe/hooks"
	"github.com/toolpipe/toolpipe/internal/fakeanthropic"
	"github.com/toolpipe/toolpipe/internal/testenv"
	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/wire"
	"github.com/toolpipe/toolpipe/workflows"
)

// askDB is an AskUserQuestion call of two questions.
func askDB(id string) wire.Block {
	return use(id, tool.AskUserQuestionName, map[string]any{"questions": []any{
		map[string]any{"question": "Which database?", "header": "Database", "multiSelect": false, "options": []any{
			map[string]any{"label": "Postgres", "description": "relational"},
			map[string]any{"label": "SQLite", "description": "a file"},
		}},
		map[string]any{"question": "Which features?", "header": "Features", "multiSelect": true, "options": []any{
			map[string]any{"label": "Auth", "description": "log in"},
			map[string]any{"label": "Search", "description": "full text"},
			map[string]any{"label": "Export", "description": "CSV"},
		}},
	}})
}

// waitQuestion polls the session until a question waits.
func (h *agentHarness) waitQuestion(id string) workflows.SessionState {
	h.t.Helper()
	var st workflows.SessionState
	poll(h.t, "a waiting question", func() bool {
		v, err := h.c.QueryWorkflow(testenv.Context(h.t), id, "", contract.SessionStateQuery)
		return err == nil && v.Get(&st) == nil && len(st.Questions) > 0
	})
	return st
}

// answer sends the Answer update, as `starter agent answer` does.
func (h *agentHarness) answer(id string, req workflows.AnswerRequest) (workflows.AnswerResponse, error) {
	var resp workflows.AnswerResponse
	handle, err := h.c.UpdateWorkflow(testenv.Context(h.t), client.UpdateWorkflowOptions{
		WorkflowID: id, UpdateName: workflows.AnswerUpdate, Args: []any{req}, WaitForStage: client.WorkflowUpdateStageCompleted,
	})
	if err == nil {
		err = handle.Get(testenv.Context(h.t), &resp)
	}
	return resp, err
}

// The model's questions wait in the session, durably: the worker that asked is
// stopped (the asking process has exited), a Notification hook was told, the
// questions are in the state; another worker comes, a person answers by number
// and label (one answer refused first: a question the call did not ask), and the
// model reads Claude Code's result.
func TestAskUserQuestionAnsweredAfterTheAskingProcessExited(t *testing.T) {
	h := newIdleAgentHarness(t,
		fakeanthropic.Response{Content: []wire.Block{askDB("q1")}},
		fakeanthropic.Response{Content: []wire.Block{text("Postgres it is.")}},
	)
	notified := filepath.Join(h.work, "notified")
	settings := &workflows.TurnSettings{ProjectDir: h.work, Hooks: hooks.Config{Notification: []hooks.Group{{Matcher: "elicitation_dialog",
		Hooks: []hooks.Command{{Command: "cat > " + notified}}}}}}
	w := h.startWorker()
	run := h.start(workflows.SessionInput{SessionID: "ask", Prompt: "set it up", Options: fastOptions(), Settings: settings, Workdir: h.work})
	st := h.waitQuestion(run.GetID())
	if q := st.Questions[0]; q.ToolUseID != "q1" || len(q.Questions) != 2 || q.Questions[1].Options[2].Label != "Export" {
		t.Fatalf("state: %+v", st)
	}
	poll(t, "the Notification hook", func() bool {
		b, _ := os.ReadFile(notified)
		return strings.Contains(string(b), `"notification_type":"elicitation_dialog"`)
	})
	w.Stop() // the process that asked is gone; the question waits in the server
	h.startWorker()
	if _, err := h.answer(run.GetID(), workflows.AnswerRequest{Answers: map[string]string{"Which colour?": "red"}}); err == nil ||
		!strings.Contains(err.Error(), `asked no question "Which colour?"`) {
		t.Fatalf("an answer to a question never asked: %v", err)
	}
	resp, err := h.answer(run.GetID(), workflows.AnswerRequest{Answers: map[string]string{"1": "1", "Which features?": "auth, 3"}})
	if err != nil {
		t.Fatal(err)
	}
	want := `Your questions have been answered: "Which database?"="Postgres", "Which features?"="Auth, Export". You can now continue with these answers in mind.`
	if resp.ToolUseID != "q1" || resp.Result != want {
		t.Fatalf("answer response %+v", resp)
	}
	res := h.result(run)
	if r := userResults(h.storedMessages(res.Conversation)[2])["q1"]; r.IsError || r.Content != want {
		t.Fatalf("result %+v, want %q", r, want)
	}
}

// A question nobody answers within the session's QuestionTimeout is answered as
// Claude Code answers an idle user's; the user's own words and a message sent
// instead are answered as such.
func TestAskUserQuestionTimesOutOrIsAnsweredOtherwise(t *testing.T) {
	t.Run("timeout", func(t *testing.T) {
		h := newAgentHarness(t, fakeanthropic.Response{Content: []wire.Block{askDB("q1")}}, fakeanthropic.Response{Content: []wire.Block{text("ok")}})
		opts := fastOptions()
		opts.QuestionTimeout = 2 * time.Second
		res := h.result(h.start(workflows.SessionInput{SessionID: "ask-timeout", Prompt: "go", Options: opts}))
		r := userResults(h.storedMessages(res.Conversation)[2])["q1"]
		if want := "No response after 2s \u2014 the user may be away from keyboard. Proceed using your best judgment based on the context so far; you can re-ask this question later if it's still relevant."; r.IsError || r.Content != want {
			t.Fatalf("result %+v", r)
		}
	})
	t.Run("own words", func(t *testing.T) {
		h := newAgentHarness(t, fakeanthropic.Response{Content: []wire.Block{askDB("q1")}}, fakeanthropic.Response{Content: []wire.Block{text("ok")}})
		run := h.start(workflows.SessionInput{SessionID: "ask-words", Prompt: "go", Options: fastOptions()})
		h.waitQuestion(run.GetID())
		if _, err := h.answer(run.GetID(), workflows.AnswerRequest{Answers: map[string]string{"1": "whatever is cheapest"}}); err != nil {
			t.Fatal(err)
		}
		r := userResults(h.storedMessages(h.result(run).Conversation)[2])["q1"]
		if !strings.HasPrefix(r.Content, `The user answered: "Which database?"="whatever is cheapest". Read the answers carefully`) {
			t.Fatalf("result %+v", r)
		}
	})
	t.Run("message instead", func(t *testing.T) {
		h := newAgentHarness(t, fakeanthropic.Response{Content: []wire.Block{askDB("q1")}}, fakeanthropic.Response{Content: []wire.Block{text("ok")}})
		run := h.start(workflows.SessionInput{SessionID: "ask-msg", Prompt: "go", Options: fastOptions()})
		h.waitQuestion(run.GetID())
		if err := h.sendMessage(run.GetID(), "never mind, use SQLite"); err != nil {
			t.Fatal(err)
		}
		msgs := h.storedMessages(h.result(run).Conversation)
		if r := userResults(msgs[2])["q1"]; !strings.HasPrefix(r.Content, "The user did not answer the questions: they sent a message instead") {
			t.Fatalf("result %+v", r)
		}
	})
}

// askReplayID is the workflow id the question history was recorded under.
const askReplayID = "session-ask-replay"

// TestAskUserQuestionReplay replays the recorded session of change asked-questions
// (a question asked, answered by an Answer update) and its turn. Record them again
// with TOOLPIPE_RECORD_HISTORY=1 only for a deliberate, versioned change.
func TestAskUserQuestionReplay(t *testing.T) {
	hists := []struct{ path, id string }{
		{"testdata/session_history_ask.json", askReplayID},
		{"testdata/turn_history_ask.json", askReplayID + "/turn-1"},
	}
	if os.Getenv("TOOLPIPE_RECORD_HISTORY") == "1" {
		h := newAgentHarness(t, fakeanthropic.Response{Content: []wire.Block{askDB("q1")}}, fakeanthropic.Response{Content: []wire.Block{text("ok")}})
		run, err := h.c.ExecuteWorkflow(testenv.Context(t), client.StartWorkflowOptions{ID: askReplayID, TaskQueue: h.queue},
			contract.SessionWorkflowName, workflows.SessionInput{SessionID: "askrec", Prompt: "go", Workdir: h.work, Options: fastOptions()})
		if err != nil {
			t.Fatal(err)
		}
		h.waitQuestion(askReplayID)
		if _, err := h.answer(askReplayID, workflows.AnswerRequest{Answers: map[string]string{"1": "SQLite"}}); err != nil {
			t.Fatal(err)
		}
		if res := h.result(run); res.Text != "ok" {
			t.Fatalf("recorded session: %+v", res)
		}
		for _, hist := range hists {
			runID := ""
			if hist.id == askReplayID {
				runID = run.GetRunID()
			}
			testenv.WriteHistory(t, filepath.FromSlash(hist.path), testenv.History(t, h.c, hist.id, runID))
		}
	}
	for _, hist := range hists {
		replayHistory(t, hist.path, hist.id)
	}
}
