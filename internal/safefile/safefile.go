// Package safefile opens the files that tools read and change only when they are
// regular files. A FIFO with no writer blocks open(2) for ever (and a goroutine
// blocked there cannot be cancelled), a character device such as /dev/zero never
// ends, and a socket reaches another process: found where a file was expected,
// each is refused at once with an error that says what the path is.
//
// The check is made twice: a stat before the open (so nothing is opened at all in
// the usual case), and an fstat of the descriptor opened with O_NONBLOCK, so that a
// FIFO put in the file's place between the two cannot block the open either.
package safefile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// NotRegularError says that a path names something other than a regular file.
type NotRegularError struct {
	Path string
	Mode fs.FileMode
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s is %s, not a regular file", e.Path, Kind(e.Mode))
}

// ErrNotRegular matches every *NotRegularError with errors.Is.
var ErrNotRegular = errors.New("not a regular file")

// Is makes errors.Is(err, ErrNotRegular) true for a *NotRegularError.
func (e *NotRegularError) Is(target error) bool { return target == ErrNotRegular }

// Kind names a file type for people: "a FIFO (named pipe)", "a character device"…
func Kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO (named pipe)"
	case m&fs.ModeSocket != 0:
		return "a Unix socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m.IsDir():
		return "a directory"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m.IsRegular():
		return "a regular file"
	}
	return "an irregular file"
}

// Check returns a *NotRegularError unless fi describes a regular file.
func Check(path string, fi fs.FileInfo) error {
	if fi.Mode().IsRegular() {
		return nil
	}
	return &NotRegularError{Path: path, Mode: fi.Mode()}
}

// Open opens path for reading when it is a regular file (links followed). A path
// that is not is a *NotRegularError; a missing one is fs.ErrNotExist as os.Open
// reports it.
func Open(path string) (*os.File, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if err := Check(path, st); err != nil {
		return nil, err
	}
	return openChecked(path)
}

// openChecked opens path and refuses it unless the descriptor is a regular file.
// O_NONBLOCK: a FIFO swapped in since the stat opens at once instead of waiting
// for a writer (the flag changes nothing for a regular file, whose reads never
// block); O_NOCTTY: a terminal swapped in does not become ours.
func openChecked(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err == nil {
		err = Check(path, st)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// ReadFile is os.ReadFile for regular files only.
func ReadFile(path string) ([]byte, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}
