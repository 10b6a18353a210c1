package workflows_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	historypb "go.temporal.io/api/history/v1"
	"google.golang.org/protobuf/proto"

	"github.com/toolpipe/toolpipe/internal/fakeanthropic"
	"github.com/toolpipe/toolpipe/internal/testenv"
	"github.com/toolpipe/toolpipe/wire"
	"github.com/toolpipe/toolpipe/workflows"
)

// Temporal's hard limits are 51,200 events and 50 MB per run, and it warns from 10,240
// events and 10 MB; a run of a long session must stay far below the warnings.
const (
	maxRunEvents = 10_000
	maxRunBytes  = 4 << 20
)

// Issue 6: a session of 500 tool-calling turns runs without reaching Temporal's
// limits. It takes minutes, so it runs with TOOLPIPE_LONG_TEST=1; the normal suite
// runs the same check on 60 turns.
func TestSessionOf500Turns(t *testing.T) {
	if os.Getenv("TOOLPIPE_LONG_TEST") != "1" {
		t.Skip("set TOOLPIPE_LONG_TEST=1 to run the 500-turn session")
	}
	start := time.Now()
	longSession(t, 500, 50)
	t.Logf("500 turns took %s", time.Since(start).Round(time.Second))
}

// The 60-turn variant continues as new every 8 model calls.
func TestLongSessionStaysSmallPerRun(t *testing.T) {
	longSession(t, 60, 8)
}

// longSession runs turns tool-calling turns (a Read or a Bash echo each, with some
// text) and a final end_turn, continuing as new every `every` model calls, and checks
// every run's history size and the stored conversation.
func longSession(t *testing.T, turns, every int) {
	work := t.TempDir()
	if err := os.WriteFile(work+"/note.txt", []byte("a note\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rs := make([]fakeanthropic.Response, 0, turns+1)
	for i := range turns {
		id := fmt.Sprintf("u%03d", i)
		call := use(id, "Bash", map[string]any{"command": fmt.Sprintf("echo result-%03d", i)})
		if i%5 == 4 {
			call = use(id, "Read", map[string]any{"file_path": work + "/note.txt"})
		}
		rs = append(rs, fakeanthropic.Response{Content: []wire.Block{text(fmt.Sprintf("Step %d.", i)), call}})
	}
	rs = append(rs, fakeanthropic.Response{Content: []wire.Block{text("all steps done")}})
	h := newAgentHarness(t, rs...)
	opts := fastOptions()
	opts.MaxTurns, opts.ContinueAsNewEvery = turns+10, every
	run := h.start(workflows.SessionInput{SessionID: "long", Prompt: "do many steps", Workdir: work, Options: opts})
	firstRun := run.GetRunID() // Get follows the chain and moves GetRunID to the last run
	// A long session outlasts testenv.Context's bound for one call.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	var res workflows.SessionResult
	if err := run.Get(ctx, &res); err != nil {
		t.Fatalf("session failed: %v", err)
	}
	if res.StopReason != "end_turn" || res.Turns != turns+1 || res.Text != "all steps done" || h.fake.Unused() != 0 {
		t.Fatalf("result: stop %q, %d turns, text %q, %d answers unused", res.StopReason, res.Turns, res.Text, h.fake.Unused())
	}

	// Follow the chain of runs from the first: each run's last event names the next.
	runs, maxEvents, maxBytes := 0, 0, 0
	for runID := firstRun; runID != ""; runs++ {
		events := testenv.History(t, h.c, run.GetID(), runID)
		size := proto.Size(&historypb.History{Events: events})
		maxEvents, maxBytes = max(maxEvents, len(events)), max(maxBytes, size)
		if len(events) >= maxRunEvents || size >= maxRunBytes {
			t.Errorf("run %d (%s): %d events, %d bytes", runs, runID, len(events), size)
		}
		runID = ""
		if last := events[len(events)-1]; last.GetEventType() == enumspb.EVENT_TYPE_WORKFLOW_EXECUTION_CONTINUED_AS_NEW {
			runID = last.GetWorkflowExecutionContinuedAsNewEventAttributes().GetNewExecutionRunId()
		}
	}
	if want := (turns+1+every-1)/every - 1; runs < 2 || runs < want {
		t.Fatalf("%d runs, want at least %d", runs, max(want, 2))
	}
	t.Logf("%d turns in %d runs; largest run %d events, %d bytes", res.Turns, runs, maxEvents, maxBytes)

	// The stored conversation: the prompt, then per turn the assistant's call and its
	// result, in order, then the final answer.
	msgs := h.storedMessages(res.Conversation)
	if len(msgs) != 2*turns+2 {
		t.Fatalf("the conversation has %d messages, want %d", len(msgs), 2*turns+2)
	}
	for i := range turns {
		id := fmt.Sprintf("u%03d", i)
		a, u := msgs[1+2*i], msgs[2+2*i]
		if uses := a.ToolUses(); a.Role != "assistant" || len(uses) != 1 || uses[0].ID != id || a.Text() != fmt.Sprintf("Step %d.", i) {
			t.Fatalf("message %d: %+v", 1+2*i, a)
		}
		r, ok := userResults(u)[id]
		want := fmt.Sprintf("result-%03d", i)
		if i%5 == 4 {
			want = "a note"
		}
		if !ok || r.IsError || (i%5 != 4 && r.Content != want) || (i%5 == 4 && !strings.Contains(r.Content, want)) {
			t.Fatalf("turn %d's result: %+v", i, u)
		}
	}
	if last := msgs[len(msgs)-1]; last.Text() != "all steps done" {
		t.Fatalf("last message %+v", last)
	}
}
