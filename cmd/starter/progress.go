package main

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
	"unicode"
)

// toolLine is one tool as the progress display shows it.
type toolLine struct {
	ID string
	// Call names the call for people: "Bash(npm test)".
	Call string
	// State is queued, executing, done, error, or a state the turn reports that
	// this display does not know (shown as it is).
	State string
	// Elapsed is how long the tool has run (executing) or ran (finished); zero when
	// unknown (it finished before the display first saw it run).
	Elapsed time.Duration
	// LastLine is the last line a running command printed, or a failed tool's
	// first line of error.
	LastLine string
	// Attempt is the activity's attempt, shown from the second on.
	Attempt int32
}

func (l toolLine) finished() bool { return l.State == "done" || l.State == "error" }

// defaultWidth is the terminal width assumed when it cannot be read.
const defaultWidth = 100

// renderFrame is the display on a terminal: one line per tool, each cut to width so
// that no line wraps (a wrapped line would break the cursor arithmetic that redraws
// the frame in place).
func renderFrame(tools []toolLine, width int) []string {
	if width <= 0 {
		width = defaultWidth
	}
	lines := make([]string, 0, len(tools))
	for _, l := range tools {
		s := fmt.Sprintf("%s %-9s %7s  %s", mark(l.State), l.State, elapsed(l), l.Call)
		if l.Attempt > 1 {
			s += fmt.Sprintf(" (attempt %d)", l.Attempt)
		}
		if l.LastLine != "" {
			s += "  " + l.LastLine
		}
		lines = append(lines, fit(s, width-1))
	}
	return lines
}

func mark(state string) string {
	switch state {
	case "queued":
		return "·"
	case "executing":
		return "▸"
	case "done":
		return "✓"
	case "error":
		return "✗"
	}
	return "?"
}

// elapsed formats a duration the way a person reads a stopwatch.
func elapsed(l toolLine) string {
	d := l.Elapsed
	switch {
	case d < 50*time.Millisecond: // just seen: a time would only be noise
		return ""
	case d < time.Minute:
		return fmt.Sprintf("%.1fs", d.Seconds())
	case d < time.Hour:
		return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
	}
	return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
}

// fit makes s printable on one terminal line of at most width cells: control
// characters (a command's own escape sequences, tabs, carriage returns) become
// spaces, and the end is cut with an ellipsis. Each rune counts as one cell.
func fit(s string, width int) string {
	r := []rune(strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, s))
	if width < 1 {
		width = 1
	}
	if len(r) > width {
		r = append(r[:width-1], '…')
	}
	return string(r)
}

// progress shows a turn's tools on stderr: on a terminal, a frame redrawn in place;
// elsewhere (a pipe, a CI log), plain lines that are only ever appended: one when a
// tool starts, one when it finishes, and a reminder with its output's last line
// while it keeps running.
type progress struct {
	mu    sync.Mutex
	w     io.Writer
	tty   bool
	width int
	// drawn is how many lines the last frame took (terminal), and last its tools:
	// text printed meanwhile goes above the frame, which is then drawn again.
	drawn int
	last  []toolLine
	// done: the frame is final; what is printed after it goes below.
	done bool
	// said is what the plain mode last printed per tool, and when.
	said map[string]plainNote
}

type plainNote struct {
	state, lastLine string
	at              time.Time
}

// plainReminder is how often the plain mode repeats a running tool whose output
// moved on, so a CI log shows that a long command is alive and what it is doing.
const plainReminder = 15 * time.Second

func newProgress(w io.Writer, tty bool, width int) *progress {
	return &progress{w: w, tty: tty, width: width, said: map[string]plainNote{}}
}

// show displays the tools' current state; now is the clock of the plain mode's
// reminders.
func (p *progress) show(tools []toolLine, now time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.done {
		return
	}
	if p.tty {
		p.last = tools
		p.redraw(tools)
		return
	}
	for _, l := range tools {
		p.plain(l, now)
	}
}

// redraw moves the cursor to the top of the last frame and draws the new one over
// it, clearing each line first; the frame only grows, as tools are only added.
func (p *progress) redraw(tools []toolLine) {
	var b strings.Builder
	if p.drawn > 0 {
		fmt.Fprintf(&b, "\x1b[%dA", p.drawn)
	}
	lines := renderFrame(tools, p.width)
	for _, l := range lines {
		b.WriteString("\r\x1b[2K")
		b.WriteString(l)
		b.WriteString("\n")
	}
	b.WriteString("\x1b[J") // anything below the frame is stale
	p.drawn = len(lines)
	io.WriteString(p.w, b.String())
}

// Write prints text (whole lines) for the user while the progress shows: on a
// terminal it goes where the frame was, and the frame is drawn again below it, so
// that neither overwrites the other (a prompt to approve a call, a warning).
func (p *progress) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.tty || p.drawn == 0 || p.done {
		return p.w.Write(b)
	}
	fmt.Fprintf(p.w, "\x1b[%dA\r\x1b[J", p.drawn)
	n, err := p.w.Write(b)
	p.drawn = 0
	p.redraw(p.last)
	return n, err
}

// finish leaves the last frame as it is: later output goes below it.
func (p *progress) finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done = true
}

// liveStderr returns what to print on while a turn's progress shows: on a terminal
// a progress display, whose Write keeps its frame intact (watchTurn then draws on
// it); elsewhere stderr itself.
func liveStderr(stderr io.Writer) io.Writer {
	if _, ok := stderr.(*progress); ok {
		return stderr
	}
	if tty, width := terminal(stderr); tty {
		return newProgress(stderr, true, width)
	}
	return stderr
}

func (p *progress) plain(l toolLine, now time.Time) {
	prev, seen := p.said[l.ID]
	switch {
	case seen && prev.state == l.State && (l.finished() || l.LastLine == prev.lastLine || now.Sub(prev.at) < plainReminder):
		return
	case l.State == "queued":
		return // not news: every tool starts queued
	}
	line := fmt.Sprintf("  %s %s: %s", l.ID, l.Call, l.State)
	if e := elapsed(l); e != "" {
		line += " " + e
	}
	if l.Attempt > 1 {
		line += fmt.Sprintf(" (attempt %d)", l.Attempt)
	}
	if l.LastLine != "" {
		line += ": " + l.LastLine
	}
	fmt.Fprintln(p.w, fit(line, 300))
	p.said[l.ID] = plainNote{state: l.State, lastLine: l.LastLine, at: now}
}
