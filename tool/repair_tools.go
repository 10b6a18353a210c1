package tool

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// builtinRepairs are the repairs of the built-in tools; ifValid: the repair is
// kept only when the repaired input is valid (Claude Code's Write, Grep and
// WebFetch). roundUp are integer parameters Claude Code takes as any number.
var builtinRepairs = map[string]struct {
	fn       repairer
	ifValid  bool
	roundUp  []string
	preCheck func(json.RawMessage) error
}{
	ReadName:     {fn: repairRead},
	EditName:     {fn: repairEdit},
	BashName:     {fn: repairBash, roundUp: []string{"timeout"}},
	WriteName:    {fn: repairWrite, ifValid: true},
	GrepName:     {fn: repairGrep, ifValid: true, preCheck: checkGrepPaging},
	WebFetchName: {fn: repairWebFetch, ifValid: true},
	GlobName:     {fn: repairGlob},
	TaskStopName: {},
}

func init() {
	for name, r := range builtinRepairs {
		d := registry[name]
		d.repair, d.repairIfValid, d.preCheck = r.fn, r.ifValid, r.preCheck
		d.params = propertyTypes[d.schema]
		d.roundUp = map[string]bool{}
		for _, p := range r.roundUp {
			d.roundUp[p] = true
		}
	}
}

