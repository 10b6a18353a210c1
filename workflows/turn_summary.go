package workflows

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/toolpipe/toolpipe/tool"
)

// summaryArgRunes bounds each argument shown in an activity summary: the UI shows
// the summary on one line of the event history.
const summaryArgRunes = 80

// summary is a tool activity's one-line title in the Temporal UI: the tool and its
// main arguments, e.g. "Bash: `npm test`", "Grep: `TODO` in `src/`". The UI renders
// summaries as markdown, so every argument is a code span: a glob such as **/*.go
// would otherwise turn into bold and italics.
func summary(b tool.Block) string {
	var in struct {
		Command  string `json:"command"`
		FilePath string `json:"file_path"`
		Pattern  string `json:"pattern"`
		Path     string `json:"path"`
		Glob     string `json:"glob"`
		URL      string `json:"url"`
	}
	_ = json.Unmarshal(b.Input, &in) // an input that does not parse still gets a title
	var parts []string
	switch b.Name {
	case tool.BashName:
		parts = []string{code(in.Command, false)}
	case tool.ReadName, tool.WriteName, tool.EditName:
		parts = []string{code(in.FilePath, true)}
	case tool.WebFetchName:
		parts = []string{code(in.URL, false)}
	case tool.GlobName, tool.GrepName:
		parts = []string{code(in.Pattern, false)}
		if in.Glob != "" {
			parts = append(parts, "in files", code(in.Glob, false))
		}
		if in.Path != "" {
			parts = append(parts, "in", code(in.Path, true))
		}
	default:
		if tool.IsMCPName(b.Name) {
			// An MCP tool's fields have no fixed names: its whole input shows.
			parts = []string{code(compactJSON(b.Input), false)}
			break
		}
		main := in.Command
		for _, s := range []string{in.FilePath, in.Pattern, in.URL} {
			if main == "" {
				main = s
			}
		}
		parts = []string{code(main, false)}
	}
	if parts[0] == "" {
		return b.Name
	}
	return b.Name + ": " + strings.Join(parts, " ")
}

// compactJSON is an input on one line; an input that is not JSON shows as sent.
func compactJSON(in json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, in) != nil {
		return string(in)
	}
	return b.String()
}

// code makes s a markdown code span on one line, shortened to summaryArgRunes: a
// path loses its start (its end names the file), anything else its end. The fence
// is one backtick longer than any run of backticks in s, as CommonMark requires.
func code(s string, path bool) string {
	s = strings.Join(strings.Fields(s), " ")
	if s == "" {
		return ""
	}
	if r := []rune(s); len(r) > summaryArgRunes {
		if path {
			s = "…" + string(r[len(r)-summaryArgRunes+1:])
		} else {
			s = string(r[:summaryArgRunes-1]) + "…"
		}
	}
	longest, run := 0, 0
	for _, c := range s {
		if c == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", longest+1)
	if longest > 0 || strings.HasPrefix(s, " ") {
		// A space on each side keeps a backtick at either end from joining the
		// fence; CommonMark strips one on each side.
		return fence + " " + s + " " + fence
	}
	return fence + s + fence
}
