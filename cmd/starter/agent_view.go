package main

import (
	"context"
	"fmt"
	"io"

	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/workflows"
)

// turnWatch is what the agent view needs of a turn's watcher (progress_watch.go).
type turnWatch interface {
	result(r tool.Result)
	stop(ctx context.Context)
}

// agentView shows a running session: its events (the user's and the assistant's
// text, tool calls and results) on out, and on stderr a line per model call and, per
// turn, the same per-tool progress as `starter run` (progress.go): redrawn in place
// on a terminal, plain lines elsewhere. When out and stderr are the same terminal,
// the events go through the progress display too, above its frame, so that neither
// overwrites the other.
type agentView struct {
	out    io.Writer
	stderr io.Writer
	tty    bool
	width  int
	// shared: out and stderr are one terminal.
	shared bool
	// watch starts following a turn's tools on p.
	watch func(ctx context.Context, turnID string, p *progress) turnWatch

	turnID string
	p      *progress // the current turn's display
	w      turnWatch
}

// newAgentView shows on the terminals (or files) out and stderr, reading turns
// through r.
func newAgentView(out, stderr io.Writer, r turnReader) *agentView {
	tty, width := terminal(stderr)
	outTTY, _ := terminal(out)
	v := &agentView{out: out, stderr: stderr, tty: tty, width: width, shared: tty && outTTY}
	v.watch = func(ctx context.Context, id string, p *progress) turnWatch {
		// Calls waiting for approval print above the frame, with the reason, the
		// deadline and the commands that answer them, as `starter run` shows them.
		return watchTurn(ctx, r, id, p)
	}
	v.p = newProgress(stderr, tty, width)
	return v
}

// event shows one session event. An event of a turn not yet followed ends the
// previous turn's display and starts following the new one's tools.
func (v *agentView) event(ctx context.Context, ev workflows.SessionEvent) {
	if ev.TurnID != "" && ev.TurnID != v.turnID {
		v.endTurn(ctx)
		v.turnID = ev.TurnID
		v.p = newProgress(v.stderr, v.tty, v.width)
		if v.watch != nil {
			v.w = v.watch(ctx, ev.TurnID, v.p)
		}
	}
	switch ev.Kind {
	case workflows.EventModel:
		// A model call starts: the previous call's turn is over. Its own turn, if its
		// reply has tool calls, comes with the event that starts it (EventTurn).
		if ev.TurnID == "" && v.turnID != "" {
			v.endTurn(ctx)
			v.turnID = ""
			v.p = newProgress(v.stderr, v.tty, v.width)
		}
		fmt.Fprintf(v.p, "● model call %d: %s\n", ev.Turn+1, ev.Text)
		return
	case workflows.EventTurn:
		return // the watching has started above
	case workflows.EventToolResult:
		if v.w != nil {
			v.w.result(tool.Result{ToolUseID: ev.ToolUseID, Content: ev.Text, IsError: ev.IsError})
		}
	case workflows.EventStop:
		v.endTurn(ctx)
	}
	printEvent(v.eventOut(), ev)
}

// eventOut is where events print: above the frame when it shares their terminal.
func (v *agentView) eventOut() io.Writer {
	if v.shared {
		return v.p
	}
	return v.out
}

// endTurn draws the turn's tools a last time and leaves them: what follows goes below.
func (v *agentView) endTurn(ctx context.Context) {
	if v.w != nil {
		v.w.stop(ctx)
		v.w = nil
	}
	v.p.finish()
}

// close ends the display, when the session has ended or the watching stops.
func (v *agentView) close(ctx context.Context) { v.endTurn(ctx) }
