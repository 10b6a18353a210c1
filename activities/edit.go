package activities

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/toolpipe/toolpipe/tool"
)

// Edit replaces old_string with new_string in a file that was Read. old_string must
// occur exactly once unless replace_all; an empty old_string creates a new file.
func (a *Activities) Edit(ctx context.Context, call tool.Call) (tool.Output, error) {
	var in tool.EditInput
	if err := json.Unmarshal(call.Input, &in); err != nil {
		return tool.Output{}, badCall(call, err)
	}
	path := filepath.Clean(in.FilePath)
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		if in.OldString != "" {
			return errorOutput("File does not exist: %s", path)
		}
		if err := writeFileAtomic(path, []byte(in.NewString)); err != nil {
			return errorOutput("Cannot create %s: %v", path, err)
		}
		return tool.Output{Content: "File created successfully at: " + path, Modifier: &tool.Modifier{ReadFiles: []string{path}}}, nil
	}
	if err != nil {
		return errorOutput("Cannot read %s: %v", path, err)
	}
	if !wasRead(call, path) {
		return errorOutput("%s", NotReadMessage)
	}
	if in.OldString == "" {
		return errorOutput("%s already exists; old_string must not be empty when editing an existing file", path)
	}
	text := string(data)
	n := strings.Count(text, in.OldString)
	switch {
	case n == 0:
		return errorOutput("String to replace not found in file.\nString: %s", in.OldString)
	case n > 1 && !in.ReplaceAll:
		return errorOutput("Found %d matches of the string to replace, but replace_all is false. To replace all occurrences, set replace_all to true. To replace only one occurrence, please provide more context to uniquely identify the instance.\nString: %s", n, in.OldString)
	}
	replaced := 1
	if in.ReplaceAll {
		replaced = n
	}
	text = strings.Replace(text, in.OldString, in.NewString, replaced)
	if err := writeFileAtomic(path, []byte(text)); err != nil {
		return errorOutput("Cannot write %s: %v", path, err)
	}
	return tool.Output{
		Content:  fmt.Sprintf("The file %s has been updated successfully (%d replacement(s)).", path, replaced),
		Modifier: &tool.Modifier{ReadFiles: []string{path}},
	}, nil
}
