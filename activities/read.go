package activities

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/toolpipe/toolpipe/internal/safefile"
	"github.com/toolpipe/toolpipe/persisted"
	"github.com/toolpipe/toolpipe/tool"
)

// Read's limits, Claude Code's (2.1.328): 2,000 lines unless a limit is given; a file
// over 256 KB only with a range; a result over 25,000 tokens never. allow_large lifts
// all three up to a hard cap, so one call still cannot fill a context window.
const (
	readDefaultLimit  = 2000
	readMaxFileBytes  = 256 << 10
	readMaxTokens     = 25_000
	readLargeMaxChars = 800_000 // allow_large: about 200,000 tokens
	binarySniffBytes  = 8000
)

// Read returns a text file's lines numbered as Claude Code numbers them ("N\t" and
// the line, joined by newlines), from offset (1-based) for limit lines. Its texts,
// errors included, are Claude Code's, so a model sees what it was trained on.
func (a *Activities) Read(ctx context.Context, call tool.Call) (tool.Output, error) {
	var in tool.ReadInput
	if err := json.Unmarshal(call.Input, &in); err != nil {
		return tool.Output{}, badCall(call, err)
	}
	stop := keepAlive(ctx, call.ToolUseID, nil)
	defer stop()
	path := resolve(call.Workdir, in.FilePath)
	if msg := deniedRead(call, "read", path); msg != "" { // deny_read.go
		return useErrorOutput("%s", msg)
	}
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return errorOutput("File does not exist. Note: your current working directory is %s.", call.Workdir)
	case err != nil:
		return errorOutput("%v", err)
	case st.IsDir():
		return errorOutput("EISDIR: illegal operation on a directory, read '%s'", path)
	case !st.Mode().IsRegular():
		return useErrorOutput("%s", notRegularMessage("Read", path, st.Mode())) // not_regular.go
	}
	if msg := checkPages(in.Pages); msg != "" {
		return useErrorOutput("%s", msg)
	}
	if msg := unreadableKind(path); msg != "" {
		return useErrorOutput("%s", msg)
	}
	if !in.Ranged() && !in.AllowLarge && st.Size() > readMaxFileBytes {
		return errorOutput("File content (%s) exceeds maximum allowed size (256KB). Use offset and limit parameters to read specific portions of the file, or search for specific content instead of reading the whole file. To read it anyway, up to what still fits in your context, call Read again with allow_large: true — only if you genuinely need all of it or the user asked for the whole file.", persisted.FormatSize(st.Size()))
	}
	f, err := safefile.Open(path) // a FIFO swapped in since the stat does not block
	if mode, ok := notRegular(err); ok {
		return useErrorOutput("%s", notRegularMessage("Read", path, mode))
	}
	if err != nil {
		return errorOutput("%v", err)
	}
	defer f.Close()
	mod := &tool.Modifier{ReadFiles: []string{path}}
	if st.Size() == 0 {
		return tool.Output{Content: "<system-reminder>Warning: the file exists but the contents are empty.</system-reminder>", Modifier: mod}, nil
	}
	out, err := readLines(ctx, f, in)
	if err != nil {
		return tool.Output{}, err
	}
	switch {
	case out.tooLarge:
		return errorOutput("File content is over %d characters, more than one Read returns even with allow_large. Read it in parts with offset and limit, or search it with Grep.", readLargeMaxChars)
	case out.shown == 0:
		return tool.Output{Content: fmt.Sprintf("<system-reminder>Warning: the file exists but is shorter than the provided offset (%d). The file has %d lines.</system-reminder>", *in.Offset, out.total), Modifier: mod}, nil
	}
	text := out.text.String()
	if tokens := estimateTokens(text); tokens > readMaxTokens && !in.AllowLarge {
		return errorOutput("File content (%d tokens) exceeds maximum allowed tokens (%d). Use offset and limit parameters to read specific portions of the file, or search for specific content with Grep instead of reading the whole file. To read it anyway, call Read again with allow_large: true — only if you genuinely need all of it.", tokens, readMaxTokens)
	}
	if out.nul {
		text += "\n\n[This file has NUL bytes in its first 8 KB: binary data, UTF-16/UTF-32 without a byte-order mark, or text with embedded NULs. Edit and Write will refuse it: change it with a shell command that keeps its encoding, or ask the user whether to convert it to UTF-8.]"
	}
	return tool.Output{Content: text, Modifier: mod}, nil
}

// readResult is the numbered range and what was learnt reading the file.
type readResult struct {
	text     strings.Builder
	shown    int  // lines in text
	total    int  // lines in the file (a final newline starts an empty last line)
	chars    int  // characters in text
	nul      bool // a NUL in the first bytes
	tooLarge bool // over readLargeMaxChars
}

// readLines streams the file, keeping only the lines of the range: a range of a
// huge file costs a scan, not its size in memory. Lines are what splitting the text
// on "\n" gives, as in Claude Code: "a\n" is two lines, the second empty.
func readLines(ctx context.Context, f io.Reader, in tool.ReadInput) (*readResult, error) {
	first, limit := 1, readDefaultLimit
	if in.AllowLarge {
		limit = math.MaxInt - 1 // every line, up to readLargeMaxChars
	}
	if in.Offset != nil && *in.Offset > 0 {
		first = *in.Offset
	}
	if in.Limit != nil && *in.Limit > 0 {
		limit = *in.Limit
	}
	r := bufio.NewReaderSize(f, 64<<10)
	head, _ := r.Peek(binarySniffBytes)
	res := &readResult{nul: bytes.IndexByte(head, 0) >= 0}
	if bytes.HasPrefix(head, []byte("\uFEFF")) {
		r.Discard(3)
	}
	for {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		line, err := r.ReadString('\n')
		if err != nil && err != io.EOF {
			return nil, fmt.Errorf("read: %w", err)
		}
		res.total++
		if n := res.total; n >= first && n-first < limit {
			if res.shown > 0 {
				res.text.WriteByte('\n')
			}
			line = strings.ToValidUTF8(strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r"), "\uFFFD")
			before := res.text.Len()
			fmt.Fprintf(&res.text, "%d\t%s", n, line)
			res.chars += utf8.RuneCountInString(res.text.String()[before:])
			res.shown++
			if res.chars > readLargeMaxChars {
				res.tooLarge = true
				return res, nil
			}
		}
		if err == io.EOF {
			return res, nil
		}
	}
}

// estimateTokens is a rough count, a token per four characters, as Claude Code
// estimates before it asks the API; characters, not bytes, so CJK text is not
// undercounted fourfold.
func estimateTokens(s string) int { return (utf8.RuneCountInString(s) + 3) / 4 }

// useErrorOutput is a tool error that stopped the call before it did anything,
// wrapped as Claude Code wraps its tools' input checks.
func useErrorOutput(format string, args ...any) (tool.Output, error) {
	return tool.Output{Content: tool.UseError(fmt.Sprintf(format, args...)), IsError: true}, nil
}
