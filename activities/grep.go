package activities

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"strings"
	"syscall"

	"go.temporal.io/sdk/temporal"

	"github.com/toolpipe/toolpipe/contract"
	"github.com/toolpipe/toolpipe/persistence"
	"github.com/toolpipe/toolpipe/search"
	"github.com/toolpipe/toolpipe/tool"
)

// grepTool is Grep: a regular expression searched in files, with ripgrep's options.
type grepTool struct {
	tool.Base
	a *Activities // nil in Builtins: its declaration only
}

// grepMaxResultChars is Grep's threshold (DESIGN §4.1).
const grepMaxResultChars = 20_000

func (grepTool) Spec() tool.Spec {
	return tool.Spec{Name: tool.GrepName, Description: grepDescription, InputSchema: grepSchema,
		MaxResultSizeChars: grepMaxResultChars, Interrupt: tool.InterruptCancel, MaxInputBytes: maxShortInputBytes,
		Searches: true, Builtin: true, Coerce: true, RepairIfValid: true}
}

var grepDescription = fmt.Sprintf(`Searches file contents with a regular expression (ripgrep syntax) in the working directory, or in path (a file or a directory).

- output_mode: files_with_matches (the default) lists the files that match, newest first; content shows the matching lines (line numbers on by default with -n, lines around them with -A, -B or -C); count gives the number of matches per file.
- head_limit shows the first %s lines or entries unless you set it; 0 shows everything (use it sparingly: large results fill your context). offset skips entries to page through the rest.
- Narrow the files with glob (*.go, **/*.{ts,tsx}) or type (go, py, js, rust); -i ignores case.
- The pattern is a regular expression: escape literal metacharacters (interface\{\} finds interface{}). multiline: true lets a pattern span lines.
- Files ignored by .gitignore are skipped; hidden files are searched.
- Always search with Grep rather than grep or rg in Bash. Independent searches go in one message and run in parallel; for an open-ended exploration, start broad and narrow down.
- Output over %s characters is saved to a file: you get its path and a preview.`, num(search.GrepHeadLimit), num(grepMaxResultChars))

const grepSchema = `{
  "type": "object",
  "properties": {
    "pattern": {"type": "string", "minLength": 1, "description": "The regular expression pattern to search for in file contents"},
    "path": {"type": "string", "description": "File or directory to search in (rg PATH). Defaults to current working directory."},
    "glob": {"type": "string", "description": "Glob pattern to filter files (e.g. \"*.js\", \"*.{ts,tsx}\") - maps to rg --glob"},
    "output_mode": {"enum": ["content", "files_with_matches", "count"], "description": "Output mode: \"content\" shows matching lines (supports -A/-B/-C context, -n line numbers, head_limit), \"files_with_matches\" shows file paths (supports head_limit), \"count\" shows match counts (supports head_limit). Defaults to \"files_with_matches\"."},
    "-B": {"type": "integer", "minimum": 0, "description": "Number of lines to show before each match (rg -B). Requires output_mode: \"content\", ignored otherwise."},
    "-A": {"type": "integer", "minimum": 0, "description": "Number of lines to show after each match (rg -A). Requires output_mode: \"content\", ignored otherwise."},
    "-C": {"type": "integer", "minimum": 0, "description": "Alias for context."},
    "context": {"type": "integer", "minimum": 0, "description": "Number of lines to show before and after each match (rg -C). Requires output_mode: \"content\", ignored otherwise."},
    "-n": {"type": "boolean", "description": "Show line numbers in output (rg -n). Requires output_mode: \"content\", ignored otherwise. Defaults to true."},
    "-i": {"type": "boolean", "description": "Case insensitive search (rg -i)"},
    "-o": {"type": "boolean", "description": "Print only the matched (non-empty) parts of each matching line, one match per output line (rg -o). Requires output_mode: \"content\", ignored otherwise. Defaults to false."},
    "type": {"type": "string", "description": "File type to search (rg --type). Common types: js, py, rust, go, java, etc. More efficient than include for standard file types."},
    "head_limit": {"type": "integer", "minimum": 0, "description": "Limit output to first N lines/entries, equivalent to \"| head -N\". Works across all output modes. Defaults to 250 when unspecified. Pass 0 for unlimited (use sparingly - large result sets waste context)."},
    "offset": {"type": "integer", "minimum": 0, "description": "Skip first N lines/entries before applying head_limit, equivalent to \"| tail -n +N | head -N\". Works across all output modes. Defaults to 0."},
    "multiline": {"type": "boolean", "description": "Enable multiline mode where . matches newlines and patterns can span lines (rg -U --multiline-dotall). Default: false."}
  },
  "required": ["pattern"],
  "additionalProperties": false
}`

