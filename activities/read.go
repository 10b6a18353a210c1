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
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/toolpipe/toolpipe/tool"
)

// Read defaults of Claude Code.
const (
	readDefaultLimit = 2000
	readMaxLineChars = 2000
	binarySniffBytes = 8000
)

// Read returns a text file's lines numbered like `cat -n`, from offset (1-based) for
// limit lines; it refuses binary files.
func (a *Activities) Read(ctx context.Context, call tool.Call) (tool.Output, error) {
	var in tool.ReadInput
	if err := json.Unmarshal(call.Input, &in); err != nil {
		return tool.Output{}, badCall(call, err)
	}
	stop := keepAlive(ctx, call.ToolUseID, nil)
	defer stop()
	path := filepath.Clean(in.FilePath)
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return errorOutput("File does not exist: %s", path)
	}
	if err != nil {
		return errorOutput("Cannot read %s: %v", path, err)
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.IsDir() {
		return errorOutput("%s is a directory, not a file; use Glob or Bash ls to list it", path)
	}
	r := bufio.NewReaderSize(f, 64<<10)
	head, _ := r.Peek(binarySniffBytes)
	if isBinary(head) {
		return errorOutput("%s is a binary file; Read only returns text files", path)
	}
	offset, limit := max(in.Offset, 1), in.Limit
	if limit <= 0 {
		limit = readDefaultLimit
	}
	var b strings.Builder
	lineNo, shown := 0, 0
	for shown < limit {
		if ctx.Err() != nil {
			return tool.Output{}, ctx.Err()
		}
		line, err := r.ReadString('\n')
		if line == "" && err != nil {
			if err != io.EOF {
				return errorOutput("Cannot read %s: %v", path, err)
			}
			break
		}
		lineNo++
		if lineNo < offset {
			continue
		}
		line = strings.TrimRight(line, "\r\n")
		if utf8.RuneCountInString(line) > readMaxLineChars {
			line = string([]rune(line)[:readMaxLineChars]) + "… [line truncated]"
		}
		fmt.Fprintf(&b, "%6d\t%s\n", lineNo, strings.ToValidUTF8(line, "\uFFFD"))
		shown++
	}
	mod := &tool.Modifier{ReadFiles: []string{path}}
	switch {
	case lineNo == 0:
		return tool.Output{Content: fmt.Sprintf("(%s is empty)", path), Modifier: mod}, nil
	case shown == 0:
		return tool.Output{Content: fmt.Sprintf("(%s has %d lines; offset %d is past the end)", path, lineNo, offset), Modifier: mod}, nil
	}
	return tool.Output{Content: b.String(), Modifier: mod}, nil
}

// isBinary: a NUL byte or invalid UTF-8 in the first bytes (a rune cut at the end of
// the sample is not counted).
func isBinary(head []byte) bool {
	if bytes.IndexByte(head, 0) >= 0 {
		return true
	}
	for i := 0; i < utf8.UTFMax && len(head) > 0; i++ {
		if utf8.Valid(head) {
			return false
		}
		head = head[:len(head)-1]
	}
	return !utf8.Valid(head)
}
