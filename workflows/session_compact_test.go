package workflows_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolpipe/toolpipe/hooks"
	"github.com/toolpipe/toolpipe/internal/fakeanthropic"
	"github.com/toolpipe/toolpipe/internal/testfs"
	"github.com/toolpipe/toolpipe/wire"
	"github.com/toolpipe/toolpipe/workflows"
)

// A 100-turn session reading a 20 KB file per turn against a 250,000-character
// window (62,500 tokens) runs to the end: it compacts before the window fills, with
// at most one request refused as too long, and every request fits.
func TestSessionCompactsLongSession(t *testing.T) {
	const turns, window = 100, 250_000 / fakeanthropic.BytesPerToken
	var rs []fakeanthropic.Response
	for i := 0; i < 40; i++ {
		rs = append(rs, fakeanthropic.Response{When: "Your context window is nearly full",
			Content: []wire.Block{text(fmt.Sprintf("Summary %d: the user wants every file read; files read so far are listed.", i))}})
	}
	h := newIdleAgentHarness(t)
	line := strings.Repeat("x", 99) + "\n"
	for i := 0; i < turns; i++ {
		path := filepath.Join(h.work, fmt.Sprintf("f%03d.txt", i))
		if err := os.WriteFile(path, []byte(strings.Repeat(line, 200)), 0o644); err != nil { // 20 KB
			t.Fatal(err)
		}
		rs = append(rs, fakeanthropic.Response{Content: []wire.Block{use(fmt.Sprintf("r%03d", i), "Read", map[string]any{"file_path": path})}})
	}
	rs = append(rs, fakeanthropic.Response{Content: []wire.Block{text("all read")}})
	fake := h.runScript(fakeanthropic.Script{ContextWindow: window, Responses: rs})
	opts := fastOptions()
	opts.MaxTurns = turns + 1
	res := h.result(h.start(workflows.SessionInput{Prompt: "read every file", Options: opts,
		Model: workflows.ModelOptions{ContextWindow: window}}))
	if res.StopReason != "end_turn" || res.Text != "all read" || res.Turns != turns+1 {
		t.Fatalf("result %+v", res)
	}
	refused, summaries := 0, 0
	for _, r := range fake.Requests() {
		if r.Refused != "" {
			refused++
		}
		if strings.Contains(lastUserText(r), "Your context window is nearly full") {
			summaries++
		}
		if r.Usage.TotalInput() > window {
			t.Errorf("a request of %d tokens was served past the window", r.Usage.TotalInput())
		}
	}
	if refused > 1 || summaries < 5 {
		t.Fatalf("%d refused requests (at most 1), %d compactions", refused, summaries)
	}
	// Every request after a compaction starts from the summary and goes on with the
	// most recent Reads, call and result together, that fit a quarter of the window
	// (three of these 20 KB ones): the model still sees what it just read.
	reqs := fake.Requests()
	for i, r := range reqs {
		if !strings.Contains(lastUserText(r), nearlyFull) || r.Refused != "" || i+1 == len(reqs) {
			continue
		}
		next := reqs[i+1]
		if !strings.HasPrefix(next.Messages[0].Content[0].Text, "This session continues an earlier conversation") ||
			!strings.Contains(next.Messages[0].Content[0].Text, "Summary ") {
			t.Fatalf("the request after a compaction starts with %+v", next.Messages[0])
		}
		if kept := next.Messages[1:]; len(kept) != 6 || kept[0].Content[0].Type != wire.BlockToolUse ||
			kept[len(kept)-1].Content[0].ToolUseID != r.Messages[len(r.Messages)-2].Content[0].ToolUseID {
			t.Fatalf("after compaction %d the request goes on with %d messages, want the last 3 Reads and their results", i, len(kept))
		}
	}
}

func lastUserText(r fakeanthropic.Request) string {
	if len(r.Messages) == 0 {
		return ""
	}
	m := r.Messages[len(r.Messages)-1]
	var b strings.Builder
	for _, c := range m.Content {
		b.WriteString(c.Text)
	}
	return b.String()
}