// grepInput is the input of Grep: every field of Claude Code's grepInput
// (sdk-tools.d.ts), with its meaning.
type grepInput struct {
	Pattern         string `json:"pattern"`
	Path            string `json:"path,omitempty"`
	Glob            string `json:"glob,omitempty"`
	Type            string `json:"type,omitempty"`
	OutputMode      string `json:"output_mode,omitempty"`
	CaseInsensitive bool   `json:"-i,omitempty"`
	// LineNumbers defaults to true (content mode).
	LineNumbers  *bool `json:"-n,omitempty"`
	OnlyMatching bool  `json:"-o,omitempty"`
	After        *int  `json:"-A,omitempty"`
	Before       *int  `json:"-B,omitempty"`
	// C is an alias of Context: lines on both sides of a match.
	C       *int `json:"-C,omitempty"`
	Context *int `json:"context,omitempty"`
	// HeadLimit defaults to 250 lines or entries; 0 shows all. Offset skips
	// that many first.
	HeadLimit *int `json:"head_limit,omitempty"`
	Offset    *int `json:"offset,omitempty"`
	Multiline bool `json:"multiline,omitempty"`
}

// IsConcurrencySafe: always.
func (grepTool) IsConcurrencySafe(json.RawMessage) bool { return true }

// PreCheck refuses a head_limit or offset that is not a whole number of 0 or more,
// in Claude Code's words (its schema's).
func (grepTool) PreCheck(input json.RawMessage) error { return checkGrepPaging(input) }

// RepairInput: Claude Code 2.1.328's renames (its Grep coerceInput), kept only when
// they make the input valid.
func (grepTool) RepairInput(in map[string]any) (string, bool) { return repairGrep(in) }

// Summary: the pattern, the files and where.
func (grepTool) Summary(input json.RawMessage) string { return searchSummary(tool.GrepName, input) }

// Access: the path searched, under Read rules.
func (grepTool) Access(input json.RawMessage) tool.Access {
	var in grepInput
	_ = json.Unmarshal(input, &in) // validated against the schema before
	return tool.Access{Kind: tool.AccessRead, Paths: []string{in.Path}}
}

// Run searches; for PostToolUse hooks, the tool_response is GrepOutput.
func (t grepTool) Run(ctx context.Context, call tool.Call) (tool.Output, error) {
	if t.a == nil {
		return tool.Output{}, errUnbound(call)
	}
	out, err := t.a.Grep(ctx, call)
	return responding(call, out, err, func() any {
		var in grepInput
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
	})
}

