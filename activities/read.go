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
	"strconv"
	"strings"
	"syscall"
	"unicode/utf8"

	"golang.org/x/text/encoding/unicode"

	"github.com/toolpipe/toolpipe/internal/safefile"
	"github.com/toolpipe/toolpipe/persisted"
	"github.com/toolpipe/toolpipe/tool"
)

// readTool is Read (Claude Code's FileRead): a text file's lines, numbered.
type readTool struct {
	tool.Base
	a *Activities // nil in Builtins: its declaration only
}

func (readTool) Spec() tool.Spec {
	return tool.Spec{Name: tool.ReadName, Description: readDescription, InputSchema: readSchema,
		MaxResultSizeChars: tool.Unlimited, Interrupt: tool.InterruptCancel, MaxInputBytes: maxShortInputBytes,
		Builtin: true, Coerce: true}
}

const readDescription = `Reads a text file and returns its lines numbered from 1, each as the line number, a tab and the line.

- file_path should be an absolute path (a relative one is taken from the working directory).
- Without offset and limit it returns every line. For a long file, read the part you need: offset is the 1-based line to start at and limit the number of lines.
- A Jupyter notebook (.ipynb) is shown as its cells, each with its outputs. A UTF-16 file with a byte-order mark is shown as text; a file that is not valid UTF-8 is shown with a note, and Edit and Write refuse it.
- A file over 256 KB is refused unless offset or limit is given, and any result over 25,000 tokens is refused: read a range, or find the lines you need with Grep first. allow_large lifts these limits, up to 800,000 characters, for when you really need the whole file.
- Read a file before you Edit or Write it: both refuse an existing file that was not read.
- When you need several files, Read them all in one message: independent Reads run in parallel. Reading a file that may turn out not to be useful is fine.
- It reads files, not directories: list a directory with Glob (or ls with Bash). A path that does not exist is an error; Glob finds the right one.
- Binary files, images and PDFs are not shown as text: the result says how to look into them with a shell command.
- An empty file, or an offset past the end, is reported with a warning instead of lines.
- A tool result saved to a file (a <persisted-output> block names its path) is read with this tool.`

const readSchema = `{
  "type": "object",
  "properties": {
    "file_path": {"type": "string", "description": "The absolute path to the file to read (a relative one is taken from the working directory)"},
    "offset": {"type": "integer", "description": "The line number to start reading from (1-based). Only provide if the file is too large to read at once"},
    "limit": {"type": "integer", "description": "The number of lines to read (default: all). Only provide if the file is too large to read at once"},
    "pages": {"type": "string", "description": "Page range for PDF files (e.g. \"1-5\", \"3\"); ignored for other files"},
    "allow_large": {"type": "boolean", "description": "Read a text file, or a range of one, over the usual size limits (256 KB without a range, 25,000 tokens), up to a hard cap. Only when you genuinely need all of it; otherwise read a range or search with Grep"}
  },
  "required": ["file_path"],
  "additionalProperties": false
}`

// readInput is the input of Read (Claude Code's FilereadInput).
type readInput struct {
	FilePath string `json:"file_path"`
	// Offset is the first line (1-based); absent, zero or negative: the start.
	Offset *int `json:"offset,omitempty"`
	// Limit is how many lines; absent, zero or negative: the default.
	Limit *int `json:"limit,omitempty"`
	// Pages is a PDF page range ("3", "1-5"); ignored for other files.
	Pages string `json:"pages,omitempty"`
	// AllowLarge lifts the size and token limits, up to a hard cap.
	AllowLarge bool `json:"allow_large,omitempty"`
}

// Ranged says the call names a line range, which a file over the size limit needs.
func (r readInput) Ranged() bool { return r.Offset != nil || r.Limit != nil }

// IsConcurrencySafe: always.
func (readTool) IsConcurrencySafe(json.RawMessage) bool { return true }

// RepairInput: Claude Code 2.1.328's renames (its FileRead coerceInput).
func (readTool) RepairInput(in map[string]any) (string, bool) { return repairRead(in) }

