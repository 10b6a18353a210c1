package activities

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/toolpipe/toolpipe/internal/safefile"
)

// notRegularMessage is what the model is told when a file tool's path names a FIFO,
// a device or a socket: the call is refused at once (internal/safefile), since a
// FIFO would block it for ever and a device could never end.
func notRegularMessage(tool, path string, mode fs.FileMode) string {
	kind := safefile.Kind(mode)
	switch tool {
	case "Read":
		return fmt.Sprintf("Cannot read %s: it is %s, not a regular file. Read reads regular files only: a FIFO, a device or a socket can block for ever or never end. To read from it anyway, use Bash with a timeout and a size limit, such as `timeout 5 head -c 100000 %s`.", path, kind, path)
	case "Grep":
		return fmt.Sprintf("Cannot search %s: it is %s, not a regular file or a directory. Grep searches regular files only: a FIFO, a device or a socket can block for ever or never end.", path, kind)
	}
	return fmt.Sprintf("Cannot change %s: it is %s, not a regular file. %s changes regular files only.", path, kind, tool)
}

// notRegular reports the mode of err's path when err says it is not a regular
// file (safefile), for the message above.
func notRegular(err error) (fs.FileMode, bool) {
	var nr *safefile.NotRegularError
	if errors.As(err, &nr) {
		return nr.Mode, true
	}
	return 0, false
}
