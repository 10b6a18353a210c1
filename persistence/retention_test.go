package persistence

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestSweepFollowsRetention: a session with no workflow left in history and nothing
// new for a retention period goes, whole; a live session, a recent one and payloads
// a workflow in history may reference stay.
func TestSweepFollowsRetention(t *testing.T) {
	state := t.TempDir()
	now := time.Now()
	old := now.Add(-72 * time.Hour)
	file := func(rel string, mtime time.Time) string {
		p := filepath.Join(state, rel)
		os.MkdirAll(filepath.Dir(p), 0o700)
		if err := os.WriteFile(p, []byte("0123456789"), 0o600); err != nil {
			t.Fatal(err)
		}
		// The file and the directories made for it, as they would be after so long.
		for d := p; d != state; d = filepath.Dir(d) {
			if err := os.Chtimes(d, mtime, mtime); err != nil {
				t.Fatal(err)
			}
		}
		return p
	}
	gone := file("gone/tool-results/toolu_1.txt", old)
	file("gone/conversation/000001.json", old)
	live := file("live/tool-results/toolu_2.txt", old)
	recent := file("recent/tool-results/toolu_3.txt", now.Add(-time.Hour))
	oldPayload := file("payloads/aaaa", old)
	usedPayload := file("payloads/bbbb", now.Add(-30*time.Hour))
	file("queues/x.lock", old)
	file("workers/1-abc/owner.json", old)
	// The blob store's shared objects and a host's checkpoint cache are no sessions.
	ckObj := file("checkpoints/objects/ab/cdef", old)
	ckCache := file("cache/checkpoints/0123/index", old)

	p := SweepPolicy{Now: now, Retention: 24 * time.Hour, LiveSessions: map[string]bool{"live": true},
		OldestStart: now.Add(-48 * time.Hour)}
	dry := p
	dry.DryRun = true
	rep, err := Sweep(state, dry)
	if err != nil || len(rep.Sessions) != 1 || rep.Payloads != 1 {
		t.Fatalf("dry run: %+v %v", rep, err)
	}
	if _, err := os.Stat(gone); err != nil {
		t.Fatal("a dry run removed a file")
	}
	rep, err = Sweep(state, p)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Sessions) != 1 || rep.Sessions[0] != "gone" || rep.Payloads != 1 || rep.Bytes != 30 {
		t.Errorf("report %+v, want session gone, 1 payload, 30 bytes", rep)
	}
	for _, p := range []string{gone, oldPayload} {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("%s is still there", p)
		}
	}
	for _, p := range []string{live, recent, usedPayload, filepath.Join(state, "queues", "x.lock"), filepath.Join(state, "workers", "1-abc", "owner.json"), ckObj, ckCache} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s was removed: %v", p, err)
		}
	}
	if _, err := Sweep(state, SweepPolicy{Now: now}); err == nil {
		t.Error("a sweep without a retention ran")
	}
}
