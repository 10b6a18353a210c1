package workflows_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolpipe/toolpipe/contract"

	"go.temporal.io/sdk/client"

	"github.com/toolpipe/toolpipe/hooks"
	"github.com/toolpipe/toolpipe/internal/fakeanthropic"
	"github.com/toolpipe/toolpipe/internal/testenv"
	"github.com/toolpipe/toolpipe/internal/testfs"
	"github.com/toolpipe/toolpipe/wire"
	"github.com/toolpipe/toolpipe/workflows"
)

// startCompactHistory is a recorded session whose SessionStart hooks ran at startup
// and after a compaction (session-start-compact).
const (
	startCompactHistory  = "testdata/session_history_start_compact.json"
	startCompactReplayID = "session-replay-start-compact"
)

// sessionStartRecorder is a SessionStart group for source: it appends its input to
// sessionstart.jsonl and adds context naming the source.
func sessionStartRecorder(source string) hooks.Group {
	return hooks.Group{Matcher: source, Hooks: []hooks.Command{{Command: `cat >> "$CLAUDE_PROJECT_DIR/sessionstart.jsonl"; ` +
		`echo >> "$CLAUDE_PROJECT_DIR/sessionstart.jsonl"; ` +
		`echo '{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"context for ` + source + `"}}'`}}}
}

func sources(t *testing.T, path string) string {
	var out []string
	for _, in := range testfs.ReadJSONValues(t, path) {
		if in["hook_event_name"] != "SessionStart" {
			t.Fatalf("input %v", in)
		}
		out = append(out, in["source"].(string))
	}
	return strings.Join(out, ",")
}

// After a compaction SessionStart hooks run with source "compact" (matched on it),
// and what they add follows the summary in the very next model call. The history
// is committed and replays (TOOLPIPE_RECORD_HISTORY=1 records it again).
func TestSessionStartAfterCompaction(t *testing.T) {
	h, fake := compactingSession(t,
		fakeanthropic.Response{When: nearlyFull, Content: []wire.Block{text("Summary: big.txt was read.")}})
	s := &workflows.TurnSettings{ProjectDir: h.work, Hooks: hooks.Config{SessionStart: []hooks.Group{
		sessionStartRecorder("startup"), sessionStartRecorder("compact"), sessionStartRecorder("resume")}}}
	id := startCompactReplayID
	if os.Getenv("TOOLPIPE_RECORD_HISTORY") != "1" {
		id = t.Name() + "-" + h.queue
	}
	run, err := h.c.ExecuteWorkflow(testenv.Context(t), client.StartWorkflowOptions{ID: id, TaskQueue: h.queue},
		contract.SessionWorkflowName, workflows.SessionInput{SessionID: "s1", Prompt: "read big.txt", Workdir: h.work,
			Settings: s, Options: fastOptions(), Model: workflows.ModelOptions{ContextWindow: smallWindow}})
	if err != nil {
		t.Fatal(err)
	}
	if res := h.result(run); res.StopReason != "end_turn" || res.Text != "done" {
		t.Fatalf("result %+v", res)
	}
	if got := sources(t, filepath.Join(h.work, "sessionstart.jsonl")); got != "startup,compact" {
		t.Fatalf("SessionStart sources %s, want startup,compact", got)
	}
	reqs := fake.Requests()
	var after strings.Builder
	for _, m := range rawMessages(t, reqs[len(reqs)-1]) {
		after.Write(m)
	}
	sent := after.String()
	i, j := strings.Index(sent, "Summary: big.txt was read."), strings.Index(sent, "SessionStart hook additional context: context for compact")
	if i < 0 || j < i || strings.Contains(sent, "context for startup") {
		t.Fatalf("the call after the compaction was sent %s", sent)
	}
	if os.Getenv("TOOLPIPE_RECORD_HISTORY") == "1" {
		testenv.WriteHistory(t, startCompactHistory, testenv.History(t, h.c, run.GetID(), run.GetRunID()))
	}
	replayHistory(t, startCompactHistory, startCompactReplayID) // replay_helper_test.go
}

// A session id that was used before resumes its conversation, and its SessionStart
// hooks are told source "resume"; their context reaches the resumed session's call.
func TestSessionStartOnResume(t *testing.T) {
	h := newAgentHarness(t,
		fakeanthropic.Response{Content: []wire.Block{text("First answer.")}},
		fakeanthropic.Response{Content: []wire.Block{text("Second answer.")}},
	)
	s := &workflows.TurnSettings{ProjectDir: h.work, Hooks: hooks.Config{SessionStart: []hooks.Group{
		sessionStartRecorder("startup"), sessionStartRecorder("resume")}}}
	for _, p := range []string{"first", "second"} {
		if res := h.result(h.start(workflows.SessionInput{SessionID: "again", Prompt: p, Settings: s, Options: fastOptions()})); res.StopReason != "end_turn" {
			t.Fatalf("%s: %+v", p, res)
		}
	}
	if got := sources(t, filepath.Join(h.work, "sessionstart.jsonl")); got != "startup,resume" {
		t.Fatalf("SessionStart sources %s, want startup,resume", got)
	}
	reqs := h.fake.Requests()
	var second strings.Builder
	for _, m := range rawMessages(t, reqs[1]) {
		second.Write(m)
	}
	if s := second.String(); !strings.Contains(s, "First answer.") || !strings.Contains(s, "context for resume") {
		t.Fatalf("the resumed session's call was sent %s", s)
	}
}
