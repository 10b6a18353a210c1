package persistence

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/sdk/converter"

	"github.com/toolpipe/toolpipe/conversation"
	"github.com/toolpipe/toolpipe/internal/blobstore"
	"github.com/toolpipe/toolpipe/internal/s3test"
	"github.com/toolpipe/toolpipe/wire"
)

// twoHosts is one S3-compatible store and two hosts' state directories with nothing
// in common, as on a fleet without a shared disk.
func twoHosts(t *testing.T) (store *blobstore.Store, a, b string) {
	t.Helper()
	srv := s3test.Start(t)
	s, err := OpenStore(context.Background(), srv.URL(""), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, t.TempDir(), t.TempDir()
}

// TestConversationAcrossHosts: what one host's Conversations wrote, another reads
// from the store, including the records it lists, and the first message wins.
func TestConversationAcrossHosts(t *testing.T) {
	store, _, _ := twoHosts(t)
	a, b := NewConversationsIn(store), NewConversationsIn(store)
	m := conversation.Message{Role: wire.RoleUser, Content: []wire.Block{wire.TextBlock("hello")}}
	if _, err := a.WriteMessage("s1", 1, m); err != nil {
		t.Fatal(err)
	}
	other := conversation.Message{Role: wire.RoleUser, Content: []wire.Block{wire.TextBlock("other")}}
	got, err := b.WriteMessage("s1", 1, other)
	if err != nil || got.Content[0].Text != "hello" {
		t.Fatalf("second host's write = %+v, %v; want the first message kept", got, err)
	}
	if !b.HasMessage("s1", 1) || b.HasMessage("s1", 2) {
		t.Error("HasMessage on the other host is wrong")
	}
	if err := a.WriteRecords("s1", 3, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := b.ReadRecords("s1"); err != nil {
		t.Fatal(err)
	}
	if err := a.WriteHead("s1", conversation.Head{}); err != nil {
		t.Fatal(err)
	}
	if _, found, err := b.ReadHead("s1"); err != nil || !found {
		t.Fatalf("head on the other host: found %v, %v", found, err)
	}
	if _, found, err := b.ReadHead("s2"); err != nil || found {
		t.Fatalf("head of a session never stored: found %v, %v", found, err)
	}
	_, err = b.ReadMessage("s2", 1)
	if !errors.Is(err, fs.ErrNotExist) || !errors.Is(err, blobstore.ErrNotFound) || !strings.Contains(err.Error(), "s3://") {
		t.Errorf("a missing message: %v; want a not-found error naming the store", err)
	}
	if err := a.WritePartial("s1", 2, []wire.Block{wire.TextBlock("par")}); err != nil {
		t.Fatal(err)
	}
	if p, err := b.ReadPartial("s1", 2); err != nil || len(p) != 1 {
		t.Fatalf("partial on the other host: %v, %v", p, err)
	}
	if err := b.RemovePartial("s1", 2); err != nil {
		t.Fatal(err)
	}
	if p, err := a.ReadPartial("s1", 2); err != nil || p != nil {
		t.Fatalf("partial after removal: %v, %v", p, err)
	}
}

// TestToolResultAcrossHosts: a result persisted on host A is fetched by host B from
// the path A handed the model; B persisting the same id keeps A's result.
func TestToolResultAcrossHosts(t *testing.T) {
	store, dirA, dirB := twoHosts(t)
	fa, err := NewFS(Config{StateDir: dirA, Blob: store})
	if err != nil {
		t.Fatal(err)
	}
	fb, err := NewFS(Config{StateDir: dirB, Blob: store})
	if err != nil {
		t.Fatal(err)
	}
	out, err := fa.Persist("s1", "toolu_1", []byte("from host A"), false)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out.Path, dirA) {
		t.Fatalf("path %s is not in host A's state directory", out.Path)
	}
	local, ok, err := fb.Fetch(out.Path)
	if err != nil || !ok || !strings.HasPrefix(local, dirB) {
		t.Fatalf("Fetch on B = %q, %v, %v", local, ok, err)
	}
	if data, _ := os.ReadFile(local); string(data) != "from host A" {
		t.Errorf("B read %q", data)
	}
	again, err := fb.Persist("s1", "toolu_1", []byte("from host B"), false)
	if err != nil || !again.Existed || again.Preview != "from host A" {
		t.Fatalf("B's persist of the same id = %+v, %v; want A's result", again, err)
	}
	// A result B writes first on its own (its local copy missing) is A's still.
	os.RemoveAll(filepath.Join(dirB, "s1"))
	again, err = fb.Persist("s1", "toolu_1", []byte("from host B"), false)
	if err != nil || again.Preview != "from host A" {
		t.Fatalf("B's persist without a local copy = %+v, %v; want A's result", again, err)
	}
	for _, p := range []string{"/elsewhere/s1/tool-results/toolu_9.txt", "/x/s1/other/toolu_1.txt", "relative/s1/tool-results/toolu_1.txt"} {
		if _, ok, err := fb.Fetch(p); ok || err != nil {
			t.Errorf("Fetch(%s) = %v, %v; want not found", p, ok, err)
		}
	}
}

// TestReadStateAcrossHosts: read state added on one host is loaded on another.
func TestReadStateAcrossHosts(t *testing.T) {
	store, dirA, dirB := twoHosts(t)
	ra, _ := NewReadStateIn(store, dirA)
	rb, _ := NewReadStateIn(store, dirB)
	if err := ra.Add("s1", []string{"/w/a.go"}); err != nil {
		t.Fatal(err)
	}
	if err := rb.Add("s1", []string{"/w/b.go"}); err != nil {
		t.Fatal(err)
	}
	got, err := ra.Load("s1")
	if err != nil || strings.Join(got, ",") != "/w/a.go,/w/b.go" {
		t.Fatalf("Load = %v, %v", got, err)
	}
}

// TestPayloadsAcrossHosts: a payload one client stored is retrieved by another
// through the store alone.
func TestPayloadsAcrossHosts(t *testing.T) {
	store, _, _ := twoHosts(t)
	a, b := NewBlobPayloadDriver(store), NewBlobPayloadDriver(store)
	p := &commonpb.Payload{Data: []byte(strings.Repeat("x", 1000))}
	claims, err := a.Store(converter.StorageDriverStoreContext{}, []*commonpb.Payload{p})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Store(converter.StorageDriverStoreContext{}, []*commonpb.Payload{p}); err != nil {
		t.Fatalf("storing a payload again: %v", err)
	}
	got, err := b.Retrieve(converter.StorageDriverRetrieveContext{}, claims)
	if err != nil || string(got[0].Data) != string(p.Data) {
		t.Fatalf("Retrieve on the other host: %v", err)
	}
	missing := []converter.StorageDriverClaim{{ClaimData: map[string]string{payloadClaimKey: strings.Repeat("0", 64)}}}
	if _, err := b.Retrieve(converter.StorageDriverRetrieveContext{}, missing); err == nil || !strings.Contains(err.Error(), "blob-url") {
		t.Errorf("a missing payload: %v; want an error naming blob-url", err)
	}
}
