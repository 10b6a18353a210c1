package devserver

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

const (
	lockFileName = "server.lock"
	infoFileName = "server.json"
)

// ErrStateDirInUse is matched (with errors.Is) by the error Start returns when
// another server already owns the state directory. Use errors.As with
// *StateDirInUseError to learn which process and address.
var ErrStateDirInUse = errors.New("devserver: state directory in use")

// StateDirInUseError is returned by Start when another server holds the state
// directory's lock. Opening the same SQLite file from two Temporal servers
// would corrupt their shared state, so the caller should connect to the
// running server (Info.FrontendAddress) or ask the user to stop it.
type StateDirInUseError struct {
	StateDir string
	// PID is the process holding the lock, or 0 if it could not be read.
	PID int
	// Info is what the running server advertises; zero while it is still
	// starting up or if it stopped answering.
	Info Info
}

// Error names the directory, the owner and what to do about it.
func (e *StateDirInUseError) Error() string {
	owner := "another process"
	if e.PID > 0 {
		owner = "process " + strconv.Itoa(e.PID)
	}
	if e.Info.FrontendAddress == "" {
		return fmt.Sprintf("devserver: state directory %s is in use by %s, whose server is starting or not answering; wait for it or stop it", e.StateDir, owner)
	}
	return fmt.Sprintf("devserver: state directory %s is in use by %s; use the running server at %s or stop it", e.StateDir, owner, e.Info.FrontendAddress)
}

// Is makes errors.Is(err, ErrStateDirInUse) true.
func (e *StateDirInUseError) Is(target error) bool { return target == ErrStateDirInUse }

// Info describes a running server, as advertised in <StateDir>/server.json.
type Info struct {
	// PID is the process running the server.
	PID int `json:"pid"`
	// FrontendAddress is the gRPC host:port to give SDK clients.
	FrontendAddress string `json:"frontend_address"`
	// UIAddress is the Web UI's base URL, empty when the UI is off.
	UIAddress string `json:"ui_address,omitempty"`
	// Namespace is the namespace the server was started for.
	Namespace string `json:"namespace"`
	// StartedAt is when the server became ready, in UTC.
	StartedAt time.Time `json:"started_at"`
}

// Running reports the server that currently owns stateDir, if any, so that a
// second process can use it instead of starting its own. It answers true only
// when the lock is held, server.json names the lock holder, and the frontend
// accepts TCP connections; a server.json left behind by a crash is ignored
// because the kernel releases the lock of a dead process.
func Running(stateDir string) (Info, bool) {
	f, err := os.Open(filepath.Join(stateDir, lockFileName))
	if err != nil {
		return Info{}, false
	}
	defer f.Close()
	// A shared lock is enough to learn whether an exclusive one is held, and
	// concurrent probes do not trip over each other.
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB); err == nil {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		return Info{}, false
	}
	info, err := readInfo(stateDir)
	if err != nil || info.PID != readLockPID(f) {
		return Info{}, false
	}
	conn, err := net.DialTimeout("tcp", info.FrontendAddress, time.Second)
	if err != nil {
		return Info{}, false
	}
	_ = conn.Close()
	return info, true
}

// stateLock is the held exclusive lock on <StateDir>/server.lock.
type stateLock struct {
	f *os.File
}

// lockStateDir takes the state directory's lock without waiting for it.
// flock rather than fcntl locks: flock belongs to the open file, so a second
// Start in the same process is refused too, and the kernel drops it when the
// process dies, however it dies.
func lockStateDir(stateDir string) (*stateLock, error) {
	path := filepath.Join(stateDir, lockFileName)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("devserver: open lock file: %w", err)
	}
	// Running probes the lock with a brief shared flock; retry a few times so
	// such a probe is not mistaken for a live owner.
	for attempt := 0; ; attempt++ {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil || !errors.Is(err, syscall.EWOULDBLOCK) || attempt == 5 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if errors.Is(err, syscall.EWOULDBLOCK) {
		inUse := &StateDirInUseError{StateDir: stateDir, PID: readLockPID(f)}
		if info, ok := Running(stateDir); ok {
			inUse.Info = info
		}
		_ = f.Close()
		return nil, inUse
	}
	if err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("devserver: lock %s: %w", path, err)
	}
	// The pid goes into the lock file itself so the refusal above can name
	// the owner even before it has written server.json.
	if err := f.Truncate(0); err == nil {
		_, err = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	if err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("devserver: write lock file: %w", err)
	}
	return &stateLock{f: f}, nil
}

// release drops the lock. The file stays: deleting it would let a process
// that opened the old file lock it while a newcomer locks a fresh one.
func (l *stateLock) release() error {
	if err := l.f.Close(); err != nil {
		return fmt.Errorf("devserver: release lock: %w", err)
	}
	return nil
}

func readLockPID(f *os.File) int {
	buf := make([]byte, 32)
	n, _ := f.ReadAt(buf, 0)
	pid, err := strconv.Atoi(strings.TrimSpace(string(buf[:n])))
	if err != nil {
		return 0
	}
	return pid
}

func readInfo(stateDir string) (Info, error) {
	var info Info
	b, err := os.ReadFile(filepath.Join(stateDir, infoFileName))
	if err != nil {
		return info, fmt.Errorf("devserver: read server info: %w", err)
	}
	if err := json.Unmarshal(b, &info); err != nil {
		return info, fmt.Errorf("devserver: parse server info: %w", err)
	}
	return info, nil
}

// writeInfo replaces server.json atomically so Running never reads half of it.
func writeInfo(stateDir string, info Info) error {
	b, err := json.MarshalIndent(info, "", "  ")
	if err != nil {
		return fmt.Errorf("devserver: encode server info: %w", err)
	}
	tmp := filepath.Join(stateDir, infoFileName+".tmp")
	if err := os.WriteFile(tmp, append(b, '\n'), 0o600); err != nil {
		return fmt.Errorf("devserver: write server info: %w", err)
	}
	if err := os.Rename(tmp, filepath.Join(stateDir, infoFileName)); err != nil {
		return fmt.Errorf("devserver: write server info: %w", err)
	}
	return nil
}

func removeInfo(stateDir string) error {
	err := os.Remove(filepath.Join(stateDir, infoFileName))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("devserver: remove server info: %w", err)
	}
	return nil
}

// WaitFree blocks until no process holds the state directory's lock: the server
// that owned it has stopped or its process has died. A client of that server can
// then start one itself (worker's server keeper). It takes the lock and drops it at
// once, so a Start that follows may still lose the race to another waiter.
func WaitFree(stateDir string) error {
	f, err := os.OpenFile(filepath.Join(stateDir, lockFileName), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("devserver: open lock file: %w", err)
	}
	defer f.Close()
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	if err != nil {
		return fmt.Errorf("devserver: wait for the lock: %w", err)
	}
	return syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
}
