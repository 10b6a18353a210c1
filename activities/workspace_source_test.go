package activities

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.temporal.io/sdk/temporal"

	"github.com/toolpipe/toolpipe/contract"
)

// Issue 26 item 3: a repository is never cloned over a directory holding anything
// but its own clone, and a bad ref fails typed, leaving nothing behind.
func TestPrepareWorkspaceRefusesWhatItCannotClone(t *testing.T) {
	a, err := New(Config{StateDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	bare := filepath.Join(t.TempDir(), "r.git")
	if _, err := git(context.Background(), t.TempDir(), "init", "-q", "--bare", bare); err != nil {
		t.Fatal(err)
	}
	busy := t.TempDir()
	os.WriteFile(filepath.Join(busy, "mine.txt"), []byte("x"), 0o644)
	fresh := filepath.Join(t.TempDir(), "ws")
	for _, tc := range []struct {
		req  contract.PrepareRequest
		want string
	}{
		{contract.PrepareRequest{SessionID: "s", Workdir: busy, Repo: "file://" + bare}, "is not empty and is not a clone"},
		{contract.PrepareRequest{SessionID: "s", Workdir: fresh, Repo: "file://" + bare + "-missing"}, "cannot clone"},
	} {
		_, err := a.PrepareWorkspace(context.Background(), tc.req)
		var ae *temporal.ApplicationError
		if !errors.As(err, &ae) || ae.Type() != contract.ErrWorkspaceSource || !ae.NonRetryable() || !strings.Contains(ae.Message(), tc.want) {
			t.Errorf("%+v: %v", tc.req, err)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(busy, "mine.txt")); string(b) != "x" {
		t.Error("the user's file was touched")
	}
	if _, err := os.Stat(fresh); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a failed clone left %s: %v", fresh, err)
	}
	for url, want := range map[string][2]string{
		"file:///r.git@v1": {"file:///r.git", "v1"}, "git@host:org/r.git": {"git@host:org/r.git", ""}, "git@host:org/r.git@main": {"git@host:org/r.git", "main"},
	} {
		if u, r := contract.SplitRepo(url); u != want[0] || r != want[1] {
			t.Errorf("SplitRepo(%s) = %s, %s", url, u, r)
		}
	}
}
