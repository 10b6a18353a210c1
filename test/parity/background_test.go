package parity

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/toolpipe/toolpipe/contract"

	"go.temporal.io/sdk/client"
	sdkworker "go.temporal.io/sdk/worker"

	"github.com/toolpipe/toolpipe/activities"
	"github.com/toolpipe/toolpipe/internal/fakeanthropic"
	"github.com/toolpipe/toolpipe/internal/plugin"
	"github.com/toolpipe/toolpipe/internal/testenv"
	"github.com/toolpipe/toolpipe/wire"
	"github.com/toolpipe/toolpipe/workflows"
)

// backgroundScript: two background commands (one fails, one succeeds), a TaskStop of
// an id that names no task, then a foreground command during which both end.
var backgroundScript = [][]scriptBlock{
	{
		{ID: "toolu_bg_fail", Name: "Bash", Input: json.RawMessage(`{"command":"echo out; exit 3","description":"fails","run_in_background":true}`)},
		{ID: "toolu_bg_ok", Name: "Bash", Input: json.RawMessage(`{"command":"echo hi","run_in_background":true}`)},
		{ID: "toolu_bg_stop", Name: "TaskStop", Input: json.RawMessage(`{"task_id":"bnothere1"}`)},
	},
	{{ID: "toolu_bg_fg", Name: "Bash", Input: json.RawMessage(`{"command":"sleep 2; echo fg"}`)}},
}

// taskIDs and taskFiles differ by run: a task's id, and where its output is.
var (
	taskFiles = regexp.MustCompile(`/\S*/tasks/b[0-9a-z]{8}\.output`)
	taskIDs   = regexp.MustCompile(`\bb[0-9a-z]{8}\b`)
)

func normaliseTask(s string) string {
	return taskIDs.ReplaceAllString(taskFiles.ReplaceAllString(s, "<OUTPUT>"), "<ID>")
}

// notifications splits the text blocks of requests' messages into the
// notifications they carry (each with its preamble), normalised and sorted.
// dateChange is the paragraph Claude Code adds to the next message when the date
// changed during the session (a run across midnight): about the clock, not tasks.
var dateChange = regexp.MustCompile(`\n\nThe date has changed\. Today's date is now [0-9-]+\.[^\n]*`)

func notifications(texts []string) []string {
	var out []string
	const start = "[SYSTEM NOTIFICATION - NOT USER INPUT]"
	for _, t := range texts {
		for _, part := range strings.Split(t, start)[1:] {
			part = dateChange.ReplaceAllString(part, "")
			out = append(out, normaliseTask(start+strings.TrimRight(part, "\n")))
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// TestParityBackgroundShells runs background commands through Claude Code and through
// a toolpipe session: the Bash and TaskStop results and the <task-notification>
// messages the model gets must be the same, ids and paths normalised.
func TestParityBackgroundShells(t *testing.T) {
	bin := claudeCode(t)
	m, url := newRecordingModel(t, backgroundScript)
	runClaude(t, bin, t.TempDir(), url)
	var ccTexts []string
	for _, b := range m.bodies {
		var req apiRequest
		json.Unmarshal(b, &req)
		for _, msg := range req.Messages {
			var blocks []struct{ Type, Text string }
			if json.Unmarshal(msg.Content, &blocks) == nil {
				for _, bl := range blocks {
					ccTexts = append(ccTexts, bl.Text)
				}
			}
		}
	}

	// The same script through a session.
	var rs []fakeanthropic.Response
	for _, msg := range backgroundScript {
		var content []wire.Block
		for _, b := range msg {
			content = append(content, wire.Block{Type: "tool_use", ID: b.ID, Name: b.Name, Input: b.Input})
		}
		rs = append(rs, fakeanthropic.Response{Content: content})
	}
	done := fakeanthropic.Response{Content: []wire.Block{{Type: "text", Text: "done"}}}
	fake, err := fakeanthropic.Start(fakeanthropic.Script{Responses: append(rs, done, done, done)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(fake.Close)
	state := t.TempDir()
	acts, err := activities.New(activities.Config{StateDir: state})
	if err != nil {
		t.Fatal(err)
	}
	queue := testenv.TaskQueue(t)
	testenv.StartWorker(t, queue, func(r sdkworker.Registry) {
		plugin.RegisterWithAgent(r, acts, activities.AgentConfig{StateDir: state, ModelEndpoint: activities.ModelEndpoint{APIKey: "sk-parity", BaseURL: fake.URL()}})
	})
	run, err := testenv.Client().ExecuteWorkflow(testenv.Context(t), client.StartWorkflowOptions{ID: "parity-bg-" + queue, TaskQueue: queue},
		contract.SessionWorkflowName, workflows.SessionInput{SessionID: "parity-bg", Prompt: "Run the tools.", Workdir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if err := run.Get(testenv.Context(t), nil); err != nil {
		t.Fatal(err)
	}
	var ours []string
	got := map[string]wire.Block{}
	for _, req := range fake.Requests() {
		for _, msg := range req.Messages {
			for _, b := range msg.Content {
				switch b.Type {
				case "text":
					ours = append(ours, b.Text)
				case "tool_result":
					got[b.ToolUseID] = b
				}
			}
		}
	}

	compared := 0
	for _, id := range []string{"toolu_bg_fail", "toolu_bg_ok", "toolu_bg_stop", "toolu_bg_fg"} {
		want, ok := m.result(id)
		if !ok {
			t.Fatalf("Claude Code sent no result for %s", id)
		}
		w, g := normaliseTask(flatten(want.Content)), normaliseTask(got[id].Content)
		if w != g || want.IsError != got[id].IsError {
			t.Errorf("%s:\n Claude Code (error %v): %q\n toolpipe    (error %v): %q", id, want.IsError, w, got[id].IsError, g)
		}
		compared++
	}
	wantNotes, gotNotes := notifications(ccTexts), notifications(ours)
	if len(wantNotes) != 2 {
		t.Fatalf("Claude Code sent %d notifications, want 2: %q", len(wantNotes), wantNotes)
	}
	if strings.Join(wantNotes, "\n---\n") != strings.Join(gotNotes, "\n---\n") {
		t.Errorf("notifications differ:\n Claude Code: %q\n toolpipe:    %q", wantNotes, gotNotes)
	}
	t.Logf("%d tool_results and %d notifications compared", compared, len(wantNotes))
}
