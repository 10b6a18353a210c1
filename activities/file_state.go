package activities

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"syscall"

	"github.com/toolpipe/toolpipe/tool"
)

// What the session has seen of the files Edit and Write change, and how their
// failures are told, in Claude Code's words.

// isPartial: the session's last Read of path left lines out.
func isPartial(call tool.Call, path string) bool { return slices.Contains(call.PartialFiles, path) }

// partialAfter is the modifier's PartialFiles for a call that changed path: an
// edit shows the model no more of the file than it had seen.
func partialAfter(call tool.Call, path string) []string {
	if isPartial(call, path) {
		return []string{path}
	}
	return nil
}

// errIsDir is reading a directory as a file.
var errIsDir = syscall.EISDIR

// fileToolError is the result for a file operation that failed, as Claude Code
// reports Node's errors: "Error calling tool (Edit): ENOTDIR: not a directory,
// stat '/a/f.txt/x'", wrapped as a failure that changed nothing.
func fileToolError(toolName, path string, err error) (tool.Output, error) {
	return useErrorOutput("Error calling tool (%s): %s", toolName, nodeError("stat", path, err))
}

// nodeError words err as Node does: its code, its description, the call (op:
// "stat", "open") and the path.
func nodeError(op, path string, err error) string {
	var errno syscall.Errno
	if !errors.As(err, &errno) {
		return err.Error()
	}
	switch errno {
	case syscall.EISDIR:
		return "EISDIR: illegal operation on a directory, read"
	case syscall.ENOTDIR:
		return fmt.Sprintf("ENOTDIR: not a directory, %s '%s'", op, path)
	case syscall.EACCES:
		return fmt.Sprintf("EACCES: permission denied, open '%s'", path)
	case syscall.ENAMETOOLONG:
		return fmt.Sprintf("ENAMETOOLONG: name too long, stat '%s'", path)
	case syscall.EROFS:
		return fmt.Sprintf("EROFS: read-only file system, open '%s'", path)
	case syscall.ENOSPC:
		return fmt.Sprintf("ENOSPC: no space left on device, write")
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Sprintf("%s, %s '%s'", errno.Error(), pe.Op, path)
	}
	return errno.Error()
}
