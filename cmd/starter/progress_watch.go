package main

import (
	"context"
	"io"
	"os"
	"sync"
	"time"

	"go.temporal.io/api/workflowservice/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/converter"
	"golang.org/x/term"

	"github.com/toolpipe/toolpipe"
	"github.com/toolpipe/toolpipe/activities"
	"github.com/toolpipe/toolpipe/tool"
)

// turnReader is what the progress display reads a turn through: its state for the
// tools' states and the calls waiting for approval, and the pending activities for
// start times and the tail of each command's output (its heartbeat details).
type turnReader interface {
	TurnState(ctx context.Context, id string) (toolpipe.TurnState, error)
	DescribeWorkflowExecution(ctx context.Context, workflowID, runID string) (*workflowservice.DescribeWorkflowExecutionResponse, error)
}

// turnClient is a client whose TurnState is the Go API's: the State query while the
// turn runs, its history once it has closed (a query would wait for a worker).
type turnClient struct {
	client.Client
	api *toolpipe.Client
}

// TurnState reads the turn id's state.
func (c turnClient) TurnState(ctx context.Context, id string) (toolpipe.TurnState, error) {
	return c.api.Turn(id).State(ctx)
}

// reader is this command's client as the progress display reads turns.
func (e *env) reader() turnClient { return turnClient{Client: e.conn.Client, api: e.api} }

// pendingTool is a running tool activity as DescribeWorkflowExecution shows it.
type pendingTool struct {
	ToolUseID string // from the heartbeat details; empty before the first heartbeat
	Type      string // the activity type: the tool's name
	Started   time.Time
	Attempt   int32
	LastLine  string
}

// watcher follows one turn and feeds its progress display.
type watcher struct {
	r        turnReader
	id       string
	p        *progress
	interval time.Duration
	now      func() time.Time

	mu      sync.Mutex
	started map[string]time.Time // when each tool was first known to run
	ended   map[string]time.Time // when each tool was first seen finished
	errors  map[string]string    // a failed tool's first line of error
	results map[string]bool      // the tools whose result the turn yielded
	last    toolpipe.TurnState
	pending []pendingTool
	// asked are the calls whose wait for approval was shown (printPending).
	asked map[string]bool

	stopOnce sync.Once
	quit     chan struct{}
	done     chan struct{}
}

// watchTurn shows the progress of turn id on stderr until stop is called: redrawn
// in place when stderr is a terminal, as plain lines otherwise.
//
// When stderr comes from liveStderr, the display is that one: what else is printed
// through it goes above the frame.
func watchTurn(ctx context.Context, r turnReader, id string, stderr io.Writer) *watcher {
	p, ok := stderr.(*progress)
	if !ok {
		tty, width := terminal(stderr)
		p = newProgress(stderr, tty, width)
	}
	interval := time.Second
	if p.tty {
		interval = 250 * time.Millisecond
	}
	w := &watcher{
		r: r, id: id, p: p, interval: interval, now: time.Now,
		started: map[string]time.Time{}, ended: map[string]time.Time{}, errors: map[string]string{}, results: map[string]bool{}, asked: map[string]bool{},
		quit: make(chan struct{}), done: make(chan struct{}),
	}
	go w.loop(ctx)
	return w
}

// terminal reports whether w is a terminal that can redraw lines, and its width.
func terminal(w io.Writer) (bool, int) {
	f, ok := w.(*os.File)
	if !ok || os.Getenv("TERM") == "dumb" || !term.IsTerminal(int(f.Fd())) {
		return false, 0
	}
	width, _, err := term.GetSize(int(f.Fd()))
	if err != nil {
		width = defaultWidth
	}
	return true, width
}

func (w *watcher) loop(ctx context.Context) {
	defer close(w.done)
	t := time.NewTicker(w.interval)
	defer t.Stop()
	for {
		w.poll(ctx)
		select {
		case <-ctx.Done():
			return
		case <-w.quit:
			return
		case <-t.C:
		}
	}
}

// result records a result as the turn yields it: its time ends the tool's elapsed
// time more precisely than the next poll would, and an error shows its reason.
func (w *watcher) result(r tool.Result) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.results[r.ToolUseID] = true
	if _, ok := w.ended[r.ToolUseID]; !ok {
		w.ended[r.ToolUseID] = w.now()
	}
	if r.IsError {
		w.errors[r.ToolUseID] = firstLine(r.Content)
	}
}

// stop ends the polling and draws the final state once more. When the tools last
// seen are exactly those with a result it draws from those, without asking the turn again: a query
// on a finished turn makes a worker replay its whole history.
func (w *watcher) stop(ctx context.Context) {
	w.stopOnce.Do(func() {
		close(w.quit)
		<-w.done
		w.mu.Lock()
		// Complete: the last state read lists every call that yielded a result, and
		// each of them has yielded (a call added after that read is not drawn from it).
		complete := len(w.last.Tools) > 0 && len(w.results) == len(w.last.Tools)
		for _, t := range w.last.Tools {
			complete = complete && w.results[t.ID]
		}
		w.mu.Unlock()
		if complete {
			w.draw()
		} else {
			ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
			defer cancel()
			w.poll(ctx)
		}
		w.p.finish()
	})
}

