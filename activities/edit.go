package activities

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"github.com/toolpipe/toolpipe/internal/safefile"
	"github.com/toolpipe/toolpipe/tool"
)

// editTool is Edit: old_string replaced by new_string in a file that was Read.
type editTool struct {
	tool.Base
	a *Activities // nil in Builtins: its declaration only
}

func (editTool) Spec() tool.Spec {
	return tool.Spec{Name: tool.EditName, Description: editDescription, InputSchema: editSchema,
		Interrupt: tool.InterruptBlock, MaxInputBytes: maxContentInputBytes, TooBigHint: contentTooBigHint,
		Builtin: true, Coerce: true}
}

const editDescription = `Replaces text in a file: old_string becomes new_string. old_string must occur exactly once in the file, unless replace_all is true, which replaces every occurrence.

- Read the file first in this conversation: Edit refuses a file that was not read.
- Copy old_string from what Read showed without the line-number prefix (the number and the tab before each line), keeping indentation (tabs or spaces) and line breaks exactly.
- When old_string occurs more than once, include the lines around it to make it unique, or set replace_all (to rename a variable everywhere, say). Text that is not found is an error: Read the file again, it may have changed.
- An empty old_string creates a new file whose content is new_string; it is refused when the file exists.
- file_path should be an absolute path. Prefer Edit to Write for existing files.
- Several changes to one file: make them in order, each on the file as the previous one left it. Edits run one at a time, even when sent in one message.`

const editSchema = `{
  "type": "object",
  "properties": {
    "file_path": {"type": "string", "description": "The absolute path to the file to modify"},
    "old_string": {"type": "string", "description": "The text to replace"},
    "new_string": {"type": "string", "description": "The text to replace it with"},
    "replace_all": {"type": "boolean", "description": "Replace all occurrences of old_string"}
  },
  "required": ["file_path", "old_string", "new_string"],
  "additionalProperties": false
}`

// editInput is the input of Edit.
type editInput struct {
	FilePath   string `json:"file_path"`
	OldString  string `json:"old_string"`
	NewString  string `json:"new_string"`
	ReplaceAll bool   `json:"replace_all,omitempty"`
}

// CheckInput refuses an edit that changes nothing, in Claude Code's words.
func (editTool) CheckInput(in json.RawMessage) error {
	var e editInput
	if err := json.Unmarshal(in, &e); err != nil {
		return err
	}
	if e.OldString == e.NewString {
		return fmt.Errorf("No changes to make: old_string and new_string are exactly the same.")
	}
	return nil
}

// RepairInput: Claude Code 2.1.328's renames (its FileEdit coerceInput).
func (editTool) RepairInput(in map[string]any) (string, bool) { return repairEdit(in) }

// Summary: the path.
func (t editTool) Summary(input json.RawMessage) string {
	return tool.Title(tool.EditName, tool.Code(t.Subject(input), true))
}

// Access: the file, under Edit rules.
func (editTool) Access(input json.RawMessage) tool.Access {
	return tool.Access{Kind: tool.AccessEdit, Paths: []string{filePath(input)}}
}

// HookInput has replace_all, which Claude Code's schema defaults to false before
// its hooks see the input. The input's own bytes are kept, the default appended, so
// hooks get the same text on every replay.
func (editTool) HookInput(input json.RawMessage) json.RawMessage {
	var fields map[string]json.RawMessage
	if json.Unmarshal(input, &fields) != nil {
		return input
	}
	if _, ok := fields["replace_all"]; ok {
		return input
	}
	t := bytes.TrimRight(input, " \t\r\n")
	if len(t) == 0 || t[len(t)-1] != '}' {
		return input
	}
	sep := ","
	if len(fields) == 0 {
		sep = ""
	}
	return append(append([]byte{}, t[:len(t)-1]...), sep+`"replace_all":false}`...)
}

// HookResponse names the file when the call's Output carries no FileEditOutput.
func (editTool) HookResponse(input json.RawMessage, _ string) any {
	return map[string]any{"filePath": filePath(input)}
}

// Run edits the file; for PostToolUse hooks, the tool_response is FileEditOutput.
func (t editTool) Run(ctx context.Context, call tool.Call) (tool.Output, error) {
	if t.a == nil {
		return tool.Output{}, errUnbound(call)
	}
	var original *string // what the file held before, for the response
	if call.Response {
		original = fileText(call)
	}
	out, err := t.a.limited(t.a.Edit)(ctx, call)
	return responding(call, out, err, func() any {
		var in editInput
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
	})
}

