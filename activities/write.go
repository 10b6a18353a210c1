package activities

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/toolpipe/toolpipe/tool"
)

// writeTool is Write: a whole file, created or replaced.
type writeTool struct {
	tool.Base
	a *Activities // nil in Builtins: its declaration only
}

func (writeTool) Spec() tool.Spec {
	return tool.Spec{Name: tool.WriteName, Description: writeDescription, InputSchema: writeSchema,
		Interrupt: tool.InterruptBlock, MaxInputBytes: maxContentInputBytes, TooBigHint: contentTooBigHint,
		Builtin: true, Coerce: true, RepairIfValid: true}
}

const writeDescription = `Writes a file with the given content, creating it (and its missing parent directories) or replacing everything in it.

- file_path should be an absolute path.
- An existing file must have been Read in this conversation first; Write refuses it otherwise, so that nothing you have not seen is overwritten.
- To change part of an existing file use Edit, which sends only the change; use Write for new files and for rewriting a file completely.
- Content is at most 16 MB; generate larger files with a command or a script.
- Do not create documentation or README files unless the user asked for them.`

const writeSchema = `{
  "type": "object",
  "properties": {
    "file_path": {"type": "string", "description": "The absolute path to the file to write"},
    "content": {"type": "string", "description": "The content to write to the file"}
  },
  "required": ["file_path", "content"],
  "additionalProperties": false
}`

// writeInput is the input of Write.
type writeInput struct {
	FilePath string `json:"file_path"`
	Content  string `json:"content"`
}

// RepairInput: Claude Code 2.1.328's renames (its FileWrite coerceInput), kept only
// when they make the input valid.
func (writeTool) RepairInput(in map[string]any) (string, bool) { return repairWrite(in) }

// Summary: the path.
func (t writeTool) Summary(input json.RawMessage) string {
	return tool.Title(tool.WriteName, tool.Code(t.Subject(input), true))
}

// Access: the file, under Edit rules.
func (writeTool) Access(input json.RawMessage) tool.Access {
	return tool.Access{Kind: tool.AccessEdit, Paths: []string{filePath(input)}}
}

// HookResponse names the file when the call's Output carries no FileWriteOutput.
func (writeTool) HookResponse(input json.RawMessage, _ string) any {
	return map[string]any{"filePath": filePath(input)}
}

// Run writes the file; for PostToolUse hooks, the tool_response is FileWriteOutput.
func (t writeTool) Run(ctx context.Context, call tool.Call) (tool.Output, error) {
	if t.a == nil {
		return tool.Output{}, errUnbound(call)
	}
	var original *string // what the file held before, for the response
	if call.Response {
		original = fileText(call)
	}
	out, err := t.a.limited(t.a.Write)(ctx, call)
	return responding(call, out, err, func() any {
		var in writeInput
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
	})
}

// writeResponse is FileWriteOutput (sdk-tools.d.ts).
type writeResponse struct {
	Type            string  `json:"type"`
	FilePath        string  `json:"filePath"`
	Content         string  `json:"content"`
	StructuredPatch []hunk  `json:"structuredPatch"`
	OriginalFile    *string `json:"originalFile"`
	UserModified    bool    `json:"userModified"`
}

// writeContentNames are what models call Write's content; the first two are read
// as content, all are dropped when they repeat it.
var writeContentNames = []string{"file_text", "file_content", "new_text", "body", "text", "contents"}

