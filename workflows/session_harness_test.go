package workflows_test

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/toolpipe/toolpipe/contract"

	"go.temporal.io/sdk/client"
	sdkworker "go.temporal.io/sdk/worker"

	"github.com/toolpipe/toolpipe/activities"
	"github.com/toolpipe/toolpipe/conversation"
	"github.com/toolpipe/toolpipe/internal/fakeanthropic"
	"github.com/toolpipe/toolpipe/internal/plugin"
	"github.com/toolpipe/toolpipe/internal/testenv"
	"github.com/toolpipe/toolpipe/persistence"
	"github.com/toolpipe/toolpipe/wire"
	"github.com/toolpipe/toolpipe/workflows"
)

// testAPIKey is the key the workers use; it must never appear in history.
const testAPIKey = "sk-test-never-in-history"

// agentHarness runs Sessions with the real tool activities and the real SDK against
// a fake Messages API.
type agentHarness struct {
	t     *testing.T
	c     client.Client
	queue string
	state string
	work  string
	fake  *fakeanthropic.Server
	runs  int
}

func newAgentHarness(t *testing.T, rs ...fakeanthropic.Response) *agentHarness {
	t.Helper()
	h := newIdleAgentHarness(t, rs...)
	h.startWorker()
	return h
}

// newIdleAgentHarness is newAgentHarness without a worker: the test starts them.
func newIdleAgentHarness(t *testing.T, rs ...fakeanthropic.Response) *agentHarness {
	t.Helper()
	fake := startFake(t, fakeanthropic.Script{Responses: rs})
	return &agentHarness{t: t, c: testenv.Client(), queue: testenv.TaskQueue(t), state: t.TempDir(), work: t.TempDir(), fake: fake}
}

// startFake starts a fake model serving script until the test ends.
func startFake(t *testing.T, script fakeanthropic.Script) *fakeanthropic.Server {
	t.Helper()
	fake, err := fakeanthropic.Start(script)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(fake.Close)
	return fake
}

// runScript gives an idle harness a fake model serving script instead of the one it
// was made with, for a script that needs what newIdleAgentHarness makes (files in its
// working directory) or more than responses (a context window), and starts the
// worker that calls it.
func (h *agentHarness) runScript(script fakeanthropic.Script) *fakeanthropic.Server {
	h.t.Helper()
	h.fake = startFake(h.t, script)
	h.startWorker()
	return h.fake
}

// startWorker starts a worker on the harness's queue (another one, after a stop).
func (h *agentHarness) startWorker() sdkworker.Worker {
	acts, err := activities.New(activities.Config{StateDir: h.state})
	if err != nil {
		h.t.Fatal(err)
	}
	h.t.Cleanup(func() { _ = acts.Close() }) // its MCP servers, if any were started
	cfg := activities.AgentConfig{StateDir: h.state, ModelEndpoint: activities.ModelEndpoint{APIKey: testAPIKey, BaseURL: h.fake.URL()}}
	return testenv.StartWorker(h.t, h.queue, func(r sdkworker.Registry) { plugin.RegisterWithAgent(r, acts, cfg) })
}

// storedMessages loads the messages of conv from the harness's state directory, where
// its worker stored them, or fails the test.
func (h *agentHarness) storedMessages(conv conversation.Conversation) []conversation.Message {
	h.t.Helper()
	convs, err := persistence.NewConversations(h.state)
	if err != nil {
		h.t.Fatal(err)
	}
	msgs, err := convs.Load(conv)
	if err != nil {
		h.t.Fatal(err)
	}
	return msgs
}

// fastOptions retry quickly and notice a lost model call within seconds.
func fastOptions() workflows.SessionOptions {
	return workflows.SessionOptions{ModelRetryInterval: 50 * time.Millisecond, ModelHeartbeatTimeout: 3 * time.Second,
		Turn: workflows.TurnOptions{HeartbeatTimeout: 3 * time.Second}}
}

