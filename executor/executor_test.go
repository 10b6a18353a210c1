package executor

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/toolpipe/toolpipe/activities"
	"github.com/toolpipe/toolpipe/scheduler"
	"github.com/toolpipe/toolpipe/tool"
)

func raw(v any) json.RawMessage { b, _ := json.Marshal(v); return b }

// The in-process executor gives the same answers as the workflow: order, the Bash
// cascade, context modifiers (an Edit after a Read of the same file).
func TestExecutorMatchesTurnSemantics(t *testing.T) {
	acts, err := activities.New(activities.Config{StateDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "f.txt")
	os.WriteFile(file, []byte("alpha\n"), 0o644)
	ex, err := New(Config{Tools: acts.Registry(), SessionID: "s", Workdir: dir})
	if err != nil {
		t.Fatal(err)
	}
	res, err := ex.Run(context.Background(), []tool.Block{
		{ID: "r", Name: tool.ReadName, Input: raw(map[string]any{"file_path": file})},
		{ID: "e", Name: tool.EditName, Input: raw(map[string]any{"file_path": file, "old_string": "alpha", "new_string": "beta"})},
		{ID: "slow", Name: tool.BashName, Input: raw(map[string]any{"command": "sleep 30"})},
		{ID: "fail", Name: tool.BashName, Input: raw(map[string]any{"command": "ls /not-here-at-all"})},
		{ID: "u", Name: "Nope", Input: raw(map[string]any{})},
	})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, r := range res {
		ids = append(ids, r.ToolUseID)
	}
	if !slices.Equal(ids, []string{"r", "e", "slow", "fail", "u"}) {
		t.Fatalf("order %v", ids)
	}
	if res[1].IsError {
		t.Errorf("edit after read: %+v", res[1])
	}
	if want := scheduler.SiblingErrorMessage("Bash(ls /not-here-at-all)"); res[2].Content != want {
		t.Errorf("slow: %q want %q", res[2].Content, want)
	}
}

// An outcome the tracker refuses (the Turn workflow panics there: it is a bug) ends
// the run with that error instead of being ignored. The bug is simulated by
// recording the tool's outcome twice.
func TestRefusedOutcomeEndsTheRun(t *testing.T) {
	release := make(chan struct{})
	ex, err := New(Config{Tools: tool.MustRegistry(lateTool{release: release})})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	r, err := ex.start(ctx, []tool.Block{{ID: "a", Name: tool.ReadName, Input: raw(map[string]any{"file_path": "/x"})}})
	if err != nil {
		t.Fatal(err)
	}
	defer r.cancelSiblings()
	r.mu.Lock()
	if _, err := r.tracker.Complete("a", tool.Result{Content: "early"}, nil); err != nil {
		t.Fatal(err)
	}
	r.mu.Unlock()
	close(release)
	res, err := r.wait(ctx)
	if err == nil || !strings.Contains(err.Error(), "not executing") {
		t.Fatalf("Run = %v, %v; want the tracker's refusal", res, err)
	}
}

// lateTool answers once release is closed.
type lateTool struct {
	tool.Base
	release chan struct{}
}

func (lateTool) Spec() tool.Spec {
	return tool.Spec{Name: tool.ReadName, Description: "Reads late.", InputSchema: `{"type":"object"}`}
}

func (t lateTool) Run(context.Context, tool.Call) (tool.Output, error) {
	<-t.release
	return tool.Output{Content: "late"}, nil
}
