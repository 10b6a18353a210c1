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
	"github.com/toolpipe/toolpipe/internal/blobstore"
	"github.com/toolpipe/toolpipe/tool"
)

// Issue 26 item 5: once the store holds placement generation 2 of a session, a
// host's tool call of generation 1 is refused before it runs (typed Fenced, naming
// the new host), while generation 2's runs; so do checkpoint captures. An unplaced
// call (generation 0) is never fenced.
func TestCallsOfAPlacementTheSessionLeftAreRefused(t *testing.T) {
	store := sharedStore(t)
	a, err := New(Config{StateDir: t.TempDir(), Blob: store})
	if err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	bash := a.fenced(a.Bash)
	call := func(gen int, file string) (tool.Output, error) {
		return bash(context.Background(), tool.Call{SessionID: "s", ToolUseID: "toolu_" + file, Name: tool.BashName, Workdir: work,
			Generation: gen, Input: []byte(`{"command":"touch ` + file + `"}`)})
	}
	if _, err := call(1, "before"); err != nil {
		t.Fatalf("generation 1 before any move: %v", err)
	}
	k, _ := blobstore.PlacementKey("s", 2)
	if err := store.Put(context.Background(), k, []byte(`{"host":"host-b","generation":2}`), blobstore.Exclusive); err != nil {
		t.Fatal(err)
	}
	_, err = call(1, "stale")
	var ae *temporal.ApplicationError
	if !errors.As(err, &ae) || ae.Type() != contract.ErrFenced || !ae.NonRetryable() || !strings.Contains(ae.Message(), "host host-b") {
		t.Fatalf("a call of generation 1 after the move: %v", err)
	}
	if _, err := os.Stat(filepath.Join(work, "stale")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the fenced call ran: %v", err)
	}
	for _, gen := range []int{2, 0} {
		if _, err := call(gen, "ok"); err != nil {
			t.Errorf("generation %d: %v", gen, err)
		}
	}
	if _, err := a.CaptureCheckpoint(context.Background(), contract.CaptureRequest{SessionID: "s", Workdir: work, Generation: 1}); !errors.As(err, &ae) || ae.Type() != contract.ErrFenced {
		t.Errorf("a capture of generation 1: %v", err)
	}
}