// The repairs of each tool's parameter names, Claude Code 2.1.328's (its tools'
// coerceInput). Each changes the decoded input in place and returns the note for
// the result, if any, and whether it changed anything.

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
	if n, ok := wholeNumber(in["offset"]); ok && n < 0 {
		delete(in, "offset")
		changed = true
	}
	if n, ok := wholeNumber(in["limit"]); ok && n <= 0 {
		delete(in, "limit")
		changed = true
	}
	if v, ok := in["length"]; ok {
		if _, has := in["limit"]; !has {
			if n, ok := wholeNumber(v); ok && n > 0 {
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
	return "", dropped(in, "description") || changed
}

// repairEdit: `path`, `old_str` and `new_str` (str_replace_editor's names) and
// `replace_name` for `replace_all`.
func repairEdit(in map[string]any) (string, bool) {
	changed := false
	if v, ok := in["replace_name"]; ok {
		if _, has := in["replace_all"]; !has {
			in["replace_all"] = v == true || v == "true"
		}
		delete(in, "replace_name")
		changed = true
	}
	for _, a := range [][2]string{{"path", "file_path"}, {"old_str", "old_string"}, {"new_str", "new_string"}} {
		if renamed(in, a[0], a[1]) {
			changed = true
		}
	}
	return "", changed
}

// repairBash: `timeout_ms` for `timeout` and `command_description` for
// `description`; and in the command, `\\;` (find -exec's terminator escaped
// twice, as models write it from a JSON-escaped example) is `\;`.
func repairBash(in map[string]any) (string, bool) {
	changed := false
	if c, ok := in["command"].(string); ok && strings.Contains(c, `\\;`) {
		in["command"] = strings.ReplaceAll(c, `\\;`, `\;`)
		changed = true
	}
	if v, ok := in["timeout_ms"]; ok {
		if _, has := in["timeout"]; !has && isTimeout(v) {
			in["timeout"] = v
			delete(in, "timeout_ms")
			changed = true
		}
	}
	if v, ok := in["command_description"]; ok {
		if _, has := in["description"]; !has {
			if s, ok := v.(string); ok {
				in["description"] = s
			}
		}
		delete(in, "command_description")
		changed = true
	}
	return "", changed
}

// isTimeout: a number, or digits in a string.
func isTimeout(v any) bool {
	switch x := v.(type) {
	case string:
		return x != "" && strings.Trim(x, "0123456789") == ""
	default:
		_, ok := wholeNumber(v)
		return ok
	}
}

// writeContentNames are what models call Write's content; the first two are read
// as content, all are dropped when they repeat it.
var writeContentNames = []string{"file_text", "file_content", "new_text", "body", "text", "contents"}

// repairWrite: `path` for `file_path`, `file_text` or `file_content` for
// `content`, and a `description` or `command: "create"` (dropped); a parameter
// that repeats file_path or content is dropped. The note says what was read how.
func repairWrite(in map[string]any) (string, bool) {
	var notes []string
	if renamed(in, "path", "file_path") {
		notes = append(notes, "`path` was read as `file_path`.")
	}
	var present []string
	for _, k := range writeContentNames[:2] {
		if _, ok := in[k]; ok {
			present = append(present, k)
		}
	}
	if _, has := in["content"]; len(present) == 1 && !has {
		if s, ok := in[present[0]].(string); ok {
			in["content"] = s
			delete(in, present[0])
			notes = append(notes, fmt.Sprintf("`%s` was read as `content`.", present[0]))
		}
	}
	if dropped(in, "description") {
		notes = append(notes, "`description` was ignored.")
	}
	if in["command"] == "create" {
		delete(in, "command")
		notes = append(notes, "`command` was ignored.")
	}
	for _, r := range []struct {
		name    string
		aliases []string
	}{{"file_path", []string{"path", "file"}}, {"content", writeContentNames}} {
		s, ok := in[r.name].(string)
		if !ok {
			continue
		}
		for _, a := range r.aliases {
			if in[a] == s {
				delete(in, a)
				notes = append(notes, fmt.Sprintf("`%s` repeated `%s` and was ignored.", a, r.name))
			}
		}
	}
	if len(notes) == 0 {
		return "", false
	}
	return "Note: Write's parameters are named `file_path` and `content`. " + strings.Join(notes, " "), true
}

// grepModeFlags are rg's flags models send for Grep's output modes.
var grepModeFlags = []struct{ flag, mode string }{{"-l", "files_with_matches"}, {"-c", "count"}}

// repairGrep: `file_path` for `path`, rg's -l and -c for output_mode, and -r
// (dropped: Grep always recurses). The note says what was read how.
func repairGrep(in map[string]any) (string, bool) {
	var notes []string
	changed := false
	if p, ok := in["file_path"].(string); ok && p != "" {
		if cur, has := in["path"]; !has || cur == p {
			delete(in, "file_path")
			in["path"] = p
			how := "`file_path` was read as `path`."
			if has {
				how = "`file_path` repeated `path` and was ignored."
			}
			notes = append(notes, "Grep's parameter for where to search is named `path`. "+how)
		}
	}
	for _, f := range grepModeFlags {
		if !isTrue(in[f.flag]) {
			continue
		}
		cur, has := in["output_mode"]
		if has && cur != f.mode {
			continue
		}
		delete(in, f.flag)
		in["output_mode"] = f.mode
		if has {
			notes = append(notes, fmt.Sprintf("`%s` repeated `output_mode` and was ignored.", f.flag))
		} else {
			notes = append(notes, fmt.Sprintf("`%s` is not a Grep parameter and was read as `output_mode: %q`.", f.flag, f.mode))
		}
	}
	if in["pattern"] == "" {
		// Claude Code's ripgrep matches every line with an empty pattern; so does
		// "^", which the schema takes.
		in["pattern"] = "^"
		changed = true
	}
	if isTrue(in["-r"]) {
		delete(in, "-r")
		notes = append(notes, "`-r` was ignored: Grep always searches a directory recursively.")
	}
	if len(notes) == 0 {
		return "", changed
	}
	return "Note: " + strings.Join(notes, " "), true
}

// checkGrepPaging refuses a head_limit or offset that is not a whole number of 0
// or more, in Claude Code's words.
func checkGrepPaging(input json.RawMessage) error {
	in, ok := decodeObject(input)
	if !ok {
		return nil
	}
	for _, k := range []string{"head_limit", "offset"} {
		n, ok := in[k].(json.Number)
		if !ok {
			continue
		}
		f, err := n.Float64()
		if err == nil && f >= 0 && f == math.Trunc(f) {
			continue
		}
		hint := ""
		if k == "head_limit" {
			hint = " Pass 0 for unlimited."
		}
		return fmt.Errorf("%s must be a whole number of 0 or more, got %s.%s", k, n, hint)
	}
	return nil
}

// repairGlob reads an empty pattern as every file, as Claude Code's ripgrep
// does with an empty --glob.
func repairGlob(in map[string]any) (string, bool) {
	if in["pattern"] == "" {
		in["pattern"] = "**"
		return "", true
	}
	return "", false
}

// webFetchDropped are parameters of other fetch tools that WebFetch ignores.
var webFetchDropped = []string{"text_content_token_limit", "html_extraction_method", "web_fetch_pdf_extract_text"}

// repairWebFetch drops them.
func repairWebFetch(in map[string]any) (string, bool) {
	changed := false
	for _, k := range webFetchDropped {
		if dropped(in, k) {
			changed = true
		}
	}
	return "", changed
}

// renamed moves in[from] to in[to] when to is absent and from is a string.
func renamed(in map[string]any, from, to string) bool {
	s, ok := in[from].(string)
	if _, has := in[to]; !ok || has {
		return false
	}
	in[to] = s
	delete(in, from)
	return true
}

// dropped deletes in[k], reporting whether it was there.
func dropped(in map[string]any, k string) bool {
	_, ok := in[k]
	delete(in, k)
	return ok
}
