package workflows_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	sdkworker "go.temporal.io/sdk/worker"
	"google.golang.org/protobuf/proto"

	"github.com/toolpipe/toolpipe/activities"
	"github.com/toolpipe/toolpipe/internal/plugin"
	"github.com/toolpipe/toolpipe/internal/testenv"
	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/workflows"
)

// DESIGN §4.2: a Bash printing 200,000 lines gets the persisted-output stub; the file
// holds every line; the workflow history holds neither the output nor the file; and
// Reading the file back is not persisted again (Read is exempt).
func TestHugeBashOutputStaysOutOfHistory(t *testing.T) {
	h := realHarness(t)
	dir := t.TempDir()
	run := h.start(workflows.TurnInput{SessionID: "big", Workdir: dir, CloseIntake: true, Blocks: []tool.Block{
		bashB("big", "seq -f 'line %.0f of the huge output' 1 200000"),
	}})
	res := h.result(run)
	r := byID(res.Results, "big")
	if r.IsError || !strings.HasPrefix(r.Content, "<persisted-output>\nOutput too large (") {
		t.Fatalf("result is not the persisted-output stub: %.300q", r.Content)
	}
	m := regexp.MustCompile(`Full output saved to: (\S+)`).FindStringSubmatch(r.Content)
	if m == nil || !strings.HasSuffix(m[1], filepath.Join("big", "tool-results", "big.txt")) {
		t.Fatalf("no path in stub: %.300q", r.Content)
	}
	data, err := os.ReadFile(m[1])
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(data, []byte("\n")); n != 200000 || !bytes.Contains(data, []byte("line 200000 of the huge output\n")) {
		t.Fatalf("persisted file has %d lines", n)
	}
	if len(r.Content) > 3000 {
		t.Fatalf("stub is %d bytes", len(r.Content))
	}

	var size int
	for _, ev := range testenv.History(t, h.c, run.GetID(), run.GetRunID()) {
		b, _ := proto.Marshal(ev)
		size += len(b)
		if bytes.Contains(b, []byte("line 150000 of the huge output")) {
			t.Fatalf("event %d (%s) carries the output", ev.EventId, ev.EventType)
		}
	}
	if size > 64<<10 {
		t.Fatalf("history is %d bytes for one persisted call", size)
	}

	// Reading the persisted file back is exempt from persistence.
	res = h.result(h.c.GetWorkflow(testenv.Context(t), h.startID(workflows.TurnInput{SessionID: "big", Workdir: dir, CloseIntake: true, Blocks: []tool.Block{
		{ID: "back", Name: tool.ReadName, Input: raw(map[string]any{"file_path": m[1], "limit": 3})},
	}}), ""))
	if r := byID(res.Results, "back"); r.IsError || strings.Contains(r.Content, "persisted-output") ||
		r.Content != fmt.Sprintf("%d\t%s\n%d\t%s\n%d\t%s", 1, "line 1 of the huge output", 2, "line 2 of the huge output", 3, "line 3 of the huge output") {
		t.Fatalf("read back: %.300q", r.Content)
	}
}

// Payload limits: a 5 MB Write and a 5 MB Read result go through without a workflow
// task failure, their bytes kept in the payload store instead of history.
func TestFiveMegabytePayloads(t *testing.T) {
	state := t.TempDir()
	acts, err := activities.New(activities.Config{StateDir: state})
	if err != nil {
		t.Fatal(err)
	}
	c := testenv.StorageClient(t, filepath.Join(state, "payloads"))
	h := &harness{t: t, probe: newProbe(), queue: testenv.TaskQueue(t), c: c}
	testenv.StartWorkerWith(t, c, h.queue, func(r sdkworker.Registry) { plugin.Register(r, acts) })

	dir := t.TempDir()
	file := filepath.Join(dir, "big.txt")
	line := strings.Repeat("0123456789", 250)  // 2,500 bytes
	content := strings.Repeat(line+"\n", 2000) // 5 MB
	run := h.start(workflows.TurnInput{Workdir: dir, CloseIntake: true, Blocks: []tool.Block{
		{ID: "w", Name: tool.WriteName, Input: raw(map[string]any{"file_path": file, "content": content})},
		// Read's own cap (about 200,000 tokens with allow_large) bounds a result: 300
		// lines of it are 750 KB, far over the payload threshold.
		{ID: "r", Name: tool.ReadName, Input: raw(map[string]any{"file_path": file, "limit": 300, "allow_large": true})},
	}})
	res := h.result(run)
	if r := byID(res.Results, "w"); r.IsError {
		t.Fatalf("write: %+v", r)
	}
	if b, err := os.ReadFile(file); err != nil || string(b) != content {
		t.Fatalf("written file differs (%d bytes, %v)", len(b), err)
	}
	r := byID(res.Results, "r")
	if r.IsError || len(r.Content) < 750_000 || strings.Count(r.Content, "\n") != 299 {
		t.Fatalf("read: error=%v, %d bytes", r.IsError, len(r.Content))
	}
	var size int
	for _, ev := range testenv.History(t, c, run.GetID(), run.GetRunID()) {
		b, _ := proto.Marshal(ev)
		size += len(b)
	}
	if size > 256<<10 {
		t.Fatalf("history is %d bytes: the payloads were not kept out of it", size)
	}
}