// poll reads the turn and shows it, with the calls that started waiting for
// approval (printed once each, above the frame, with how to answer them): one read
// of the turn's state serves both. A failed read (the turn not yet picked up by a
// worker, a server restarting) keeps what was last read. A closed turn's state
// comes from its history (turnClient), never from a query.
func (w *watcher) poll(ctx context.Context) {
	d, derr := w.r.DescribeWorkflowExecution(ctx, w.id, "")
	if st, err := w.r.TurnState(ctx, w.id); err == nil {
		w.mu.Lock()
		w.last = st
		var asked []toolpipe.PendingApproval
		for _, p := range st.Pending {
			if !w.asked[p.ToolUseID] {
				w.asked[p.ToolUseID] = true
				asked = append(asked, p)
			}
		}
		w.mu.Unlock()
		for _, p := range asked {
			printPending(w.p, w.id, p) // approvals_watch.go
		}
	}
	if derr == nil {
		pending := pendingTools(d)
		w.mu.Lock()
		w.pending = pending
		w.mu.Unlock()
	}
	w.draw()
}

// draw shows what is known now.
func (w *watcher) draw() {
	w.mu.Lock()
	lines := w.merge(w.now())
	w.mu.Unlock()
	if len(lines) > 0 {
		w.p.show(lines, w.now())
	}
}

// pendingTools reads the running activities and what their heartbeats say.
func pendingTools(d *workflowservice.DescribeWorkflowExecutionResponse) []pendingTool {
	var out []pendingTool
	for _, pa := range d.GetPendingActivities() {
		pt := pendingTool{Type: pa.GetActivityType().GetName(), Attempt: pa.GetAttempt()}
		if ts := pa.GetLastStartedTime(); ts != nil && ts.IsValid() {
			pt.Started = ts.AsTime()
		}
		var prog activities.Progress
		if pa.GetHeartbeatDetails() != nil && converter.GetDefaultDataConverter().FromPayloads(pa.GetHeartbeatDetails(), &prog) == nil {
			pt.ToolUseID, pt.LastLine = prog.ToolUseID, prog.LastLine
			// The server keeps the details across attempts: until this attempt has
			// heartbeat, they are the previous attempt's, whose last line is not this
			// attempt's output.
			if hb, st := pa.GetLastHeartbeatTime(), pa.GetLastStartedTime(); hb != nil && st != nil && hb.AsTime().Before(st.AsTime()) {
				pt.LastLine = ""
			}
		}
		out = append(out, pt)
	}
	return out
}

// merge combines the last State query answer, the pending activities, the errors
// yielded and what was seen before into the lines to show. The caller holds mu.
func (w *watcher) merge(now time.Time) []toolLine {
	// Keyed by id and type: a call's hooks are activities that heartbeat its id too,
	// and only the tool's own activity says when the tool started.
	byID := map[string]pendingTool{}
	unmatched := map[string][]pendingTool{}
	for _, pt := range w.pending {
		if pt.ToolUseID != "" {
			byID[pt.ToolUseID+"\x00"+pt.Type] = pt
		} else {
			unmatched[pt.Type] = append(unmatched[pt.Type], pt)
		}
	}
	executingByName := map[string]int{}
	for _, t := range w.last.Tools {
		if t.Status == toolpipe.StatusExecuting {
			executingByName[t.Name]++
		}
	}
	lines := make([]toolLine, 0, len(w.last.Tools))
	for _, t := range w.last.Tools {
		l := toolLine{ID: t.ID, Call: t.Description, State: string(t.Status)}
		switch {
		case t.Status == toolpipe.StatusCompleted || t.Status == toolpipe.StatusYielded || w.results[t.ID]:
			l.State = "done"
			if _, failed := w.errors[t.ID]; failed || t.IsError {
				l.State = "error"
				l.LastLine = w.errors[t.ID]
			}
			if _, ok := w.ended[t.ID]; !ok {
				w.ended[t.ID] = now
			}
		case t.Status == toolpipe.StatusExecuting:
			pt, ok := byID[t.ID+"\x00"+t.Name]
			if !ok && executingByName[t.Name] == 1 && len(unmatched[t.Name]) == 1 {
				// Before its first heartbeat a call is known by its tool alone.
				pt, ok = unmatched[t.Name][0], true
			}
			if ok {
				l.LastLine, l.Attempt = pt.LastLine, pt.Attempt
				if !pt.Started.IsZero() {
					w.started[t.ID] = pt.Started
				}
			}
			if _, seen := w.started[t.ID]; !seen {
				w.started[t.ID] = now
			}
		}
		if s, ok := w.started[t.ID]; ok {
			end := now
			if e, done := w.ended[t.ID]; done {
				end = e
			}
			l.Elapsed = max(end.Sub(s), 0)
		}
		lines = append(lines, l)
	}
	return lines
}
