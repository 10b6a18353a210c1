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
	"syscall"

	"github.com/toolpipe/toolpipe/tool"
)

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
	var in tool.WriteInput
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
