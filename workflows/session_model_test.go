package workflows_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolpipe/toolpipe/contract"

	"go.temporal.io/sdk/client"

	"github.com/toolpipe/toolpipe/internal/fakeanthropic"
	"github.com/toolpipe/toolpipe/internal/testenv"
	"github.com/toolpipe/toolpipe/scheduler"
	"github.com/toolpipe/toolpipe/wire"
	"github.com/toolpipe/toolpipe/workflows"
)

// 529 overloaded, 429, 500 and an overloaded error in the middle of a stream are
// retried by Temporal (the SDK does not retry), and the session goes on.
func TestModelRetryableErrors(t *testing.T) {
	h := newAgentHarness(t,
		fakeanthropic.Response{Status: 529},
		fakeanthropic.Response{Status: 429},
		fakeanthropic.Response{Status: 500},
		fakeanthropic.Response{Content: []wire.Block{text("partial"), text("never sent")}, FailAfterBlocks: 1},
		fakeanthropic.Response{Content: []wire.Block{text("finally")}},
	)
	res := h.result(h.start(workflows.SessionInput{Prompt: "hi", Options: fastOptions()}))
	if res.Text != "finally" || res.StopReason != "end_turn" {
		t.Fatalf("result %+v", res)
	}
	reqs := h.fake.Requests()
	if len(reqs) != 5 {
		t.Fatalf("%d requests, want 5 (one per scripted answer)", len(reqs))
	}
	for i := 1; i < len(reqs); i++ {
		if string(reqs[i].Body) != string(reqs[0].Body) {
			t.Fatalf("retry %d sent a different request", i)
		}
	}
}

// A 400 is final: one request, and the prompt ends with the API's message; the
// session closes cleanly (not FAILED), its state and events say why.
func TestModelRejectedIsNotRetried(t *testing.T) {
	h := newAgentHarness(t, fakeanthropic.Response{Status: 400, ErrorMessage: "messages: bad"})
	run := h.start(workflows.SessionInput{Prompt: "hi", Options: fastOptions()})
	res := h.result(run)
	if res.StopReason != workflows.StopModelError || res.Error != "model: 400 invalid_request_error: messages: bad" {
		t.Fatalf("result %+v", res)
	}
	if n := len(h.fake.Requests()); n != 1 {
		t.Fatalf("%d requests, want 1", n)
	}
	v, err := h.c.QueryWorkflow(testenv.Context(t), run.GetID(), "", contract.SessionStateQuery)
	var st workflows.SessionState
	if err == nil {
		err = v.Get(&st)
	}
	if err != nil || st.LastError != res.Error || st.Phase != workflows.PhaseDone {
		t.Fatalf("state %+v, %v", st, err)
	}
	v, err = h.c.QueryWorkflow(testenv.Context(t), run.GetID(), "", contract.EventsQuery, 0)
	var evs workflows.EventsResponse
	if err == nil {
		err = v.Get(&evs)
	}
	found := false
	for _, ev := range evs.Events {
		found = found || (ev.Kind == workflows.EventError && ev.Text == res.Error)
	}
	if err != nil || !found || !evs.Done {
		t.Fatalf("events %+v, %v", evs, err)
	}
}

// A stream that breaks after a tool_use was handed to the turn is not asked again:
// the tool is already running, so the retry finishes the message with the blocks it
// had and the tool runs once.
func TestCutStreamKeepsDeliveredToolUse(t *testing.T) {
	work := t.TempDir()
	h := newAgentHarness(t,
		fakeanthropic.Response{Content: []wire.Block{
			use("c1", "Bash", map[string]any{"command": "echo once >> count"}),
			use("c2", "Bash", map[string]any{"command": "echo never >> count"}),
		}, DropAfterBlocks: 1},
		fakeanthropic.Response{Content: []wire.Block{text("done")}},
	)
	res := h.result(h.start(workflows.SessionInput{Prompt: "count", Workdir: work, Options: fastOptions()}))
	if res.Text != "done" {
		t.Fatalf("result %+v", res)
	}
	if b, _ := os.ReadFile(filepath.Join(work, "count")); string(b) != "once\n" {
		t.Fatalf("count is %q", b)
	}
	reqs := h.fake.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2: the cut message must not be asked again", len(reqs))
	}
	m := reqs[1].Messages
	if len(m) != 3 || len(m[1].Content) != 1 || m[1].Content[0].ID != "c1" || userResults(m[2])["c1"].IsError {
		t.Fatalf("second request %+v", m)
	}
}