// PreCompact hooks run before an automatic compaction with Claude Code's input: the
// trigger and the custom instructions (none for auto); a hook matching only manual
// compactions does not run.
func TestPreCompactHookRunsBeforeCompaction(t *testing.T) {
	const window = smallWindow
	h, _ := compactingSession(t, fakeanthropic.Response{When: nearlyFull, Content: []wire.Block{text("Summary: big.txt was read.")}})
	log := filepath.Join(h.work, "precompact.jsonl")
	record := func(matcher string) hooks.Group {
		return hooks.Group{Matcher: matcher, Hooks: []hooks.Command{{Command: `cat >> "$CLAUDE_PROJECT_DIR/precompact.jsonl"; echo >> "$CLAUDE_PROJECT_DIR/precompact.jsonl"`}}}
	}
	s := &workflows.TurnSettings{ProjectDir: h.work, Hooks: hooks.Config{PreCompact: []hooks.Group{record("auto"), record("manual")}}}
	res := h.result(h.start(workflows.SessionInput{Prompt: "read big.txt", Settings: s, Options: fastOptions(),
		Model: workflows.ModelOptions{ContextWindow: window}}))
	if res.StopReason != "end_turn" || res.Text != "done" {
		t.Fatalf("result %+v", res)
	}
	ins := testfs.ReadJSONValues(t, log)
	if len(ins) != 1 {
		t.Fatalf("%d PreCompact hook runs, want 1 (the auto matcher's): %v", len(ins), ins)
	}
	in := ins[0]
	if in["hook_event_name"] != "PreCompact" || in["trigger"] != "auto" || in["custom_instructions"] != "" || in["session_id"] == "" {
		t.Fatalf("PreCompact input %v", in)
	}
}

// A summary whose stream is cut before message_stop is not a summary: the compaction
// is tried again, and the conversation goes on from the whole one.
func TestCutSummaryStreamIsRetried(t *testing.T) {
	const window = smallWindow
	h, fake := compactingSession(t,
		fakeanthropic.Response{When: nearlyFull, Content: []wire.Block{text("Summary cut short."), text("never sent")}, DropAfterBlocks: 1},
		fakeanthropic.Response{When: nearlyFull, Content: []wire.Block{text("Summary whole: big.txt was read.")}})
	res := h.result(h.start(workflows.SessionInput{Prompt: "read big.txt", Options: fastOptions(),
		Model: workflows.ModelOptions{ContextWindow: window}}))
	if res.StopReason != "end_turn" || res.Text != "done" {
		t.Fatalf("result %+v", res)
	}
	reqs := fake.Requests()
	last := reqs[len(reqs)-1]
	var sent strings.Builder
	for _, m := range rawMessages(t, last) {
		sent.Write(m)
	}
	if !strings.Contains(sent.String(), "Summary whole") || strings.Contains(sent.String(), "Summary cut short") {
		t.Fatalf("the call after the compaction was sent %s", sent.String())
	}
}

// smallWindow is a context window (in tokens) that one 20 KB Read, about 5,000
// tokens, takes past the 85% at which a session compacts.
const smallWindow = 8_000

// nearlyFull is in the compaction's request: scripted summaries answer it.
const nearlyFull = "Your context window is nearly full"

// compactingSession starts a session harness whose model, with a smallWindow
// context, first reads a 20 KB file and then says "done"; summaries answers the
// compaction that the Read brings about.
func compactingSession(t *testing.T, summaries ...fakeanthropic.Response) (*agentHarness, *fakeanthropic.Server) {
	t.Helper()
	h := newIdleAgentHarness(t)
	path := filepath.Join(h.work, "big.txt")
	if err := os.WriteFile(path, []byte(strings.Repeat(strings.Repeat("y", 99)+"\n", 200)), 0o644); err != nil {
		t.Fatal(err)
	}
	fake := h.runScript(fakeanthropic.Script{ContextWindow: smallWindow, Responses: append(summaries,
		fakeanthropic.Response{Content: []wire.Block{use("r1", "Read", map[string]any{"file_path": path})}},
		fakeanthropic.Response{Content: []wire.Block{text("done")}})})
	return h, fake
}