// grepResponse is GrepOutput (sdk-tools.d.ts).
type grepResponse struct {
	Mode       string   `json:"mode"`
	NumFiles   int      `json:"numFiles"`
	Filenames  []string `json:"filenames"`
	Content    *string  `json:"content,omitempty"`
	NumLines   *int     `json:"numLines,omitempty"`
	TotalFiles *int     `json:"totalFiles,omitempty"`
	TotalLines *int     `json:"totalLines,omitempty"`
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
		if !tool.IsTrue(in[f.flag]) {
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
	if tool.IsTrue(in["-r"]) {
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
	in, ok := tool.DecodeObject(input)
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

// Grep searches with ripgrep when it is on the worker's PATH, as Claude Code does,
// and with package search's Go engine otherwise; both print Claude Code's text.
// The output goes through size control as it is written, so head_limit 0 over a
// million matches is persisted, never held.
func (a *Activities) Grep(ctx context.Context, call tool.Call) (tool.Output, error) {
	var in grepInput
	if err := json.Unmarshal(call.Input, &in); err != nil {
		return tool.Output{}, badCall(call, err)
	}
	stop := keepAlive(ctx, call.ToolUseID, nil)
	defer stop()
	path, failed := a.persistedHere(resolve(call.Workdir, in.Path)) // persisted_fetch.go
	if failed != "" {
		return errorOutput("%s", failed)
	}
	st, err := os.Stat(path)
	if err != nil {
		if errors.Is(err, syscall.ENOTDIR) {
			return errorOutput("%s", nodeError("stat", path, err)) // a path through a file, as Claude Code says it
		}
		return errorOutput("Path does not exist: %s. Note: your current working directory is %s.%s", in.Path, call.Workdir, workdirHint(call.Workdir, path))
	}
	if msg := deniedRead(call, "search", path); msg != "" { // deny_read.go
		return useErrorOutput("%s", msg)
	}
	if !st.IsDir() && !st.Mode().IsRegular() {
		return useErrorOutput("%s", notRegularMessage("Grep", path, st.Mode())) // not_regular.go
	}
	_, hide, err := searchScope(call)
	if err != nil {
		return tool.Output{}, temporal.NewApplicationErrorWithOptions("grep: "+err.Error(), contract.ErrInfrastructure, temporal.ApplicationErrorOptions{NonRetryable: true})
	}
	req := grepRequest(in, call.Workdir, path)
	req.Hide = hide
	req.Rg, _ = exec.LookPath("rg") // "" without rg: the Go engine
	sw := persistence.NewSpillWriter(a.store, safeName(call.SessionID), call.ToolUseID, false, a.threshold(call))
	err = search.Grep(ctx, req, sw)
	if errors.Is(err, search.ErrRgBlockedOnFIFO) && ctx.Err() == nil {
		// An ignore file that is a FIFO stops rg (search/rg_fifo.go): the Go engine
		// gives the same output and skips it.
		sw.Abort()
		req.Rg = ""
		sw = persistence.NewSpillWriter(a.store, safeName(call.SessionID), call.ToolUseID, false, a.threshold(call))
		err = search.Grep(ctx, req, sw)
	}
	var rejected *search.RejectedError
	switch {
	case ctx.Err() != nil:
		sw.Abort()
		return tool.Output{}, ctx.Err()
	case errors.As(err, &rejected):
		sw.Abort()
		return errorOutput("%s", rejected.Error())
	case err != nil:
		sw.Abort()
		return tool.Output{}, fmt.Errorf("grep: %w", err)
	}
	out, err := sw.Finish()
	if err != nil {
		return tool.Output{}, fmt.Errorf("grep: %w", err)
	}
	a.notePersist(call, out)
	return tool.Output{Content: out.Content}, nil
}

// grepRequest gives the input's fields Claude Code's meaning: -n on by default,
// head_limit 250 by default and 0 for all, context (or -C) for both sides,
// overriding -A and -B.
func grepRequest(in grepInput, workdir, path string) search.GrepRequest {
	req := search.GrepRequest{
		Workdir: workdir, Path: path, Pattern: in.Pattern, Glob: in.Glob, Type: in.Type, Mode: in.OutputMode,
		CaseInsensitive: in.CaseInsensitive, LineNumbers: in.LineNumbers == nil || *in.LineNumbers,
		OnlyMatching: in.OnlyMatching, Multiline: in.Multiline, HeadLimit: search.GrepHeadLimit,
	}
	if in.HeadLimit != nil {
		req.HeadLimit = *in.HeadLimit
	}
	if in.Offset != nil {
		req.Offset = *in.Offset
	}
	// context (or its alias -C) wins over -A and -B, as in Claude Code.
	switch around := cmp.Or(in.Context, in.C); {
	case around != nil:
		req.Before, req.After = *around, *around
	default:
		if in.Before != nil {
			req.Before = *in.Before
		}
		if in.After != nil {
			req.After = *in.After
		}
	}
	return req
}
