package activities

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/testsuite"

	"github.com/toolpipe/toolpipe/contract"
	"github.com/toolpipe/toolpipe/conversation"
	"github.com/toolpipe/toolpipe/internal/blobstore"
	"github.com/toolpipe/toolpipe/internal/s3test"
	"github.com/toolpipe/toolpipe/persistence"
	"github.com/toolpipe/toolpipe/tool"
)

// sharedStore is an S3-compatible store two hosts share, each with a state
// directory of its own.
func sharedStore(t *testing.T) *blobstore.Store {
	t.Helper()
	srv := s3test.Start(t)
	s, err := persistence.OpenStore(context.Background(), srv.URL(""), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// Issue 26: a persisted output written on host A is read back by Read (and Grep)
// on host B, which has none of A's files, from the path A handed the model.
func TestReadAndGrepFindAnotherHostsPersistedOutput(t *testing.T) {
	store := sharedStore(t)
	hostA, err := New(Config{StateDir: t.TempDir(), Blob: store})
	if err != nil {
		t.Fatal(err)
	}
	hostB, err := New(Config{StateDir: t.TempDir(), Blob: store})
	if err != nil {
		t.Fatal(err)
	}
	out, err := hostA.store.Persist("s1", "toolu_big", []byte("line one\nneedle two\nline three\n"), false)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(out.Path); err != nil {
		t.Fatal(err)
	}
	work := t.TempDir()
	got, err := hostB.Read(context.Background(), call(t, tool.ReadName, work, map[string]any{"file_path": out.Path}))
	if err != nil || got.IsError || !strings.Contains(got.Content, "needle two") {
		t.Fatalf("Read on host B = %+v, %v; want the output host A persisted", got, err)
	}
	g, err := hostB.Grep(context.Background(), call(t, tool.GrepName, work, map[string]any{"pattern": "needle", "path": out.Path, "output_mode": "content"}))
	if err != nil || g.IsError || !strings.Contains(g.Content, "needle two") {
		t.Fatalf("Grep on host B = %+v, %v", g, err)
	}
	// A path of no persisted output is still a missing file.
	miss, err := hostB.Read(context.Background(), call(t, tool.ReadName, work, map[string]any{"file_path": strings.Replace(out.Path, "toolu_big", "toolu_none", 1)}))
	if err != nil || !miss.IsError || !strings.Contains(miss.Content, "File does not exist") {
		t.Fatalf("Read of a missing output = %+v, %v", miss, err)
	}
}

// Issue 26: a worker whose store does not hold the session (a wrong or empty
// blob-url) fails the model call at once with a typed, non-retryable error naming
// the store and the session, and writes nothing.
func TestModelCallFailsAtOnceWithoutTheSessionInTheStore(t *testing.T) {
	store := sharedStore(t)
	agent, err := NewAgent(AgentConfig{StateDir: t.TempDir(), Blob: store, APIKey: "k", BaseURL: "http://127.0.0.1:1", Intake: noIntake{}})
	if err != nil {
		t.Fatal(err)
	}
	var env testsuite.WorkflowTestSuite
	aenv := env.NewTestActivityEnvironment()
	aenv.RegisterActivity(agent.CallModel)
	req := conversation.ModelRequest{SessionID: "lost-session", Seq: 3, TurnID: "t", Model: "m", MaxTokens: 10,
		Conversation: conversation.Conversation{}.Append("lost-session", 1, 2, 100)}
	_, err = aenv.ExecuteActivity(agent.CallModel, req)
	var app *temporal.ApplicationError
	if !errors.As(err, &app) || app.Type() != contract.ErrSessionNotInStore || !app.NonRetryable() {
		t.Fatalf("CallModel = %v; want a non-retryable %s", err, contract.ErrSessionNotInStore)
	}
	for _, want := range []string{"session lost-session", store.URL(), "blob-url"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error does not name %q: %v", want, err)
		}
	}
	for e, err := range store.List(context.Background(), "lost-session/") {
		t.Errorf("the failed call wrote %s (%v)", e.Key, err)
	}
}
