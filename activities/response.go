package activities

import (
	"encoding/json"
	"strings"

	"github.com/toolpipe/toolpipe/internal/safefile"
	"github.com/toolpipe/toolpipe/tool"
)

// responding adds to a call's output, when the call asks for it (Call.Response:
// PostToolUse hooks will read it), Claude Code's structured tool_response for the
// tool (the output types of sdk-tools.d.ts), which build makes; nil means none (the
// workflow then derives one from the text, Tool.HookResponse). It is built only on
// request because it may repeat the file a Read returned, and the activity result
// is kept in history.
func responding(call tool.Call, out tool.Output, err error, build func() any) (tool.Output, error) {
	if err != nil || out.IsError || !call.Response {
		return out, err
	}
	if resp := build(); resp != nil {
		out.Response, _ = json.Marshal(resp)
	}
	return out, nil
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

// hunk is one hunk of a structuredPatch (jsdiff's, as Claude Code's Write and Edit
// report them).
type hunk struct {
	OldStart int      `json:"oldStart"`
	OldLines int      `json:"oldLines"`
	NewStart int      `json:"newStart"`
	NewLines int      `json:"newLines"`
	Lines    []string `json:"lines"`
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
