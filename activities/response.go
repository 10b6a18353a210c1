package activities

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/toolpipe/toolpipe/internal/safefile"
	"github.com/toolpipe/toolpipe/tool"
)

// responding wraps a tool so that a call that asks for it (Call.Response: PostToolUse
// hooks will read it) returns, besides the text the model sees, Claude Code's
// structured tool_response for the tool (the output types of sdk-tools.d.ts). It is
// built only on request because it may repeat the file a Read returned, and the
// activity result is kept in history.
func (a *Activities) responding(name string, fn ToolFunc) ToolFunc {
	return func(ctx context.Context, call tool.Call) (tool.Output, error) {
		if !call.Response {
			return fn(ctx, call)
		}
		var original *string // Write and Edit report what the file held before
		if name == tool.WriteName || name == tool.EditName {
			original = fileText(call)
		}
		start := time.Now()
		out, err := fn(ctx, call)
		if err != nil || out.IsError {
			return out, err
		}
		if resp := buildResponse(name, call, original, out, time.Since(start)); resp != nil {
			out.Response, _ = json.Marshal(resp)
		}
		return out, nil
	}
}

// fileText is the text of the call's file_path, or nil when it does not exist.
func fileText(call tool.Call) *string {
	var in struct {
		FilePath string `json:"file_path"`
	}
	if json.Unmarshal(call.Input, &in) != nil || in.FilePath == "" {
		return nil
	}
	b, err := safefile.ReadFile(resolve(call.Workdir, in.FilePath)) // never waits on a FIFO
	if err != nil {
		return nil
	}
	s := string(b)
	return &s
}

// The tool_response shapes (sdk-tools.d.ts: FileReadOutput, FileWriteOutput,
// FileEditOutput, GlobOutput, GrepOutput).
type (
	readResponse struct {
		Type string   `json:"type"`
		File readFile `json:"file"`
	}
	readFile struct {
		FilePath   string `json:"filePath"`
		Content    string `json:"content"`
		NumLines   int    `json:"numLines"`
		StartLine  int    `json:"startLine"`
		TotalLines int    `json:"totalLines"`
	}
	hunk struct {
		OldStart int      `json:"oldStart"`
		OldLines int      `json:"oldLines"`
		NewStart int      `json:"newStart"`
		NewLines int      `json:"newLines"`
		Lines    []string `json:"lines"`
	}
	writeResponse struct {
		Type            string  `json:"type"`
		FilePath        string  `json:"filePath"`
		Content         string  `json:"content"`
		StructuredPatch []hunk  `json:"structuredPatch"`
		OriginalFile    *string `json:"originalFile"`
		UserModified    bool    `json:"userModified"`
	}
	editResponse struct {
		FilePath        string  `json:"filePath"`
		OldString       string  `json:"oldString"`
		NewString       string  `json:"newString"`
		OriginalFile    *string `json:"originalFile"`
		StructuredPatch []hunk  `json:"structuredPatch"`
		UserModified    bool    `json:"userModified"`
		ReplaceAll      bool    `json:"replaceAll"`
	}
	globResponse struct {
		DurationMs      int64    `json:"durationMs"`
		NumFiles        int      `json:"numFiles"`
		Filenames       []string `json:"filenames"`
		Truncated       bool     `json:"truncated"`
		TotalMatches    int      `json:"totalMatches"`
		CountIsComplete bool     `json:"countIsComplete"`
	}
	grepResponse struct {
		Mode       string   `json:"mode"`
		NumFiles   int      `json:"numFiles"`
		Filenames  []string `json:"filenames"`
		Content    *string  `json:"content,omitempty"`
		NumLines   *int     `json:"numLines,omitempty"`
		TotalFiles *int     `json:"totalFiles,omitempty"`
		TotalLines *int     `json:"totalLines,omitempty"`
	}
)

