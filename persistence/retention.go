package persistence

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/toolpipe/toolpipe/internal/blobstore"
)

// Retention: what toolpipe keeps in the state directory (persisted outputs under
// <session>/tool-results/, conversations under <session>/conversation/, Bash
// scratch files, payloads under payloads/) is referenced from workflow histories,
// so it is kept exactly as long as a history that can reference it: the namespace's
// workflow retention decides. Sweep removes
//   - a session's directory when no workflow of that session is left in history
//     (open, or closed within retention) and nothing in it changed for a whole
//     retention period (a session being created now is left alone);
//   - a payload not stored or re-used since before the oldest workflow still in
//     history started: every history that referenced it is gone (a payload is
//     touched whenever it is stored again, PayloadDriver.write).

// SweepPolicy says what is still referenced.
type SweepPolicy struct {
	// Now is the current time.
	Now time.Time
	// Retention is the namespace's workflow execution retention.
	Retention time.Duration
	// LiveSessions are the sessions with a workflow still in history.
	LiveSessions map[string]bool
	// OldestStart is the start time of the oldest workflow still in history; zero
	// when there is none.
	OldestStart time.Time
	// DryRun counts what would be removed and removes nothing.
	DryRun bool
}

// SweepReport is what Sweep removed (or would remove).
type SweepReport struct {
	Sessions []string
	Payloads int
	Bytes    int64
}

// reserved are the state directory's entries that are not sessions
// (blobstore.Reserved: payloads/ and checkpoints/ are the blob store's shared
// objects, workers/ and queues/ hold the live workers' locks and running records,
// worker/lost.go, cache/ a host's checkpoint indexes).
var reserved = func() map[string]bool {
	m := map[string]bool{}
	for _, n := range blobstore.Reserved {
		m[n] = true
	}
	return m
}()

// Sweep removes from stateDir what no workflow in history can reference.
func Sweep(stateDir string, p SweepPolicy) (SweepReport, error) {
	var rep SweepReport
	if p.Retention <= 0 {
		return rep, errors.New("persist: sweep: the namespace's retention is unknown")
	}
	cutoff := p.Now.Add(-p.Retention)
	entries, err := os.ReadDir(stateDir)
	if err != nil {
		return rep, fmt.Errorf("persist: sweep: %w", err)
	}
	for _, e := range entries {
		if !e.IsDir() || reserved[e.Name()] || p.LiveSessions[e.Name()] || validateName("session", e.Name()) != nil {
			continue
		}
		dir := filepath.Join(stateDir, e.Name())
		newest, size := walkNewest(dir)
		if newest.After(cutoff) {
			continue
		}
		rep.Sessions = append(rep.Sessions, e.Name())
		rep.Bytes += size
		if !p.DryRun {
			if err := os.RemoveAll(dir); err != nil {
				return rep, fmt.Errorf("persist: sweep session %s: %w", e.Name(), err)
			}
		}
	}
	before := cutoff
	if !p.OldestStart.IsZero() && p.OldestStart.Before(before) {
		before = p.OldestStart
	}
	payloads, err := os.ReadDir(filepath.Join(stateDir, "payloads"))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return rep, fmt.Errorf("persist: sweep payloads: %w", err)
	}
	for _, e := range payloads {
		info, err := e.Info()
		if err != nil || !info.Mode().IsRegular() || !info.ModTime().Before(before) {
			continue
		}
		rep.Payloads++
		rep.Bytes += info.Size()
		if !p.DryRun {
			_ = os.Remove(filepath.Join(stateDir, "payloads", e.Name()))
		}
	}
	return rep, nil
}

// walkNewest returns the newest modification time under dir and the total size.
func walkNewest(dir string) (time.Time, int64) {
	var newest time.Time
	var size int64
	_ = filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		if info.ModTime().After(newest) {
			newest = info.ModTime()
		}
		if info.Mode().IsRegular() {
			size += info.Size()
		}
		return nil
	})
	return newest, size
}
