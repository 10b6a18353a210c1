package workflows_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"go.temporal.io/sdk/activity"
	sdkworker "go.temporal.io/sdk/worker"

	"github.com/toolpipe/toolpipe/activities"
	"github.com/toolpipe/toolpipe/contract"
	"github.com/toolpipe/toolpipe/internal/plugin"
	"github.com/toolpipe/toolpipe/internal/testenv"
	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/workflows"
)

const customHistory = "testdata/turn_history_custom_tool.json"

// deployTool is a custom tool: a dry run only reads, so it is safe.
func deployTool(t testing.TB, description string) tool.Tool {
	d, err := tool.NewCustom(tool.CustomSpec{
		Name: "DeployPreview", Description: description,
		InputSchema: json.RawMessage(`{"type":"object","properties":{"branch":{"type":"string"},"dry_run":{"type":"boolean"}},"required":["branch"]}`),
		Interrupt:   tool.InterruptCancel,
		IsConcurrencySafe: func(in json.RawMessage) bool {
			var v struct {
				DryRun bool `json:"dry_run"`
			}
			return json.Unmarshal(in, &v) == nil && v.DryRun
		},
		Run: func(context.Context, tool.Call) (tool.Output, error) {
			return tool.Output{}, errors.New("replays run nothing")
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func laterTool(t testing.TB) tool.Tool {
	d, err := tool.NewCustom(tool.CustomSpec{Name: "Later", Description: "A tool a newer worker has.",
		InputSchema: json.RawMessage(`{"type":"object"}`),
		Run:         func(context.Context, tool.Call) (tool.Output, error) { return tool.Output{}, nil }})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// deployRecorder is the DeployPreview activity: safe calls wait until two run at
// once (they must run in parallel), and every call notes how many others ran.
type deployRecorder struct {
	mu        sync.Mutex
	running   int
	busyAtRun map[string]int
	both      chan struct{}
}

func (d *deployRecorder) run(ctx context.Context, call tool.Call) (tool.Output, error) {
	var in struct {
		Branch string `json:"branch"`
		DryRun bool   `json:"dry_run"`
	}
	_ = json.Unmarshal(call.Input, &in)
	d.mu.Lock()
	d.busyAtRun[call.ToolUseID] = d.running
	d.running++
	if d.running == 2 {
		close(d.both)
	}
	d.mu.Unlock()
	defer func() { d.mu.Lock(); d.running--; d.mu.Unlock() }()
	if in.DryRun {
		select {
		case <-d.both:
		case <-time.After(20 * time.Second):
			return tool.Output{}, errors.New("the other dry run never ran beside this one")
		case <-ctx.Done():
			return tool.Output{}, ctx.Err()
		}
		return tool.Output{Content: "preview of " + in.Branch + " (dry run)"}, nil
	}
	return tool.Output{Content: "deployed " + in.Branch + " to https://" + in.Branch + ".preview.example"}, nil
}

// TestCustomToolRunsInATurn: a custom tool is validated, scheduled by its own
// concurrency rule (two dry runs together, a deploy alone) and run as its activity;
// a name no worker knew is an unknown tool. With TOOLPIPE_RECORD_HISTORY=1 it
// records the history TestCustomToolReplay replays.
func TestCustomToolRunsInATurn(t *testing.T) {
	tools := withTools(t, deployTool(t, "Deploys a preview."))
	rec := &deployRecorder{busyAtRun: map[string]int{}, both: make(chan struct{})}
	h := &harness{t: t, probe: newProbe(), queue: testenv.TaskQueue(t), c: testenv.Client()}
	testenv.StartWorker(t, h.queue, func(r sdkworker.Registry) {
		plugin.RegisterWorkflows(r, tools)
		r.RegisterActivityWithOptions(rec.run, activity.RegisterOptions{Name: contract.ToolActivity("DeployPreview")})
	})
	run := h.start(workflows.TurnInput{Workdir: t.TempDir(), CloseIntake: true, Blocks: []tool.Block{
		{ID: "dp1", Name: "DeployPreview", Input: raw(map[string]any{"branch": "a", "dry_run": true})},
		{ID: "dp2", Name: "DeployPreview", Input: raw(map[string]any{"branch": "b", "dry_run": true})},
		{ID: "dp3", Name: "DeployPreview", Input: raw(map[string]any{"branch": "c"})},
		{ID: "bad", Name: "DeployPreview", Input: raw(map[string]any{"dry_run": true})},
		{ID: "later", Name: "Later", Input: raw(map[string]any{})},
	}})
	res := h.result(run)
	want := []string{
		"preview of a (dry run)", "preview of b (dry run)", "deployed c to https://c.preview.example",
		"<tool_use_error>InputValidationError: DeployPreview failed due to the following issue:\nThe required parameter `branch` is missing</tool_use_error>",
		tools.UnknownToolMessage("Later"),
	}
	if len(res.Results) != len(want) {
		t.Fatalf("results %+v", res.Results)
	}
	for i, r := range res.Results {
		if r.Content != want[i] {
			t.Errorf("result %d (%s) = %q, want %q", i, r.ToolUseID, r.Content, want[i])
		}
	}
	if rec.busyAtRun["dp3"] != 0 {
		t.Errorf("the deploy ran beside %d other calls; an unsafe call runs alone", rec.busyAtRun["dp3"])
	}
	if os.Getenv("TOOLPIPE_RECORD_HISTORY") == "1" {
		testenv.WriteHistory(t, customHistory, testenv.History(t, h.c, run.GetID(), run.GetRunID()))
	}
}

// TestCustomToolReplay replays a turn recorded on a worker that had DeployPreview and
// not Later: a worker that has both continues it the same way (Later stays
// unknown); a worker without DeployPreview, or with another contract for it, fails
// the workflow task with a message naming the tool, not with a nondeterminism error.
func TestCustomToolReplay(t *testing.T) {
	for _, c := range []struct {
		name  string
		tools []tool.Tool
		want  string
	}{
		{"same registry", []tool.Tool{deployTool(t, "Deploys a preview.")}, ""},
		{"newer worker", []tool.Tool{deployTool(t, "Deploys a preview."), laterTool(t)}, ""},
		{"worker without the tool", nil, "this turn calls the tool DeployPreview, which this worker does not have"},
		{"another contract", []tool.Tool{deployTool(t, "Deploys something else.")}, "this worker has the tool DeployPreview with another contract"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := replayFileWith(customHistory, "", withTools(t, c.tools...))
			switch {
			case c.want == "" && err != nil:
				t.Fatalf("replay: %v", err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Fatalf("replay error %v, want one containing %q", err, c.want)
			case c.want != "" && strings.Contains(strings.ToLower(fmt.Sprint(err)), "nondetermin"):
				t.Fatalf("a nondeterminism error instead of a clear one: %v", err)
			}
		})
	}
}

// withTools is the built-in tools and tools: the registry of a worker a program
// set up with its own tools.
func withTools(t testing.TB, tools ...tool.Tool) *tool.Registry {
	t.Helper()
	reg, err := activities.Builtins().With(tools...)
	if err != nil {
		t.Fatal(err)
	}
	return reg
}
