package plugin

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// A dead worker takes its Bash shells with it (Pdeathsig), but not what they
// started: the shell's children (npm, a dev server, a deploy) live on in its process
// group, while the sweep tells the model the call was interrupted, and the model
// starts it again. So the worker records each process group its tools start in
// <dir>/groups/<pgid>.json, and the sweep kills the recorded groups of a dead
// worker before declaring its attempts lost. Sandboxed commands need none of it
// (bwrap --die-with-parent, own pid namespace), but recording them is harmless.

// groupsDir holds a worker directory's running process groups.
const groupsDir = "groups"

// group is one running process group: its id and its leader's start time (clock
// ticks after boot, /proc/<pid>/stat field 22), which tells the group from a
// later one that reused the number.
type group struct {
	PGID  int    `json:"pgid"`
	Start uint64 `json:"start"`
}

// GroupStarted records a tool's process group until ended is called; it is the
// activities.GroupRecorder the liveness interceptor gives every activity.
func (l *liveness) GroupStarted(pgid int) (ended func()) {
	st, err := readProcStat(pgid)
	if err != nil {
		l.log.Warn("worker: cannot record a tool's process group; if this worker dies, its children may outlive it", "pgid", pgid, "error", err)
		return func() {}
	}
	b, _ := json.Marshal(group{PGID: pgid, Start: st.start})
	path := filepath.Join(l.dir, groupsDir, strconv.Itoa(pgid)+".json")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		l.log.Warn("worker: cannot record a tool's process group; if this worker dies, its children may outlive it", "pgid", pgid, "error", err)
		return func() {}
	}
	return func() { _ = os.Remove(path) }
}

// killGroups kills the recorded process groups of a dead worker's directory
// (whose lock the caller holds) and forgets them.
func killGroups(dir string, log *slog.Logger) {
	files, err := os.ReadDir(filepath.Join(dir, groupsDir))
	if err != nil {
		return // none recorded, or a directory from before groups were
	}
	for _, f := range files {
		path := filepath.Join(dir, groupsDir, f.Name())
		var g group
		if b, err := os.ReadFile(path); err == nil && json.Unmarshal(b, &g) == nil && g.PGID > 1 {
			if n := killGroup(g); n > 0 {
				log.Info("worker: killed what a dead worker's tool left running", "pgid", g.PGID, "processes", n)
			}
		}
		_ = os.Remove(path)
	}
}

// killGroup SIGKILLs group g if it still runs, and returns how many of its
// processes it found. The leader is normally gone (Pdeathsig), but the kernel
// keeps its pid from reuse while the group has a member; a number reused since the
// group ended shows as a different process holding it, or as members started
// before the group's leader, and is left alone.
func killGroup(g group) int {
	if st, err := readProcStat(g.PGID); err == nil && st.start != g.Start {
		return 0 // the pid now names another process: the group ended
	}
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return 0
	}
	members := 0
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if st, err := readProcStat(pid); err == nil && st.pgrp == g.PGID && st.start >= g.Start {
			members++
		}
	}
	if members > 0 {
		_ = syscall.Kill(-g.PGID, syscall.SIGKILL)
	}
	return members
}

// procStat is what the sweep needs of /proc/<pid>/stat.
type procStat struct {
	pgrp  int    // field 5
	start uint64 // field 22, clock ticks after boot
}

func readProcStat(pid int) (procStat, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return procStat{}, err
	}
	return parseProcStat(string(b))
}

// parseProcStat reads a stat line; the command name (field 2) is in parentheses
// and may hold spaces and parentheses itself, so fields are counted after its last
// ')'.
func parseProcStat(s string) (procStat, error) {
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return procStat{}, fmt.Errorf("proc stat: no command name in %q", s)
	}
	f := strings.Fields(s[i+1:]) // f[0] is field 3
	if len(f) < 20 {
		return procStat{}, fmt.Errorf("proc stat: %d fields after the command name, want at least 20", len(f))
	}
	pgrp, err := strconv.Atoi(f[2])
	if err != nil {
		return procStat{}, fmt.Errorf("proc stat: pgrp %q: %w", f[2], err)
	}
	start, err := strconv.ParseUint(f[19], 10, 64)
	if err != nil {
		return procStat{}, fmt.Errorf("proc stat: start time %q: %w", f[19], err)
	}
	return procStat{pgrp: pgrp, start: start}, nil
}