// Summary: the path.
func (t readTool) Summary(input json.RawMessage) string {
	return tool.Title(tool.ReadName, tool.Code(t.Subject(input), true))
}

// Access: the file, under Read rules.
func (t readTool) Access(input json.RawMessage) tool.Access {
	return tool.Access{Kind: tool.AccessRead, Paths: []string{filePath(input)}}
}

// Run reads the file; for PostToolUse hooks, the tool_response is FileReadOutput.
func (t readTool) Run(ctx context.Context, call tool.Call) (tool.Output, error) {
	if t.a == nil {
		return tool.Output{}, errUnbound(call)
	}
	out, err := t.a.limited(t.a.Read)(ctx, call)
	return responding(call, out, err, func() any { return readResponseOf(call) })
}

// readResponse is FileReadOutput (sdk-tools.d.ts) of a text file.
type readResponse struct {
	Type string   `json:"type"`
	File readFile `json:"file"`
}

type readFile struct {
	FilePath   string `json:"filePath"`
	Content    string `json:"content"`
	NumLines   int    `json:"numLines"`
	StartLine  int    `json:"startLine"`
	TotalLines int    `json:"totalLines"`
}

// readResponseOf reads the file again for the range the call showed.
func readResponseOf(call tool.Call) any {
	var in readInput
	if json.Unmarshal(call.Input, &in) != nil {
		return nil
	}
	path := resolve(call.Workdir, in.FilePath)
	text := fileText(call)
	if text == nil {
		return nil
	}
	// Claude Code splits on "\n": "alpha\n" is two lines, the second empty.
	lines := strings.Split(*text, "\n")
	offset, limit := 0, 0
	if in.Offset != nil {
		offset = *in.Offset
	}
	if in.Limit != nil {
		limit = *in.Limit
	}
	start := max(offset, 1)
	from := min(start-1, len(lines))
	to := len(lines)
	if limit > 0 {
		to = min(from+limit, len(lines))
	}
	shown := lines[from:to]
	return readResponse{Type: "text", File: readFile{FilePath: path, Content: strings.Join(shown, "\n"),
		NumLines: len(shown), StartLine: start, TotalLines: len(lines)}}
}

// repairRead: offset and limit sent as arrays of one, a negative offset or a limit
// under 1 (dropped: the defaults), `length` for `limit`, and a `description`
// (dropped).
func repairRead(in map[string]any) (string, bool) {
	changed := false
	for _, k := range []string{"offset", "limit"} {
		if a, ok := in[k].([]any); ok && len(a) == 1 {
			in[k], changed = a[0], true
		}
	}
	if n, ok := tool.WholeNumber(in["offset"]); ok && n < 0 {
		delete(in, "offset")
		changed = true
	}
	if n, ok := tool.WholeNumber(in["limit"]); ok && n <= 0 {
		delete(in, "limit")
		changed = true
	}
	if v, ok := in["length"]; ok {
		if _, has := in["limit"]; !has {
			if n, ok := tool.WholeNumber(v); ok && n > 0 {
				in["limit"] = json.Number(strconv.FormatFloat(n, 'f', -1, 64))
			}
		}
		delete(in, "length")
		changed = true
	}
	if p, ok := in["pages"].(string); ok && strings.TrimSpace(p) == "" {
		delete(in, "pages") // Claude Code's schema drops a blank page range
		changed = true
	}
	return "", tool.Dropped(in, "description") || changed
}

// Read's limits, Claude Code's (2.1.328): a file over 256 KB only with a range; a
// result over 25,000 tokens never. allow_large lifts both up to a hard cap, so one
// call still cannot fill a context window.
const (
	readMaxFileBytes  = 256 << 10
	readMaxTokens     = 25_000
	readLargeMaxChars = 800_000 // allow_large: about 200,000 tokens
	binarySniffBytes  = 8000
)