func (h *agentHarness) start(in workflows.SessionInput) client.WorkflowRun {
	h.t.Helper()
	if in.SessionID == "" {
		in.SessionID = "s1"
	}
	if in.Workdir == "" {
		in.Workdir = h.work
	}
	h.runs++
	run, err := h.c.ExecuteWorkflow(testenv.Context(h.t), client.StartWorkflowOptions{
		ID: fmt.Sprintf("%s-%s-%d", h.t.Name(), h.queue, h.runs), TaskQueue: h.queue,
	}, contract.SessionWorkflowName, in)
	if err != nil {
		h.t.Fatalf("start session: %v", err)
	}
	return run
}

func (h *agentHarness) result(run client.WorkflowRun) workflows.SessionResult {
	h.t.Helper()
	var res workflows.SessionResult
	if err := run.Get(testenv.Context(h.t), &res); err != nil {
		h.t.Fatalf("session failed: %v", err)
	}
	return res
}

// history returns the JSON of every event of every run of a workflow.
func (h *agentHarness) history(id string) string {
	h.t.Helper()
	iter := h.c.GetWorkflowHistory(testenv.Context(h.t), id, "", false, 0)
	var b strings.Builder
	for iter.HasNext() {
		ev, err := iter.Next()
		if err != nil {
			h.t.Fatal(err)
		}
		b.WriteString(ev.String())
	}
	return b.String()
}

// rawMessages returns request i's messages as the bytes the SDK sent.
func rawMessages(t *testing.T, req fakeanthropic.Request) []json.RawMessage {
	t.Helper()
	var body struct {
		Messages []json.RawMessage `json:"messages"`
	}
	if err := json.Unmarshal(req.Body, &body); err != nil {
		t.Fatal(err)
	}
	return body.Messages
}

// samePrefix checks that a later request repeats an earlier one's messages byte for
// byte: what the model has seen never changes.
func samePrefix(t *testing.T, earlier, later fakeanthropic.Request) {
	t.Helper()
	a, b := rawMessages(t, earlier), rawMessages(t, later)
	if len(b) < len(a) {
		t.Fatalf("later request has %d messages, earlier %d", len(b), len(a))
	}
	for i := range a {
		if stripCacheControl(a[i]) != stripCacheControl(b[i]) {
			t.Fatalf("message %d changed:\n was %s\n now %s", i, a[i], b[i])
		}
	}
}

func text(s string) wire.Block { return wire.Block{Type: "text", Text: s} }

func use(id, name string, input map[string]any) wire.Block {
	return wire.Block{Type: "tool_use", ID: id, Name: name, Input: raw(input)}
}

// userResults returns the tool_results of a message as id -> block.
func userResults(m conversation.Message) map[string]wire.Block {
	out := map[string]wire.Block{}
	for _, b := range m.Content {
		if b.Type == "tool_result" {
			out[b.ToolUseID] = b
		}
	}
	return out
}

func jsonEqual(a, b json.RawMessage) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return string(a) == string(b)
	}
	return fmt.Sprint(x) == fmt.Sprint(y)
}

// sendMessage sends a user message to a running session.
func (h *agentHarness) sendMessage(id, text string) error {
	handle, err := h.c.UpdateWorkflow(testenv.Context(h.t), client.UpdateWorkflowOptions{
		WorkflowID: id, UpdateName: contract.SendUpdate, Args: []any{workflows.SendRequest{Text: text}},
		WaitForStage: client.WorkflowUpdateStageCompleted,
	})
	if err != nil {
		return err
	}
	return handle.Get(testenv.Context(h.t), nil)
}

// stripCacheControl drops the prompt-cache markers, which move to the newest message
// with every call: they mark the prefix, they are not part of what the model reads.
func stripCacheControl(raw json.RawMessage) string {
	return cacheControlRE.ReplaceAllString(string(raw), "")
}

var cacheControlRE = regexp.MustCompile(`,?"cache_control":\{"type":"ephemeral"\}`)
