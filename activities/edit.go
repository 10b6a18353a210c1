package activities

import (
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

// Edit replaces old_string with new_string in a file that was Read. old_string must
// occur exactly once unless replace_all; an empty old_string creates a new file, or
// fills one that is empty. Matching and writing back are Claude Code's (textfile.go,
// edit_match.go): CRLF files match LF strings and stay CRLF, the file keeps its
// encoding and byte-order mark, straight quotes match curly ones. Its texts are
// Claude Code's; refusals that change nothing are wrapped as its input checks are.
func (a *Activities) Edit(ctx context.Context, call tool.Call) (tool.Output, error) {
	var in tool.EditInput
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
func applyEdit(text, path string, in tool.EditInput) (string, string) {
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
func editDone(in tool.EditInput, call tool.Call, path string, existed bool) string {
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
