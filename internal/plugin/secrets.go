package plugin

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"syscall"

	"github.com/toolpipe/toolpipe/toolenv"
)

// secretsFDEnv names the descriptor a re-executed process reads its secrets from.
const secretsFDEnv = "TOOLPIPE_SECRETS_FD"

// HideSecrets takes the process's secrets (the variables toolenv's policy keeps
// from tools: ANTHROPIC_*, TEMPORAL_API_KEY and TEMPORAL_TLS_*, OTLP headers,
// cloud and forge tokens, *_TOKEN, *_API_KEY, TOOLPIPE_SECRET_ENV…) out of its
// environment, where any process of the same user could read them in
// /proc/PID/environ or with `ps eww`: a tool's `ps eww -o args= -p $PPID` showed
// the worker's API key. It writes them to a pipe and re-executes the same binary
// (/proc/self/exe, same arguments, same process id) without them; the new image
// reads the pipe, closes it and holds them in memory (toolenv.Hold), where
// toolenv.LookupEnv finds them and no child inherits them.
//
// Call it first in main, before anything reads the environment or starts a
// goroutine that matters: the process is replaced. Its id, its parent, its
// standard streams, its process group and terminal, its arguments and its
// ignored signals stay, so signals, exit codes and Ctrl-C behave as without it,
// and nothing (a lock, a listening port) exists yet to be lost. Where the binary
// cannot be executed again, it says so on stderr and goes on with the secrets
// moved out of os.Environ() (children still do not inherit them; /proc shows them).
func HideSecrets() {
	if fd, ok := os.LookupEnv(secretsFDEnv); ok {
		os.Unsetenv(secretsFDEnv) // no child may look for it
		if err := receiveSecrets(fd); err != nil {
			fmt.Fprintf(os.Stderr, "toolpipe: warning: %s=%s: %v; the secrets of the environment are not available\n", secretsFDEnv, fd, err)
		}
		return
	}
	policy := toolenv.FromEnvironment()
	secrets := map[string]string{}
	var keep []string
	for _, kv := range os.Environ() {
		name, val, _ := strings.Cut(kv, "=")
		if policy.Secret(name) {
			secrets[name] = val
		} else {
			keep = append(keep, kv)
		}
	}
	if len(secrets) == 0 {
		return
	}
	err := reexec(secrets, keep) // returns only when it failed
	fmt.Fprintf(os.Stderr, "toolpipe: warning: could not execute this program again without its secrets in the environment (%v): "+
		"tools do not inherit them, but /proc/%d/environ still shows them\n", err, os.Getpid())
	toolenv.Hold(secrets)
	for name := range secrets {
		os.Unsetenv(name)
	}
}

// Linux's fcntl commands for a pipe's capacity (not in package syscall).
const (
	fSetPipeSz = 1031
	fGetPipeSz = 1032
)

// reexec hands secrets over a pipe to this binary executed again with env.
func reexec(secrets map[string]string, env []string) error {
	data, err := json.Marshal(secrets)
	if err != nil {
		return err
	}
	r, w, err := os.Pipe()
	if err != nil {
		return err
	}
	defer r.Close()
	defer w.Close()
	// Everything is written before the exec, so it must fit the pipe: 64 KiB by
	// default, and up to /proc/sys/fs/pipe-max-size (1 MiB) when asked.
	capacity, _, errno := syscall.Syscall(syscall.SYS_FCNTL, w.Fd(), fGetPipeSz, 0)
	if errno == 0 && int(capacity) < len(data) {
		syscall.Syscall(syscall.SYS_FCNTL, w.Fd(), fSetPipeSz, uintptr(len(data)))
		capacity, _, errno = syscall.Syscall(syscall.SYS_FCNTL, w.Fd(), fGetPipeSz, 0)
	}
	if errno != 0 || int(capacity) < len(data) {
		return fmt.Errorf("the secrets (%d bytes) do not fit a pipe", len(data))
	}
	if _, err := w.Write(data); err != nil {
		return err
	}
	w.Close()
	// A descriptor of its own above the standard streams (one of them may be closed,
	// and the pipe would take its number), without close-on-exec: it is inherited.
	fd, _, errno := syscall.Syscall(syscall.SYS_FCNTL, r.Fd(), syscall.F_DUPFD, 3)
	if errno != 0 {
		return errno
	}
	exe := "/proc/self/exe" // the running binary even when its file was replaced or removed (go run)
	if _, err := os.Stat(exe); err != nil {
		if exe, err = os.Executable(); err != nil {
			return err
		}
	}
	return syscall.Exec(exe, os.Args, append(env, secretsFDEnv+"="+strconv.Itoa(int(fd))))
}

// receiveSecrets reads the secrets reexec handed over on descriptor fd.
func receiveSecrets(fd string) error {
	n, err := strconv.Atoi(fd)
	if err != nil || n < 3 {
		return errors.New("not a descriptor this program handed over")
	}
	var st syscall.Stat_t
	if err := syscall.Fstat(n, &st); err != nil || st.Mode&syscall.S_IFMT != syscall.S_IFIFO {
		return errors.New("not a pipe this program handed over")
	}
	f := os.NewFile(uintptr(n), "secrets")
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, 16<<20))
	if err != nil {
		return err
	}
	var secrets map[string]string
	if err := json.Unmarshal(data, &secrets); err != nil {
		return fmt.Errorf("reading the secrets: %w", err)
	}
	toolenv.Hold(secrets)
	return nil
}
