package plugin_test

import (
	"strconv"
	"strings"
	"testing"

	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.temporal.io/sdk/client"
	sdkworker "go.temporal.io/sdk/worker"

	"github.com/toolpipe/toolpipe/activities"
	"github.com/toolpipe/toolpipe/contract"
	"github.com/toolpipe/toolpipe/hooks"
	"github.com/toolpipe/toolpipe/internal/fakeanthropic"
	"github.com/toolpipe/toolpipe/internal/plugin"
	"github.com/toolpipe/toolpipe/internal/testenv"
	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/wire"
	"github.com/toolpipe/toolpipe/workflows"
)

// A turn driven as `starter run --stream` drives it (start, AddBlocks, CloseIntake,
// Collect) under the command's StartTrace span is one trace: the updates, their
// handlers, the workflow and every call, including the calls that never became an
// activity (an unknown tool, a refused input), which get an execute_tool span with
// Error status.
func TestTurnIsOneTrace(t *testing.T) {
	tel, c, spans := testenv.TracedClient(t)
	queue := testenv.TaskQueue(t)
	w, err := plugin.Start(plugin.Config{Client: c, TaskQueue: queue, StateDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(w.Stop)
	ctx, root := tel.StartTrace(testenv.Context(t), "starter run")
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "one-trace-" + queue, TaskQueue: queue},
		contract.TurnWorkflowName, workflows.TurnInput{SessionID: "s-trace", Workdir: t.TempDir(),
			Blocks: []tool.Block{block("b1", tool.BashName, map[string]any{"command": "echo hi"})}})
	if err != nil {
		t.Fatal(err)
	}
	update := func(name string, args ...any) {
		h, err := c.UpdateWorkflow(ctx, client.UpdateWorkflowOptions{WorkflowID: run.GetID(), UpdateName: name, Args: args,
			WaitForStage: client.WorkflowUpdateStageCompleted})
		if err == nil {
			err = h.Get(ctx, nil)
		}
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	update(contract.AddBlocksUpdate, []tool.Block{block("u1", "Nope", map[string]any{}), block("r1", tool.ReadName, map[string]any{"limit": 3})})
	update(contract.CollectUpdate, workflows.CollectRequest{From: 0})
	update(contract.CloseIntakeUpdate)
	if err := run.Get(ctx, nil); err != nil {
		t.Fatal(err)
	}
	root.End()

	want := root.SpanContext().TraceID()
	names := map[string]tracetest.SpanStub{}
	for _, s := range spans.GetSpans() {
		if s.SpanContext.TraceID() != want {
			t.Errorf("span %s is in trace %s, not the command's %s", s.Name, s.SpanContext.TraceID(), want)
		}
		names[s.Name] = s
	}
	for _, n := range []string{"starter run", "StartWorkflow:toolpipe.Turn", "RunWorkflow:toolpipe.Turn", "UpdateWorkflow:AddBlocks", "HandleUpdate:AddBlocks",
		"UpdateWorkflow:CloseIntake", "UpdateWorkflow:Collect", "HandleUpdate:Collect", "execute_tool Bash", "execute_tool Nope", "execute_tool Read"} {
		if _, ok := names[n]; !ok {
			t.Errorf("no %q span; spans: %v", n, keys(names))
		}
	}
	for name, errType := range map[string]string{"execute_tool Nope": "unknown_tool", "execute_tool Read": "invalid_input"} {
		s := names[name]
		if s.Status.Code != codes.Error || attr(s, contract.AttrErrorType) != errType || attr(s, contract.AttrToolCallID) == "" {
			t.Errorf("%s: status %+v, attributes %v", name, s.Status, s.Attributes)
		}
		if p, ok := names["RunWorkflow:toolpipe.Turn"]; !ok || s.Parent.SpanID() != p.SpanContext.SpanID() {
			t.Errorf("%s is not a child of the turn's RunWorkflow span", name)
		}
	}
}

// A model call's span follows the GenAI conventions: "chat {model}", the provider,
// the requested and answering model, the response id, the finish reason and the
// token counts the API reported (input counting the cached tokens too).
func TestModelSpanAttributes(t *testing.T) {
	_, c, spans := testenv.TracedClient(t)
	fake, queue := agentWorker(t, c,
		fakeanthropic.Response{Content: []wire.Block{{Type: "tool_use", ID: "t1", Name: "Bash", Input: []byte(`{"command":"echo hi"}`)}}},
		fakeanthropic.Response{Content: []wire.Block{{Type: "text", Text: "done"}}})
	ctx := testenv.Context(t)
	run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "model-span-" + queue, TaskQueue: queue}, contract.SessionWorkflowName,
		workflows.SessionInput{SessionID: "s-model", Prompt: "go", Workdir: t.TempDir(), Model: workflows.ModelOptions{Model: "claude-test-1"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := run.Get(ctx, nil); err != nil {
		t.Fatal(err)
	}
	reqs := fake.Requests()
	var chats []tracetest.SpanStub
	for _, s := range spans.GetSpans() {
		if strings.HasPrefix(s.Name, "chat ") {
			chats = append(chats, s)
		}
	}
	if len(chats) != 2 || len(reqs) != 2 {
		t.Fatalf("%d chat spans, %d requests; want 2 of each", len(chats), len(reqs))
	}
	if reqs[1].Usage.CacheReadInputTokens == 0 {
		t.Fatalf("the second call read nothing from the cache: %+v", reqs[1].Usage)
	}
	for i, s := range chats {
		seq := attr(s, activities.AttrSeq) // the calls run one after the other: spans end in order
		u := reqs[i].Usage
		for k, v := range map[string]string{
			string(contract.AttrOperation): "chat", string(activities.AttrProvider): "anthropic", string(activities.AttrRequestModel): "claude-test-1",
			string(activities.AttrResponseModel): "claude-test-1",
			string(activities.AttrInputTokens):   strconv.Itoa(u.TotalInput()), string(activities.AttrOutputTokens): strconv.Itoa(u.OutputTokens),
			string(activities.AttrCacheReadTokens): strconv.Itoa(u.CacheReadInputTokens), string(activities.AttrCacheCreationTokens): strconv.Itoa(u.CacheCreationInputTokens),
		} {
			if g := attrKey(s, k); g != v {
				t.Errorf("%s (seq %s): %s = %q, want %q", s.Name, seq, k, g, v)
			}
		}
		if s.Name != "chat claude-test-1" || attr(s, activities.AttrResponseID) == "" {
			t.Errorf("span %q, response id %q", s.Name, attr(s, activities.AttrResponseID))
		}
	}
	if f := attr(chats[0], activities.AttrFinishReasons); f != `["tool_use"]` {
		t.Errorf("first call's finish reasons %q", f)
	}
	if f := attr(chats[1], activities.AttrFinishReasons); f != `["end_turn"]` {
		t.Errorf("second call's finish reasons %q", f)
	}
}

func attrKey(s tracetest.SpanStub, k string) string {
	for _, a := range s.Attributes {
		if string(a.Key) == k {
			return a.Value.Emit()
		}
	}
	return ""
}

// A prompt hook's question is a model call like the agent's: a "chat {model}" span
// with the GenAI attributes and the response's tokens. A question the API refuses
// is the hook's non-blocking result, not an activity failure; its span says Error.
func TestPromptHookSpan(t *testing.T) {
	_, c, spans := testenv.TracedClient(t)
	fake, queue := agentWorker(t, c,
		fakeanthropic.Response{When: "first call", Content: []wire.Block{{Type: "text", Text: `{"ok": true, "reason": "fine"}`}}},
		fakeanthropic.Response{When: "second call", Status: 400, ErrorMessage: "output_config: not supported here"})
	ctx := testenv.Context(t)
	for _, q := range []string{"first call", "second call"} {
		settings := &workflows.TurnSettings{Hooks: hooks.Config{PreToolUse: []hooks.Group{{Matcher: "Bash",
			Hooks: []hooks.Command{{Type: hooks.TypePrompt, Prompt: q + ": is this fine? $ARGUMENTS", Model: "claude-judge-1"}}}}}}
		run, err := c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "prompt-span-" + strings.ReplaceAll(q, " ", "-") + queue, TaskQueue: queue},
			contract.TurnWorkflowName, workflows.TurnInput{SessionID: "s-hook", Workdir: t.TempDir(), CloseIntake: true, Settings: settings,
				Blocks: []tool.Block{block("b1", tool.BashName, map[string]any{"command": "echo hi"})}})
		if err != nil {
			t.Fatal(err)
		}
		if err := run.Get(ctx, nil); err != nil {
			t.Fatal(err)
		}
	}
	reqs := fake.Requests()
	var chats []tracetest.SpanStub
	for _, s := range spans.GetSpans() {
		if s.Name == "chat claude-judge-1" {
			chats = append(chats, s)
		}
	}
	if len(chats) != 2 || len(reqs) != 2 {
		t.Fatalf("%d prompt hook chat spans, %d requests; want 2 of each", len(chats), len(reqs))
	}
	ok, refused := chats[0], chats[1]
	u := reqs[0].Usage
	for k, v := range map[string]string{
		string(contract.AttrOperation): "chat", string(activities.AttrRequestModel): "claude-judge-1", string(activities.AttrResponseModel): "claude-judge-1",
		string(contract.AttrSessionID): "s-hook", string(activities.AttrInputTokens): strconv.Itoa(u.TotalInput()),
		string(activities.AttrOutputTokens): strconv.Itoa(u.OutputTokens),
	} {
		if g := attrKey(ok, k); g != v {
			t.Errorf("answered prompt hook span: %s = %q, want %q", k, g, v)
		}
	}
	if ok.Status.Code == codes.Error || u.TotalInput() == 0 {
		t.Errorf("answered prompt hook span: status %v, input tokens %d", ok.Status, u.TotalInput())
	}
	if attr(refused, activities.AttrModelReused) != "" {
		t.Errorf("refused prompt hook span says the answer was reused from the store")
	}
	if refused.Status.Code != codes.Error || attr(refused, contract.AttrErrorType) != contract.ErrModelRejected {
		t.Errorf("refused prompt hook span: status %v, error.type %q; want Error and %s", refused.Status, attr(refused, contract.AttrErrorType), contract.ErrModelRejected)
	}
}

// agentWorker starts a fake model answering rs (every prefix cached) and a worker of
// c with the tool and agent activities calling it, on a queue of its own.
func agentWorker(t *testing.T, c client.Client, rs ...fakeanthropic.Response) (*fakeanthropic.Server, string) {
	t.Helper()
	fake, err := fakeanthropic.Start(fakeanthropic.Script{MinCacheTokens: -1, Responses: rs})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(fake.Close)
	queue, state := testenv.TaskQueue(t), t.TempDir()
	acts, err := activities.New(activities.Config{StateDir: state})
	if err != nil {
		t.Fatal(err)
	}
	testenv.StartWorkerWith(t, c, queue, func(r sdkworker.Registry) {
		plugin.RegisterWithAgent(r, acts, activities.AgentConfig{StateDir: state, ModelEndpoint: activities.ModelEndpoint{APIKey: "sk-test", BaseURL: fake.URL()}})
	})
	return fake, queue
}
