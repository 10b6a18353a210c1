package main

import (
	"bytes"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toolpipe/toolpipe"
)

var update = flag.Bool("update", false, "rewrite the golden files of the progress display")

// golden compares got with testdata/NAME, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -run %s -update to create it)", err, t.Name())
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file:\ngot:\n%s\nwant:\n%s", path, visible(got), visible(want))
	}
}

// visible shows escape sequences in a failure message.
func visible(b []byte) string { return strings.ReplaceAll(string(b), "\x1b", "ESC") }

// progressScript is a turn seen at four moments: three tools queued, then two
// running (a command printing), one failed, and all finished; the frames repeat a
// moment with nothing new, which the plain mode must not print again.
func progressScript() (frames [][]toolLine, times []time.Time) {
	t0 := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	q := func(id, call string) toolLine { return toolLine{ID: id, Call: call, State: "queued"} }
	frames = [][]toolLine{
		{q("toolu_01", "Glob(**/*.go)"), q("toolu_02", "Bash(npm test)"), q("toolu_03", "Bash(rm -rf build && make)")},
		{
			{ID: "toolu_01", Call: "Glob(**/*.go)", State: "done", Elapsed: 120 * time.Millisecond},
			{ID: "toolu_02", Call: "Bash(npm test)", State: "executing", Elapsed: 3200 * time.Millisecond, LastLine: "PASS src/app.test.js (12 tests)"},
			q("toolu_03", "Bash(rm -rf build && make)"),
		},
		{
			{ID: "toolu_01", Call: "Glob(**/*.go)", State: "done", Elapsed: 120 * time.Millisecond},
			{ID: "toolu_02", Call: "Bash(npm test)", State: "executing", Elapsed: 3700 * time.Millisecond, LastLine: "PASS src/app.test.js (12 tests)"},
			q("toolu_03", "Bash(rm -rf build && make)"),
		},
		{
			{ID: "toolu_01", Call: "Glob(**/*.go)", State: "done", Elapsed: 120 * time.Millisecond},
			{ID: "toolu_02", Call: "Bash(npm test)", State: "executing", Elapsed: 75 * time.Second, Attempt: 2,
				LastLine: "FAIL src/very/long/path/to/a/test/file/that/does/not/fit/on/the/line.test.js \x1b[31mred\x1b[0m\ttab"},
			q("toolu_03", "Bash(rm -rf build && make)"),
		},
		{
			{ID: "toolu_01", Call: "Glob(**/*.go)", State: "done", Elapsed: 120 * time.Millisecond},
			{ID: "toolu_02", Call: "Bash(npm test)", State: "error", Elapsed: 80 * time.Second, LastLine: "Exit code 1"},
			{ID: "toolu_03", Call: "Bash(rm -rf build && make)", State: "error", LastLine: "Cancelled: parallel tool call Bash(npm test) errored"},
		},
	}
	times = []time.Time{t0, t0.Add(3 * time.Second), t0.Add(4 * time.Second), t0.Add(75 * time.Second), t0.Add(80 * time.Second)}
	return frames, times
}

// On a terminal the frame is redrawn in place: cursor up over the last frame, each
// line cleared and drawn, cut to the width.
func TestProgressOnTerminal(t *testing.T) {
	var buf bytes.Buffer
	p := newProgress(&buf, true, 80)
	frames, times := progressScript()
	for i := range frames {
		p.show(frames[i], times[i])
	}
	for _, line := range strings.Split(strings.ReplaceAll(buf.String(), "\x1b[J", ""), "\n") {
		if i := strings.LastIndex(line, "\x1b[2K"); i >= 0 {
			line = line[i+len("\x1b[2K"):]
		}
		if n := len([]rune(line)); n >= 80 {
			t.Errorf("a line of %d cells would wrap on an 80-column terminal: %q", n, line)
		}
	}
	golden(t, "progress_tty.golden", buf.Bytes())
}

