package safefile

import (
	"errors"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// A FIFO, a device, a socket and a directory are refused at once, naming what they
// are; a regular file (through a link too) is read.
func TestOpenRefusesWhatIsNotARegularFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	file := filepath.Join(dir, "f.txt")
	os.WriteFile(file, []byte("text"), 0o644)
	link := filepath.Join(dir, "link")
	os.Symlink(fifo, link)
	for path, kind := range map[string]string{fifo: "a FIFO (named pipe)", link: "a FIFO (named pipe)", "/dev/zero": "a character device",
		sock: "a Unix socket", dir: "a directory"} {
		_, err := ReadFile(path)
		var nr *NotRegularError
		if !errors.As(err, &nr) || !errors.Is(err, ErrNotRegular) || err.Error() != path+" is "+kind+", not a regular file" {
			t.Errorf("%s: %v", path, err)
		}
	}
	if b, err := ReadFile(file); err != nil || string(b) != "text" {
		t.Errorf("regular file: %q %v", b, err)
	}
	if _, err := ReadFile(filepath.Join(dir, "missing")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing: %v", err)
	}
}

// A FIFO that appears after the stat (the race the second check closes) is refused
// by the open itself without waiting for a writer.
func TestOpenCheckedDoesNotWaitForAWriter(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := openChecked(fifo); !errors.Is(err, ErrNotRegular) {
		t.Fatalf("openChecked: %v", err)
	}
}
