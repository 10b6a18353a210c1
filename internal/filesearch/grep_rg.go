package filesearch

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
)

// rgArgs maps the request onto ripgrep's flags, as Claude Code does. Content
// mode asks for JSON, so that file names, line numbers and match/context lines
// are unambiguous whatever the file names contain, and the Go renderer prints
// them; the other modes use NUL after file names for the same reason.
func rgArgs(req GrepRequest) []string {
	args := []string{"--no-config", "--color", "never", "--hidden"}
	if req.Mode == ModeContent || req.Mode == ModeCount {
		// Files mode is sorted by time afterwards, so rg may search in parallel.
		args = append(args, "--sort", "path")
	}
	for _, d := range vcsDirs {
		args = append(args, "--glob", "!"+d)
	}
	switch req.Mode {
	case ModeContent:
		args = append(args, "--json")
		if req.Before > 0 {
			args = append(args, "-B", strconv.Itoa(req.Before))
		}
		if req.After > 0 {
			args = append(args, "-A", strconv.Itoa(req.After))
		}
	case ModeCount:
		args = append(args, "--count", "--with-filename", "--null")
	default:
		args = append(args, "--files-with-matches", "--null")
	}
	if req.CaseInsensitive {
		args = append(args, "-i")
	}
	if req.Multiline {
		args = append(args, "-U", "--multiline-dotall")
	}
	for _, g := range splitGlobs(req.Glob) {
		args = append(args, "--glob", g)
	}
	if req.Type != "" {
		args = append(args, "--type", req.Type)
	}
	return append(args, "--regexp", req.Pattern, "--", req.Path)
}

// runRg runs ripgrep and feeds its output to c as it streams.
func runRg(ctx context.Context, req GrepRequest, explicit bool, c *collector) error {
	ctx, stopRg := context.WithCancel(ctx)
	defer stopRg()
	cmd := exec.CommandContext(ctx, req.Rg, rgArgs(req)...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var stderr bytes.Buffer
	cmd.Stderr = &limitedBuffer{b: &stderr, n: 64 << 10}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start rg: %w", err)
	}
	var onFIFO atomic.Bool
	watched := make(chan struct{})
	defer close(watched)
	go watchFIFOOpen(cmd.Process.Pid, watched, func() { onFIFO.Store(true); stopRg() }) // rg_fifo.go
	r := bufio.NewReaderSize(out, 256<<10)
	var perr error
	switch req.Mode {
	case ModeContent:
		perr = readRgJSON(r, c)
	case ModeCount:
		perr = readNulRecords(r, '\n', func(path, rest string) {
			n, _ := strconv.Atoi(strings.TrimSpace(rest))
			c.count(path, n)
		})
	default:
		perr = readNulRecords(r, 0, func(path, _ string) { c.file(path) })
	}
	if errors.Is(perr, errStop) {
		stopRg() // the page is full: rg need not search further
		cmd.Wait()
		return nil
	}
	io.Copy(io.Discard, out)
	werr := cmd.Wait()
	if onFIFO.Load() {
		return ErrRgBlockedOnFIFO
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if perr != nil {
		return fmt.Errorf("read rg output: %w", perr)
	}
	var exit *exec.ExitError
	if errors.As(werr, &exit) && exit.ExitCode() == 2 && c.total == 0 {
		// rg exits 2 for a bad pattern, glob or type (nothing searched), and
		// for unreadable files after searching the rest: only the first is an
		// error here.
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return &RejectedError{Engine: "rg", Message: msg}
		}
	}
	if werr != nil && !errors.As(werr, &exit) {
		return fmt.Errorf("rg: %w", werr)
	}
	return nil
}

// readNulRecords reads "path\0rest<end>" records (end 0: "path\0" only).
func readNulRecords(r *bufio.Reader, end byte, fn func(path, rest string)) error {
	for {
		path, err := r.ReadString(0)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		path = path[:len(path)-1]
		rest := ""
		if end != 0 {
			if rest, err = r.ReadString(end); err != nil && err != io.EOF {
				return err
			}
		}
		fn(path, strings.TrimSuffix(rest, string(end)))
	}
}

// rgText is ripgrep's JSON for text that may not be UTF-8.
type rgText struct {
	Text  *string `json:"text"`
	Bytes string  `json:"bytes"`
}

func (t rgText) String() string {
	if t.Text != nil {
		return *t.Text
	}
	b, _ := base64.StdEncoding.DecodeString(t.Bytes)
	return string(b)
}

type rgEvent struct {
	Type string `json:"type"`
	Data struct {
		Path         rgText `json:"path"`
		Lines        rgText `json:"lines"`
		LineNumber   int    `json:"line_number"`
		BinaryOffset *int64 `json:"binary_offset"`
		Submatches   []struct {
			Match rgText `json:"match"`
		} `json:"submatches"`
	} `json:"data"`
}

// readRgJSON reads rg --json: begin, match, context and end events per file.
func readRgJSON(r *bufio.Reader, c *collector) error {
	for {
		line, err := r.ReadBytes('\n')
		if len(line) > 0 {
			var ev rgEvent
			if jerr := json.Unmarshal(line, &ev); jerr != nil {
				return jerr
			}
			path := ev.Data.Path.String()
			switch ev.Type {
			case "match", "context":
				l := outLine{num: ev.Data.LineNumber, text: strings.TrimSuffix(ev.Data.Lines.String(), "\n"), match: ev.Type == "match"}
				for _, s := range ev.Data.Submatches {
					l.subs = append(l.subs, s.Match.String())
				}
				c.line(path, l)
				if c.full() {
					return errStop
				}
			case "end":
				at := int64(-1)
				if ev.Data.BinaryOffset != nil {
					at = *ev.Data.BinaryOffset
				}
				c.end(path, at)
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// limitedBuffer keeps the first n bytes written to it.
type limitedBuffer struct {
	b *bytes.Buffer
	n int
}

func (l *limitedBuffer) Write(p []byte) (int, error) {
	if room := l.n - l.b.Len(); room > 0 {
		l.b.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}