// editResponse is FileEditOutput (sdk-tools.d.ts).
type editResponse struct {
	FilePath        string  `json:"filePath"`
	OldString       string  `json:"oldString"`
	NewString       string  `json:"newString"`
	OriginalFile    *string `json:"originalFile"`
	StructuredPatch []hunk  `json:"structuredPatch"`
	UserModified    bool    `json:"userModified"`
	ReplaceAll      bool    `json:"replaceAll"`
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
		if tool.Renamed(in, a[0], a[1]) {
			changed = true
		}
	}
	return "", changed
}

// Edit replaces old_string with new_string in a file that was Read. old_string must
// occur exactly once unless replace_all; an empty old_string creates a new file, or
// fills one that is empty. Matching and writing back are Claude Code's (textfile.go,
// edit_match.go): CRLF files match LF strings and stay CRLF, the file keeps its
// encoding and byte-order mark, straight quotes match curly ones. Its texts are
// Claude Code's; refusals that change nothing are wrapped as its input checks are.
func (a *Activities) Edit(ctx context.Context, call tool.Call) (tool.Output, error) {
	var in editInput
	if err := json.Unmarshal(call.Input, &in); err != nil {
		return tool.Output{}, badCall(call, err)
	}
	path := resolve(call.Workdir, in.FilePath)
	if msg := deniedRead(call, "edit", path); msg != "" { // deny_read.go
		return useErrorOutput("%s", msg)
	}
	mod := &tool.Modifier{ReadFiles: []string{path}}
	data, err := readRegular(path) // a FIFO or a device is refused, never waited on
	if mode, ok := notRegular(err); ok {
		return useErrorOutput("%s", notRegularMessage("Edit", in.FilePath, mode)) // not_regular.go
	}
	if errors.Is(err, fs.ErrNotExist) {
		if in.OldString != "" {
			return useErrorOutput("File does not exist. Note: your current working directory is %s.", call.Workdir)
		}
		if err := writeFileAtomic(path, []byte(in.NewString)); err != nil {
			return fileToolError(tool.EditName, path, err)
		}
		return tool.Output{Content: editDone(in, call, path, false), Modifier: mod}, nil
	}
	if err != nil {
		return fileToolError(tool.EditName, path, err)
	}
	f := decodeText(data)
	if in.OldString == "" && strings.TrimFunc(f.text, isJSSpace) != "" {
		return useErrorOutput("Cannot create new file - file already exists.")
	}
	if isNotebook(path) {
		return useErrorOutput("File is a Jupyter Notebook. Use the %s to edit this file.", NotebookEditName)
	}
	if f.notText != "" {
		return useErrorOutput("%s", notTextRefusal(f.notText))
	}
	if !wasRead(call, path) {
		return useErrorOutput("%s", NotReadMessage)
	}
	text, msg := applyEdit(f.text, path, in)
	if msg != "" {
		return useErrorOutput("%s", msg)
	}
	if err := writeFileAtomic(path, f.encode(keepBOM(f.text, text))); err != nil {
		return fileToolError(tool.EditName, path, err)
	}
	mod.PartialFiles = partialAfter(call, path)
	return tool.Output{Content: editDone(in, call, path, true), Modifier: mod}, nil
}

// applyEdit is the file's text after the edit, or why there is none.
func applyEdit(text, path string, in editInput) (string, string) {
	old, new := desanitise(text, in.OldString, in.NewString)
	if !isMarkdown(path) {
		new = stripTrailingWhitespace(new)
	}
	if old == "" {
		return new, "" // an empty file filled
	}
	actual, ok := findActual(text, old)
	if !ok {
		return "", "String to replace not found in file.\nString: " + in.OldString
	}
	if n := strings.Count(text, actual); n > 1 && !in.ReplaceAll {
		return "", fmt.Sprintf("Found %d matches of the string to replace, but replace_all is false. To replace all occurrences, set replace_all to true. To replace only one occurrence, please provide more context to uniquely identify the instance.\nString: %s", n, actual)
	}
	return replaceIn(text, actual, styleNew(old, actual, new), in.ReplaceAll), ""
}

// editDone is Edit's result. It says the model's view of the file is current
// unless the model saw only part of the file before.
func editDone(in editInput, call tool.Call, path string, existed bool) string {
	done := fmt.Sprintf("The file %s has been updated successfully.", in.FilePath)
	if in.ReplaceAll && existed && in.OldString != "" {
		done = fmt.Sprintf("The file %s has been updated. All occurrences were successfully replaced.", in.FilePath)
	}
	if existed && isPartial(call, path) {
		return done
	}
	return done + freshNote
}

// readRegular reads a file, failing for a directory as reading one does.
func readRegular(path string) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if st.IsDir() {
		return nil, &fs.PathError{Op: "read", Path: path, Err: errIsDir}
	}
	return safefile.ReadFile(path)
}
