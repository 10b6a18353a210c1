package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/workflows"
)

// scriptedWatch stands in for a turn's watcher: the script draws the frames itself.
type scriptedWatch struct {
	results []string
	stopped bool
}

func (s *scriptedWatch) result(r tool.Result)     { s.results = append(s.results, r.ToolUseID) }
func (s *scriptedWatch) stop(ctx context.Context) { s.stopped = true }

// agentStep is one moment of a session as the view sees it: an event, or a frame of
// the running turn's tools.
type agentStep struct {
	ev    *workflows.SessionEvent
	frame []toolLine
	at    time.Time
}

// agentScript is a session of two model calls: the first's reply calls two tools,
// seen queued, running (a command printing) and done, in turn 1; the second answers
// with text only, and starts no turn.
func agentScript() []agentStep {
	t0 := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	const turn1 = "session-demo/turn-1"
	ev := func(e workflows.SessionEvent) agentStep { return agentStep{ev: &e} }
	frame := func(sec int, lines ...toolLine) agentStep {
		return agentStep{frame: lines, at: t0.Add(time.Duration(sec) * time.Second)}
	}
	glob, bash := "Glob(**/*.go)", "Bash(go test ./...)"
	return []agentStep{
		ev(workflows.SessionEvent{Kind: workflows.EventUser, Text: "Count the Go files and run the tests"}),
		ev(workflows.SessionEvent{Kind: workflows.EventModel, Text: "claude-sonnet-4-5"}),
		ev(workflows.SessionEvent{Kind: workflows.EventTurn, Text: turn1, TurnID: turn1}),
		ev(workflows.SessionEvent{Kind: workflows.EventAssistant, Text: "I will look around.", TurnID: turn1}),
		ev(workflows.SessionEvent{Kind: workflows.EventToolUse, Text: glob, ToolUseID: "toolu_01", TurnID: turn1}),
		frame(0, toolLine{ID: "toolu_01", Call: glob, State: "executing"}),
		ev(workflows.SessionEvent{Kind: workflows.EventToolUse, Text: bash, ToolUseID: "toolu_02", TurnID: turn1}),
		frame(1, toolLine{ID: "toolu_01", Call: glob, State: "done", Elapsed: 100 * time.Millisecond},
			toolLine{ID: "toolu_02", Call: bash, State: "executing", Elapsed: 800 * time.Millisecond, LastLine: "ok  example.com/a 0.2s"}),
		frame(3, toolLine{ID: "toolu_01", Call: glob, State: "done", Elapsed: 100 * time.Millisecond},
			toolLine{ID: "toolu_02", Call: bash, State: "error", Elapsed: 2500 * time.Millisecond, LastLine: "Exit code 1"}),
		ev(workflows.SessionEvent{Kind: workflows.EventToolResult, Text: "a.go\nb.go\n", ToolUseID: "toolu_01", TurnID: turn1}),
		ev(workflows.SessionEvent{Kind: workflows.EventToolResult, Text: "Exit code 1\nFAIL example.com/b", ToolUseID: "toolu_02", IsError: true, TurnID: turn1}),
		ev(workflows.SessionEvent{Kind: workflows.EventModel, Text: "claude-sonnet-4-5", Turn: 1}),
		ev(workflows.SessionEvent{Kind: workflows.EventAssistant, Text: "Two Go files; the tests of b fail.", Turn: 1}),
		ev(workflows.SessionEvent{Kind: workflows.EventStop, Text: "end_turn", Turn: 2}),
	}
}

// playAgent runs the script through a view writing out and stderr to one buffer.
func playAgent(t *testing.T, tty bool) ([]byte, []*scriptedWatch) {
	var buf bytes.Buffer
	v := &agentView{out: &buf, stderr: &buf, tty: tty, width: 80, shared: tty}
	v.p = newProgress(&buf, tty, 80)
	var watches []*scriptedWatch
	v.watch = func(ctx context.Context, id string, p *progress) turnWatch {
		w := &scriptedWatch{}
		watches = append(watches, w)
		return w
	}
	for _, s := range agentScript() {
		if s.ev != nil {
			v.event(context.Background(), *s.ev)
		} else {
			v.p.show(s.frame, s.at)
		}
	}
	v.close(context.Background())
	return buf.Bytes(), watches
}

// On a terminal each turn's tools are a frame redrawn in place, the session's text
// goes above it, and a finished turn's frame stays where it was.
func TestAgentViewOnTerminal(t *testing.T) {
	out, watches := playAgent(t, true)
	if len(watches) != 1 || !watches[0].stopped || strings.Join(watches[0].results, ",") != "toolu_01,toolu_02" {
		t.Errorf("turn watchers: %+v", watches)
	}
	golden(t, "agent_tty.golden", out)
}

// Off a terminal everything is plain lines, only ever appended.
func TestAgentViewPlain(t *testing.T) {
	out, _ := playAgent(t, false)
	if bytes.Contains(out, []byte("\x1b")) {
		t.Errorf("escape sequences off a terminal:\n%s", visible(out))
	}
	golden(t, "agent_plain.golden", out)
}
