package blobstore_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/sdk/converter"
	"google.golang.org/protobuf/proto"

	"github.com/toolpipe/toolpipe/budget"
	"github.com/toolpipe/toolpipe/contract"
	"github.com/toolpipe/toolpipe/conversation"
	"github.com/toolpipe/toolpipe/hooks"
	"github.com/toolpipe/toolpipe/internal/blobstore"
	"github.com/toolpipe/toolpipe/persistence"
	"github.com/toolpipe/toolpipe/wire"
)

// The file:// default keeps today's layout: what persistence, hooks and the
// background tasks write into a state directory is found under the scheme's keys by
// a store opened on it, byte for byte, and what the store writes is where they look.
func TestDefaultLayoutIsTodays(t *testing.T) {
	state := t.TempDir()
	s := open(t, blobstore.Config{StateDir: state})
	ctx := context.Background()
	const session = "sess-1"
	same := func(what string, k blobstore.Key, path string) {
		t.Helper()
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		got, err := s.Get(ctx, k)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("%s: the store reads %q (%v) under %s, persistence wrote %q at %s", what, got, err, k, want, path)
		}
		if p, _ := s.LocalPath(k); p != path {
			t.Fatalf("%s: LocalPath %s, written at %s", what, p, path)
		}
	}

	fs, err := persistence.NewFS(persistence.Config{StateDir: state})
	if err != nil {
		t.Fatal(err)
	}
	for _, structured := range []bool{false, true} {
		out, err := fs.Persist(session, "toolu_01", []byte("whole output"), structured)
		if err != nil {
			t.Fatal(err)
		}
		same("tool result", key(t)(blobstore.ToolResultKey(session, "toolu_01", structured)), out.Path)
	}

	conv, err := persistence.NewConversations(state)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conv.WriteMessage(session, 7, conversation.Message{Role: wire.RoleUser}); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(state, session, "conversation")
	same("message", key(t)(blobstore.MessageKey(session, 7)), filepath.Join(dir, "000007.json"))
	if err := conv.WritePartial(session, 8, []wire.Block{{Type: "text", Text: "he"}}); err != nil {
		t.Fatal(err)
	}
	same("partial message", key(t)(blobstore.PartialKey(session, 8)), filepath.Join(dir, "000008.partial.json"))
	if err := conv.WriteRecords(session, 7, []budget.Record{{ToolUseID: "toolu_01", Replacement: "r"}}); err != nil {
		t.Fatal(err)
	}
	same("records", key(t)(blobstore.RecordsKey(session, 7)), filepath.Join(dir, "records", "000007.json"))
	if err := conv.WriteHead(session, conversation.Head{}); err != nil {
		t.Fatal(err)
	}
	same("head", key(t)(blobstore.HeadKey(session)), filepath.Join(dir, "head.json"))
	// And the other way: a message the store writes is the one persistence reads.
	if err := s.Put(ctx, key(t)(blobstore.MessageKey(session, 9)), []byte(`{"role":"assistant"}`), blobstore.Exclusive); err != nil {
		t.Fatal(err)
	}
	if m, err := conv.ReadMessage(session, 9); err != nil || m.Role != wire.RoleAssistant {
		t.Fatalf("persistence reads %+v, %v from the store's message", m, err)
	}

	rs, err := persistence.NewReadState(state)
	if err != nil {
		t.Fatal(err)
	}
	if err := rs.Add(session, []string{"/w/a.go"}); err != nil {
		t.Fatal(err)
	}
	same("read state", key(t)(blobstore.ReadStateKey(session)), filepath.Join(state, session, persistence.ReadStateFile))

	tp := hooks.TranscriptPath(state, session)
	os.WriteFile(tp, []byte("{}\n"), 0o600)
	same("transcript", key(t)(blobstore.TranscriptKey(session)), tp)
	if k := key(t)(blobstore.TranscriptKey("a/b")); k.String() != filepath.Base(filepath.Dir(hooks.TranscriptPath(state, "a/b")))+"/"+hooks.TranscriptFile {
		t.Errorf("transcript of a/b: key %s, hooks use %s", k, hooks.TranscriptPath(state, "a/b"))
	}
	if k := key(t)(blobstore.TranscriptKey("")); k.String() != "default/"+hooks.TranscriptFile {
		t.Errorf("transcript of the empty session id: %s", k)
	}

	resultsDir := filepath.Dir(must(fs.Path(session, "toolu_01", false)))
	task := filepath.Join(contract.BackgroundTasksDir(resultsDir), "b7.output")
	os.MkdirAll(filepath.Dir(task), 0o700)
	os.WriteFile(task, []byte("$ sleep 1\n"), 0o600)
	same("background output", key(t)(blobstore.BackgroundOutputKey(session, "b7")), task)

	driver, err := persistence.NewPayloadDriver(filepath.Join(state, "payloads"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := converter.GetDefaultDataConverter().ToPayload(string(bytes.Repeat([]byte("x"), 200<<10)))
	if err != nil {
		t.Fatal(err)
	}
	claims, err := driver.Store(converter.StorageDriverStoreContext{}, []*commonpb.Payload{p})
	if err != nil {
		t.Fatal(err)
	}
	sum := claims[0].ClaimData["sha256"]
	pk := key(t)(blobstore.PayloadKey(sum))
	same("payload", pk, filepath.Join(state, "payloads", sum))
	data, _ := s.Get(ctx, pk)
	var back commonpb.Payload
	if err := proto.Unmarshal(data, &back); err != nil || !proto.Equal(&back, p) {
		t.Fatalf("the payload read through the store is not the one stored: %v", err)
	}

	// Every key the scheme produced parses back to its kind.
	for e, err := range s.List(ctx, "") {
		if err != nil {
			t.Fatal(err)
		}
		if _, err := blobstore.ParseKey(e.Key); err != nil && filepath.Base(e.Key) != "read-state.json.lock" {
			t.Errorf("today's file %s is not a key of the scheme: %v", e.Key, err)
		}
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