// repairWrite: `path` for `file_path`, `file_text` or `file_content` for
// `content`, and a `description` or `command: "create"` (dropped); a parameter
// that repeats file_path or content is dropped. The note says what was read how.
func repairWrite(in map[string]any) (string, bool) {
	var notes []string
	if tool.Renamed(in, "path", "file_path") {
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
	if tool.Dropped(in, "description") {
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

// NotReadMessage is the error for changing an existing file the session never read:
// the model must see the current content before it overwrites it (Claude Code's rule).
const NotReadMessage = "File has not been read yet. Read it first before writing to it."

// freshNote ends Write and Edit results, as in Claude Code: the model knows the file
// as it now is.
const freshNote = " (file state is current in your context — no need to Read it back)"

// Write creates or overwrites a file. Overwriting requires a prior Read. A relative
// path is taken from the working directory; results name the path as given. As in
// Claude Code, the content loses its lines' trailing whitespace (but in Markdown)
// and an existing file keeps its encoding and byte-order mark (textfile.go); a file
// that is not text the tools can write back is refused.
func (a *Activities) Write(ctx context.Context, call tool.Call) (tool.Output, error) {
	var in writeInput
	if err := json.Unmarshal(call.Input, &in); err != nil {
		return tool.Output{}, badCall(call, err)
	}
	path := resolve(call.Workdir, in.FilePath)
	if msg := deniedRead(call, "write", path); msg != "" { // deny_read.go
		return useErrorOutput("%s", msg)
	}
	st, err := os.Stat(path)
	exists := err == nil
	switch {
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return fileToolError(tool.WriteName, path, err)
	case exists && st.IsDir():
		return useErrorOutput("%s is a directory, not a file. To create a file inside it, include the file name in file_path.", in.FilePath)
	case exists && !st.Mode().IsRegular():
		return useErrorOutput("%s", notRegularMessage("Write", in.FilePath, st.Mode())) // not_regular.go
	case exists && !wasRead(call, path):
		return useErrorOutput("%s", NotReadMessage)
	}
	content := in.Content
	if !isMarkdown(path) {
		content = stripTrailingWhitespace(content)
	}
	data := []byte(content)
	if exists {
		old, err := os.ReadFile(path)
		if err != nil {
			return fileToolError(tool.WriteName, path, err)
		}
		f := decodeText(old)
		if f.notText != "" {
			return errorOutput("%s", notTextRefusal(f.notText))
		}
		data = f.encodeAs(keepBOM(f.text, content))
	}
	if err := writeFileAtomic(path, data); err != nil {
		return fileToolError(tool.WriteName, path, err)
	}
	msg := "File created successfully at: " + in.FilePath + freshNote
	if exists {
		msg = fmt.Sprintf("The file %s has been updated successfully.%s", in.FilePath, freshNote)
	}
	return tool.Output{Content: msg, Modifier: &tool.Modifier{ReadFiles: []string{path}}}, nil
}

func wasRead(call tool.Call, path string) bool {
	_, found := slices.BinarySearch(call.ReadFiles, path)
	return found || slices.Contains(call.ReadFiles, path)
}

// writeFileAtomic writes through a temporary file and a rename, so a crash never
// leaves a half-written file, and keeps an existing file's mode. The temporary file
// is flock'ed until it is renamed, so a Write whose worker died mid-way is told
// apart from one in progress: the next write into that directory removes what a
// dead writer left (removeStaleTemps).
func writeFileAtomic(path string, data []byte) error {
	mode := fs.FileMode(0o644)
	if st, err := os.Stat(path); err == nil {
		mode = st.Mode().Perm()
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	removeStaleTemps(filepath.Dir(path))
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+tempMarker+"*")
	if err != nil {
		return err
	}
	// Closed only after the rename: the lock covers the file's whole life under
	// its temporary name.
	defer tmp.Close()
	renamed := false
	defer func() {
		if !renamed {
			os.Remove(tmp.Name())
		}
	}()
	if err := syscall.Flock(int(tmp.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		return fmt.Errorf("lock the temporary file: %w", err)
	}
	if _, err := tmp.Write(data); err != nil {
		return err
	}
	if err := tmp.Chmod(mode); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	renamed = true
	return nil
}

// tempMarker is in the name of every temporary file a Write or Edit creates.
const tempMarker = ".toolpipe-"

// removeStaleTemps removes the temporary files in dir that no live writer holds:
// those of a Write or Edit whose worker was killed before its rename.
func removeStaleTemps(dir string) {
	names, _ := filepath.Glob(filepath.Join(dir, ".*"+tempMarker+"*"))
	for _, name := range names {
		f, err := os.Open(name)
		if err != nil {
			continue
		}
		if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil {
			// Removed by name: if the writer renamed it meanwhile, the name is gone
			// and nothing is removed.
			os.Remove(name)
		}
		f.Close()
	}
}