// Read returns a text file's lines numbered as Claude Code numbers them ("N\t" and
// the line, joined by newlines), from offset (1-based) for limit lines. Its texts,
// errors included, are Claude Code's, so a model sees what it was trained on.
func (a *Activities) Read(ctx context.Context, call tool.Call) (tool.Output, error) {
	var in readInput
	if err := json.Unmarshal(call.Input, &in); err != nil {
		return tool.Output{}, badCall(call, err)
	}
	stop := keepAlive(ctx, call.ToolUseID, nil)
	defer stop()
	path := resolve(call.Workdir, in.FilePath)
	if msg := deniedRead(call, "read", path); msg != "" { // deny_read.go
		return useErrorOutput("%s", msg)
	}
	path, failed := a.persistedHere(path) // another host's persisted output: persisted_fetch.go
	if failed != "" {
		return errorOutput("%s", failed)
	}
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return errorOutput("File does not exist. Note: your current working directory is %s.%s", call.Workdir, didYouMean(call.Workdir, path))
	case errors.Is(err, syscall.ENOTDIR):
		return errorOutput("%s", nodeError("open", path, err)) // a path through a file, as Claude Code says it
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
	if isNotebook(path) {
		return readNotebook(path, st) // read_notebook.go
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
	if st.Size() == 0 && (in.Offset == nil || *in.Offset <= 1) {
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
	if kind := out.notText(); kind != "" {
		text += notTextNote(kind) // textfile.go
	}
	if out.first > 1 || out.first+out.shown-1 < out.total {
		mod.PartialFiles = []string{path} // an Edit then cannot say the model's view is current
	}
	return tool.Output{Content: text, Modifier: mod}, nil
}

// readResult is the numbered range and what was learnt reading the file.
type readResult struct {
	text     strings.Builder
	first    int  // the first line shown
	shown    int  // lines in text
	total    int  // lines in the file (a final newline starts an empty last line)
	chars    int  // characters in text
	utf16BE  bool // it starts FE FF
	nul      bool // a NUL in the first bytes (of a file not in UTF-16LE)
	invalid  bool // a line that is not UTF-8
	tooLarge bool // over readLargeMaxChars
}

// notText is why Edit and Write will refuse the file, in Claude Code's order.
func (r *readResult) notText() string {
	switch {
	case r.utf16BE:
		return utf16BE
	case r.nul:
		return hasNUL
	case r.invalid:
		return notUTF8
	}
	return ""
}

// readLines streams the file, keeping only the lines of the range: a range of a
// huge file costs a scan, not its size in memory. Lines are what splitting the text
// on "\n" gives, as in Claude Code: "a\n" is two lines, the second empty. Without
// a limit every line is shown, as in Claude Code 2.1.328 (the size and token
// limits bound a result). A file that starts FF FE is UTF-16LE; other bytes that
// are not UTF-8 show as U+FFFD, one for each invalid sequence, as Claude Code
// shows them.
func readLines(ctx context.Context, f io.Reader, in readInput) (*readResult, error) {
	first, limit := 1, math.MaxInt-1
	if in.Offset != nil && *in.Offset > 0 {
		first = *in.Offset
	}
	if in.Limit != nil && *in.Limit > 0 {
		limit = *in.Limit
	}
	r := bufio.NewReaderSize(f, 64<<10)
	head, _ := r.Peek(binarySniffBytes)
	res := &readResult{first: first}
	switch {
	case isUTF16LE(head):
		r = bufio.NewReaderSize(unicode.UTF16(unicode.LittleEndian, unicode.UseBOM).NewDecoder().Reader(r), 64<<10)
	case bytes.HasPrefix(head, []byte{0xFE, 0xFF}):
		res.utf16BE = true
	default:
		res.nul = bytes.IndexByte(head, 0) >= 0
	}
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
		if !res.invalid && !utf8.ValidString(line) {
			res.invalid = true
		}
		if n := res.total; n >= first && n-first < limit {
			if res.shown > 0 {
				res.text.WriteByte('\n')
			}
			line = lossyUTF8([]byte(strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r")))
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
