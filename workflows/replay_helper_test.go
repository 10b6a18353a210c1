package workflows_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	historypb "go.temporal.io/api/history/v1"
	"go.temporal.io/sdk/client"
	sdkworker "go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/toolpipe/toolpipe/activities"
	"github.com/toolpipe/toolpipe/internal/testenv"
	"github.com/toolpipe/toolpipe/tool"
	tpworker "github.com/toolpipe/toolpipe/worker"
)

// replayEvents replays a history against the current code as a worker would run it:
// Session and Turn registered under their names, whichever of them the history is.
// id is the workflow id it ran under, which a session's child workflow ids derive
// from; "" (the SDK's "ReplayId") for a history nothing in it derives from its id.
// Every replay test goes through here, so all of them replay the same way.
func replayEvents(hist *historypb.History, id string) error {
	return replayEventsWith(hist, id, activities.Builtins())
}

// replayEventsWith is replayEvents on a worker whose tools are tools.
func replayEventsWith(hist *historypb.History, id string, tools *tool.Registry) error {
	r := sdkworker.NewWorkflowReplayer()
	tpworker.RegisterWorkflows(r, tools)
	return r.ReplayWorkflowHistoryWithOptions(nil, hist, sdkworker.ReplayWorkflowHistoryOptions{
		OriginalExecution: workflow.Execution{ID: id},
	})
}

// replayFile replays the JSON history at path (as testenv.WriteHistory writes it)
// under id, as replayEvents does; an unreadable file is an error too.
func replayFile(path, id string) error { return replayFileWith(path, id, activities.Builtins()) }

// replayFileWith is replayFile on a worker whose tools are tools.
func replayFileWith(path, id string, tools *tool.Registry) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	hist, err := client.HistoryFromJSON(f, client.HistoryJSONOptions{})
	if err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	return replayEventsWith(hist, id, tools)
}

// replayHistory fails the test unless the committed history at path replays under id
// (see replayEvents).
func replayHistory(t *testing.T, path, id string) {
	t.Helper()
	if err := replayFile(path, id); err != nil {
		t.Fatalf("replay of %s: %v", path, err)
	}
}

// The helpers fail on a history the current code does not produce, so that no
// replay test can pass without replaying: a committed Turn history replays, and a
// copy of it in a temporary directory, with its first activity renamed, does not.
// So does a Session history replayed under another workflow id than it ran under,
// which its sub-agent's child workflow id derives from.
func TestReplayFailsOnAHistoryTheCodeDoesNotProduce(t *testing.T) {
	const turn = "testdata/turn_history.json"
	replayHistory(t, turn, "")
	f, err := os.Open(turn)
	if err != nil {
		t.Fatal(err)
	}
	hist, err := client.HistoryFromJSON(f, client.HistoryJSONOptions{})
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	renamed := ""
	for _, ev := range hist.Events {
		if a := ev.GetActivityTaskScheduledEventAttributes(); a != nil {
			a.ActivityType.Name += "Renamed"
			renamed = a.ActivityType.Name
			break
		}
	}
	if renamed == "" {
		t.Fatalf("%s schedules no activity", turn)
	}
	changed := filepath.Join(t.TempDir(), "turn_history.json")
	testenv.WriteHistory(t, changed, hist.Events)
	if err := replayFile(changed, ""); err == nil || !strings.Contains(err.Error(), renamed) {
		t.Fatalf("replay of a history with activity %s: %v; want a failure naming it", renamed, err)
	}

	if err := replayFile(sessionHistories[0], sessionReplayID+"-other"); err == nil {
		t.Fatalf("%s replays under another workflow id than it ran under", sessionHistories[0])
	}
}
