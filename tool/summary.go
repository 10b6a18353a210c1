package tool

import (
	"encoding/json"
	"strings"
)

// summaryArgRunes bounds each argument shown in an activity summary: the UI shows
// the summary on one line of the event history.
const summaryArgRunes = 80

// Summary is a call's one-line title in the Temporal UI: the tool and its main
// arguments, e.g. "Bash: `npm test`", "Grep: `TODO` in `src/`" (Tool.Summary), or
// the name and the subject.
func (d *Definition) Summary(input json.RawMessage) string {
	if s := d.tool.Summary(input); s != "" {
		return s
	}
	return Title(d.Name(), Code(d.tool.Subject(input), false))
}

// Title is a summary: the name, then the parts; the name alone when the first part
// is empty.
func Title(name string, parts ...string) string {
	if len(parts) == 0 || parts[0] == "" {
		return name
	}
	return name + ": " + strings.Join(parts, " ")
}

// Code makes s a markdown code span on one line, shortened to summaryArgRunes: a
// path loses its start (its end names the file), anything else its end. The UI
// renders summaries as markdown, so every argument is a code span: a glob such as
// **/*.go would otherwise turn into bold and italics. The fence is one backtick
// longer than any run of backticks in s, as CommonMark requires.
func Code(s string, path bool) string {
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