// DESIGN §3.7 in a session: a user message sent while a Bash runs interrupts it (Bash's
// behaviour is cancel), and the next model call gets the interrupted result and the
// message.
func TestSendInterruptsRunningTurn(t *testing.T) {
	work := t.TempDir()
	h := newAgentHarness(t,
		fakeanthropic.Response{Content: []wire.Block{use("s1", "Bash", map[string]any{"command": "echo started > marker; sleep 60"})}},
		fakeanthropic.Response{When: "please stop", Content: []wire.Block{text("stopped")}},
	)
	run := h.start(workflows.SessionInput{Prompt: "wait", Workdir: work, Options: fastOptions()})
	poll(t, "the Bash to start", func() bool { _, err := os.Stat(filepath.Join(work, "marker")); return err == nil })
	if err := h.sendMessage(run.GetID(), "please stop"); err != nil {
		t.Fatal(err)
	}
	if res := h.result(run); res.Text != "stopped" {
		t.Fatalf("result %+v", res)
	}
	m := h.fake.Requests()[1].Messages
	if len(m) != 4 || m[3].Content[0].Text != "please stop" {
		t.Fatalf("second request %+v", m)
	}
	if r := userResults(m[2])["s1"]; !r.IsError || r.Content != scheduler.InterruptedMessage {
		t.Fatalf("interrupted result %+v", r)
	}
}

// `starter agent interrupt` brings no message: the stopped tool's result says the
// user interrupted it, not that a message came (issue 32 item 9: the model was told
// "the user sent a new message", and the next request had none).
func TestInterruptWithoutMessageSaysTheUserInterrupted(t *testing.T) {
	work := t.TempDir()
	h := newAgentHarness(t,
		fakeanthropic.Response{Content: []wire.Block{use("s1", "Bash", map[string]any{"command": "echo started > marker; sleep 60"})}},
		fakeanthropic.Response{Content: []wire.Block{text("stopped")}},
	)
	run := h.start(workflows.SessionInput{Prompt: "wait", Workdir: work, Options: fastOptions()})
	poll(t, "the Bash to start", func() bool { _, err := os.Stat(filepath.Join(work, "marker")); return err == nil })
	if err := h.c.SignalWorkflow(testenv.Context(t), run.GetID(), "", contract.SessionInterruptSignal, nil); err != nil {
		t.Fatal(err)
	}
	if res := h.result(run); res.Text != "stopped" {
		t.Fatalf("result %+v", res)
	}
	m := h.fake.Requests()[1].Messages
	if len(m) != 3 {
		t.Fatalf("second request %+v: a message appeared", m)
	}
	if r := userResults(m[2])["s1"]; !r.IsError || r.Content != scheduler.InterruptedByUserMessage {
		t.Fatalf("interrupted result %+v", r)
	}
}

// A reply without tool calls starts no Turn (issue 32 item 9: the final answer left
// an empty Turn, "No details available"), and turns are numbered one by one, their
// summaries with the same number, on across a later prompt to the same session
// (they were named after their messages, turn-2, turn-4, and summarised "Turn 1",
// "Turn 2").
func TestTextReplyStartsNoTurnAndTurnsAreNumbered(t *testing.T) {
	h := newAgentHarness(t,
		fakeanthropic.Response{Content: []wire.Block{use("n1", "Bash", map[string]any{"command": "echo one"})}},
		fakeanthropic.Response{Content: []wire.Block{text("Now the second."), use("n2", "Bash", map[string]any{"command": "echo two"})}},
		fakeanthropic.Response{Content: []wire.Block{text("both ran")}},
		fakeanthropic.Response{When: "once more", Content: []wire.Block{use("n3", "Bash", map[string]any{"command": "echo three"})}},
		fakeanthropic.Response{Content: []wire.Block{text("three ran")}},
	)
	first := h.start(workflows.SessionInput{Prompt: "echo two things", Options: fastOptions()})
	if res := h.result(first); res.Text != "both ran" || res.Turns != 3 {
		t.Fatalf("result %+v", res)
	}
	second := h.start(workflows.SessionInput{Prompt: "once more", Options: fastOptions()})
	if res := h.result(second); res.Text != "three ran" {
		t.Fatalf("second prompt: %+v", res)
	}
	for _, c := range []struct {
		run  client.WorkflowRun
		want []string
	}{
		{first, []string{first.GetID() + "/turn-1 Turn 1 of session s1", first.GetID() + "/turn-2 Turn 2 of session s1"}},
		{second, []string{second.GetID() + "/turn-3 Turn 3 of session s1"}},
	} {
		var got []string
		for _, ev := range testenv.History(t, h.c, c.run.GetID(), c.run.GetRunID()) {
			if a := ev.GetStartChildWorkflowExecutionInitiatedEventAttributes(); a != nil {
				got = append(got, a.GetWorkflowId()+" "+payloadString(t, ev.GetUserMetadata().GetSummary()))
			}
		}
		if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("turns started:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
		}
	}
}
