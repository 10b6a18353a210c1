package plugin

import (
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/toolpipe/toolpipe/internal/statedir"
)

// The command name may hold spaces and parentheses: fields count after its last ')'.
func TestParseProcStat(t *testing.T) {
	line := "4242 (we ird) (x) S 1 4240 4240 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 1 0 987654 1000 10\n"
	st, err := parseProcStat(line)
	if err != nil {
		t.Fatal(err)
	}
	if st.pgrp != 4240 || st.start != 987654 {
		t.Fatalf("parsed %+v, want pgrp 4240 and start 987654", st)
	}
	if _, err := parseProcStat("4242 (short) S 1 2"); err == nil {
		t.Fatal("a truncated stat line parsed without error")
	}
}

// A recorded group whose leader's start time differs is another process's (the pid
// was reused): the sweep leaves it alone. The recorded one is killed.
func TestKillGroupChecksLeaderStart(t *testing.T) {
	cmd := exec.Command("sleep", "300")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := cmd.Process.Pid
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	t.Cleanup(func() { _ = syscall.Kill(-pid, syscall.SIGKILL); <-exited })
	st, err := readProcStat(pid)
	if err != nil {
		t.Fatal(err)
	}
	if n := killGroup(group{PGID: pid, Start: st.start + 1}); n != 0 {
		t.Fatalf("killGroup with another start time found %d processes, want it to leave the group alone", n)
	}
	select {
	case <-exited:
		t.Fatal("the group was killed although its leader's start time differs from the record")
	default:
	}
	if n := killGroup(group{PGID: pid, Start: st.start}); n != 1 {
		t.Fatalf("killGroup found %d processes, want 1", n)
	}
	<-exited
	if ws := cmd.ProcessState.Sys().(syscall.WaitStatus); !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("the group's leader ended with %v, want SIGKILL", cmd.ProcessState)
	}
}

// On a file system without flock (ENOLCK on NFSv3, EOPNOTSUPP on some FUSE), the
// worker starts without liveness records instead of failing, and leaves no
// half-made directory; any other lock error still fails its start.
func TestLivenessWithoutFileLocks(t *testing.T) {
	for _, errno := range []syscall.Errno{syscall.ENOLCK, syscall.EOPNOTSUPP} {
		t.Run(errno.Error(), func(t *testing.T) {
			orig := flock
			t.Cleanup(func() { flock = orig })
			flock = func(int, int) error { return errno }
			state := t.TempDir()
			live, err := openLiveness(state, "q", nil, nil)
			if err != nil || live != nil {
				t.Fatalf("openLiveness = %v, %v; want nil, nil (run without records)", live, err)
			}
			if entries, _ := os.ReadDir(filepath.Join(statedir.Dir(state).Workers())); len(entries) != 0 {
				t.Fatalf("workers/ holds %d entries, want none", len(entries))
			}
		})
	}
	orig := flock
	t.Cleanup(func() { flock = orig })
	flock = func(int, int) error { return syscall.EIO }
	if live, err := openLiveness(t.TempDir(), "q", nil, nil); err == nil || live != nil {
		t.Fatalf("openLiveness with EIO = %v, %v; want an error", live, err)
	}
}
