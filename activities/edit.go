package activities

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/toolpipe/toolpipe/internal/safefile"
	"github.com/toolpipe/toolpipe/tool"
)

// Edit replaces old_string with new_string in a file that was Read. old_string must
// occur exactly once unless replace_all; an empty old_string creates a new file. Its
// texts are Claude Code's; refusals that change nothing are wrapped as its input
// checks are.
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
	done := fmt.Sprintf("The file %s has been updated successfully.%s", in.FilePath, freshNote)
	data, err := safefile.ReadFile(path) // a FIFO or a device is refused, never waited on
	if mode, ok := notRegular(err); ok {
		return useErrorOutput("%s", notRegularMessage("Edit", in.FilePath, mode)) // not_regular.go
	}
	if errors.Is(err, fs.ErrNotExist) {
		if in.OldString != "" {
			return useErrorOutput("File does not exist. Note: your current working directory is %s.", call.Workdir)
		}
		if err := writeFileAtomic(path, []byte(in.NewString)); err != nil {
			return errorOutput("%v", err)
		}
		return tool.Output{Content: done, Modifier: mod}, nil
	}
	if err != nil {
		return errorOutput("%v", err)
	}
	if in.OldString == "" {
		return useErrorOutput("Cannot create new file - file already exists.")
	}
	if !wasRead(call, path) {
		return useErrorOutput("%s", NotReadMessage)
	}
	text := string(data)
	n := strings.Count(text, in.OldString)
	switch {
	case n == 0:
		return useErrorOutput("String to replace not found in file.\nString: %s", in.OldString)
	case n > 1 && !in.ReplaceAll:
		return useErrorOutput("Found %d matches of the string to replace, but replace_all is false. To replace all occurrences, set replace_all to true. To replace only one occurrence, please provide more context to uniquely identify the instance.\nString: %s", n, in.OldString)
	}
	replaced := 1
	if in.ReplaceAll {
		replaced = n
		done = fmt.Sprintf("The file %s has been updated. All occurrences were successfully replaced.%s", in.FilePath, freshNote)
	}
	text = strings.Replace(text, in.OldString, in.NewString, replaced)
	if err := writeFileAtomic(path, []byte(text)); err != nil {
		return errorOutput("%v", err)
	}
	return tool.Output{Content: done, Modifier: mod}, nil
}