// buildResponse returns the tool's structured output, or nil where toolpipe has no
// better answer than the result text (the workflow then derives one).
func buildResponse(name string, call tool.Call, original *string, out tool.Output, took time.Duration) any {
	switch name {
	case tool.ReadName:
		var in tool.ReadInput
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
	case tool.WriteName:
		var in tool.WriteInput
		if json.Unmarshal(call.Input, &in) != nil {
			return nil
		}
		r := writeResponse{Type: "create", FilePath: resolve(call.Workdir, in.FilePath), Content: in.Content,
			StructuredPatch: []hunk{}, OriginalFile: original}
		if original != nil {
			r.Type = "update"
			r.StructuredPatch = patch(*original, in.Content)
		}
		return r
	case tool.EditName:
		var in tool.EditInput
		if json.Unmarshal(call.Input, &in) != nil {
			return nil
		}
		after := fileText(call)
		r := editResponse{FilePath: resolve(call.Workdir, in.FilePath), OldString: in.OldString, NewString: in.NewString,
			OriginalFile: original, StructuredPatch: []hunk{}, ReplaceAll: in.ReplaceAll}
		if original != nil && after != nil {
			r.StructuredPatch = patch(*original, *after)
		}
		return r
	case tool.GlobName:
		names := resultLines(out.Content, "No files found")
		r := globResponse{DurationMs: took.Milliseconds(), Filenames: []string{}, CountIsComplete: true}
		for _, n := range names {
			if strings.HasPrefix(n, "(Results are truncated") || strings.HasPrefix(n, "(Showing ") {
				r.Truncated = true
				fmt.Sscanf(n, "(Showing %d of %d", new(int), &r.TotalMatches)
				continue
			}
			r.Filenames = append(r.Filenames, n)
		}
		r.NumFiles = len(r.Filenames)
		r.TotalMatches = max(r.TotalMatches, r.NumFiles)
		return r
	case tool.GrepName:
		var in tool.GrepInput
		if json.Unmarshal(call.Input, &in) != nil {
			return nil
		}
		mode := in.OutputMode
		if mode == "" {
			mode = "files_with_matches"
		}
		r := grepResponse{Mode: mode, Filenames: []string{}}
		if mode == "files_with_matches" {
			total := 0
			for _, l := range resultLines(out.Content, "No files found") {
				if strings.HasPrefix(l, "Found ") {
					fmt.Sscanf(l, "Found %d file", &total)
					continue
				}
				r.Filenames = append(r.Filenames, l)
			}
			r.NumFiles = len(r.Filenames)
			total = max(total, r.NumFiles)
			r.TotalFiles = &total
			return r
		}
		content := strings.TrimRight(out.Content, "\n")
		if content == "No matches found" {
			content = ""
		}
		n := 0
		if content != "" {
			n = strings.Count(content, "\n") + 1
		}
		r.Content, r.NumLines, r.TotalLines = &content, &n, &n
		return r
	}
	return nil
}

// resultLines splits a list result into its lines; none is the text meaning empty.
func resultLines(content, none string) []string {
	content = strings.TrimRight(content, "\n")
	if content == "" || content == none {
		return nil
	}
	return strings.Split(content, "\n")
}

// patch is one hunk from the first to the last changed line, with up to three
// lines of context, as jsdiff's structuredPatch gives for a single change. Several
// separate changes become one hunk: hooks read it to see what changed, and the
// lines it lists are still exact.
func patch(before, after string) []hunk {
	if before == after {
		return []hunk{}
	}
	// A final newline ends the last line; it does not start another (jsdiff).
	a, b := strings.Split(strings.TrimSuffix(before, "\n"), "\n"), strings.Split(strings.TrimSuffix(after, "\n"), "\n")
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	const ctxLines = 3
	from := max(pre-ctxLines, 0)
	tailA, tailB := len(a)-suf, len(b)-suf
	endA, endB := min(tailA+ctxLines, len(a)), min(tailB+ctxLines, len(b))
	var lines []string
	for _, l := range a[from:pre] {
		lines = append(lines, " "+l)
	}
	for _, l := range a[pre:tailA] {
		lines = append(lines, "-"+l)
	}
	for _, l := range b[pre:tailB] {
		lines = append(lines, "+"+l)
	}
	for _, l := range a[tailA:endA] {
		lines = append(lines, " "+l)
	}
	return []hunk{{OldStart: from + 1, OldLines: endA - from, NewStart: from + 1, NewLines: endB - from, Lines: lines}}
}