// Off a terminal, lines are only appended: a tool's start, its finish, and a
// reminder of a long-running tool whose output moved on.
func TestProgressPlain(t *testing.T) {
	var buf bytes.Buffer
	p := newProgress(&buf, false, 0)
	frames, times := progressScript()
	for i := range frames {
		p.show(frames[i], times[i])
	}
	if strings.Contains(buf.String(), "\x1b") {
		t.Errorf("escape sequences off a terminal:\n%s", visible(buf.Bytes()))
	}
	golden(t, "progress_plain.golden", buf.Bytes())
}

// merge matches the running activities to the tools by the tool_use id in their
// heartbeat, or by their tool name before the first heartbeat, and keeps each
// tool's start time to show elapsed time after it finished.
func TestProgressMerge(t *testing.T) {
	t0 := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	w := &watcher{started: map[string]time.Time{}, ended: map[string]time.Time{}, errors: map[string]string{}, results: map[string]bool{}}
	w.last = toolpipe.TurnState{Tools: []toolpipe.ToolState{
		{ID: "b1", Name: "Bash", Description: "Bash(make a)", Status: toolpipe.StatusExecuting},
		{ID: "b2", Name: "Bash", Description: "Bash(make b)", Status: toolpipe.StatusExecuting},
		{ID: "r1", Name: "Read", Description: "Read(/x)", Status: toolpipe.StatusExecuting},
		{ID: "u1", Name: "Nope", Description: "Nope()", Status: toolpipe.StatusYielded, IsError: true},
	}}
	w.pending = []pendingTool{
		{ToolUseID: "b2", Type: "Bash", Started: t0.Add(-2 * time.Second), LastLine: "compiling b", Attempt: 1},
		{Type: "Bash", Started: t0.Add(-time.Second)}, // b1, no heartbeat yet: two Bash run, so unknown
		{Type: "Read", Started: t0.Add(-500 * time.Millisecond)},
		// r1's hook heartbeats r1's id too, but it is not the tool's own activity.
		{ToolUseID: "r1", Type: "RunHook", Started: t0.Add(-time.Hour)},
	}
	w.errors["u1"] = "Error: No such tool available: Nope"
	got := w.merge(t0)
	want := []toolLine{
		{ID: "b1", Call: "Bash(make a)", State: "executing"},
		{ID: "b2", Call: "Bash(make b)", State: "executing", Elapsed: 2 * time.Second, LastLine: "compiling b", Attempt: 1},
		{ID: "r1", Call: "Read(/x)", State: "executing", Elapsed: 500 * time.Millisecond},
		{ID: "u1", Call: "Nope()", State: "error", LastLine: "Error: No such tool available: Nope"},
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("line %d = %+v, want %+v", i, got[i], want[i])
		}
	}

	// b2 finishes; seen later, it keeps the time it ran.
	w.last.Tools[1].Status = toolpipe.StatusYielded
	w.pending = w.pending[1:]
	w.merge(t0.Add(time.Second))
	got = w.merge(t0.Add(10 * time.Second))
	if got[1].State != "done" || got[1].Elapsed != 3*time.Second {
		t.Errorf("finished b2 = %+v, want done after 3s", got[1])
	}
	// Now the only Bash running, b1 is known by its tool name: its start is its
	// activity's, a second before t0.
	if got[0].Elapsed != 11*time.Second {
		t.Errorf("b1, started a second before t0, shows %v at t0+10s", got[0].Elapsed)
	}
}

// Text printed while the frame shows (a prompt to approve a call) goes where the
// frame was, and the frame is drawn again below it; once finished, the frame stays
// and later text goes below.
func TestProgressWriteAboveFrame(t *testing.T) {
	var buf bytes.Buffer
	p := newProgress(&buf, true, 80)
	frames, times := progressScript()
	p.show(frames[1], times[1])
	io.WriteString(p, "  toolu_03 waiting for approval\n")
	p.show(frames[4], times[4])
	p.finish()
	io.WriteString(p, "notice: done\n")
	golden(t, "progress_prompt.golden", buf.Bytes())
}
