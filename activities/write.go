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

	"github.com/toolpipe/toolpipe/tool"
)

// NotReadMessage is the error for changing an existing file the session never read:
// the model must see the current content before it overwrites it (Claude Code's rule).
const NotReadMessage = "File has not been read yet. Read it first before writing to it."

// freshNote ends Write and Edit results, as in Claude Code: the model knows the file
// as it now is.
const freshNote = " (file state is current in your context — no need to Read it back)"

// Write creates or overwrites a file. Overwriting requires a prior Read. A relative
// path is taken from the working directory; results name the path as given.
func (a *Activities) Write(ctx context.Context, call tool.Call) (tool.Output, error) {
	var in tool.WriteInput
	if err := json.Unmarshal(call.Input, &in); err != nil {
		return tool.Output{}, badCall(call, err)
	}
	path := resolve(call.Workdir, in.FilePath)
	st, err := os.Stat(path)
	exists := err == nil
	switch {
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		return errorOutput("%v", err)
	case exists && st.IsDir():
		return useErrorOutput("%s is a directory, not a file. To create a file inside it, include the file name in file_path.", in.FilePath)
	case exists && !wasRead(call, path):
		return useErrorOutput("%s", NotReadMessage)
	}
	if err := writeFileAtomic(path, []byte(in.Content)); err != nil {
		return errorOutput("%v", err)
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
// leaves a half-written file, and keeps an existing file's mode.
func writeFileAtomic(path string, data []byte) error {
	mode := fs.FileMode(0o644)
	if st, err := os.Stat(path); err == nil {
		mode = st.Mode().Perm()
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".toolpipe-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
