package reliability

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/toolpipe/toolpipe/contract"

	"go.temporal.io/sdk/client"
	sdkworker "go.temporal.io/sdk/worker"

	"github.com/toolpipe/toolpipe/activities"
	"github.com/toolpipe/toolpipe/internal/fakeanthropic"
	"github.com/toolpipe/toolpipe/internal/plugin"
	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/wire"
	"github.com/toolpipe/toolpipe/workflows"
)

// agentEnv, in a worker process, is the fake model's URL: the process then runs
// agent sessions (plugin.RegisterWithAgent) against it.
const agentEnv = "TOOLPIPE_RELIABILITY_AGENT_URL"

// agentWorker is a worker process's worker that runs sessions too.
func agentWorker(c client.Client, queue, state, url string) (sdkworker.Worker, error) {
	acts, err := activities.New(activities.Config{StateDir: state})
	if err != nil {
		return nil, err
	}
	w := sdkworker.New(c, queue, plugin.Options())
	plugin.RegisterWithAgent(w, acts, activities.AgentConfig{StateDir: state, ModelEndpoint: activities.ModelEndpoint{APIKey: "sk-test", BaseURL: url}})
	return w, w.Start()
}

func toolUse(id, name string, input map[string]any) wire.Block {
	b, _ := json.Marshal(input)
	return wire.Block{Type: "tool_use", ID: id, Name: name, Input: b}
}

// TestWakeupSurvivesWorkerKillAndServerRestart: a session asleep on a 20 s
// ScheduleWakeup (its WakeupMinSeconds; Claude Code's shortest is 60 s, which
// would only make the test wait longer) loses its worker to SIGKILL and its
// embedded server to a restart during the wait (both take a second or two). The wake-up is the server's
// timer, so a new worker on the restarted server wakes the session once, with the
// prompt, and the loop goes on to its end: four model calls, the wake prompt
// sent once.
func TestWakeupSurvivesWorkerKillAndServerRestart(t *testing.T) {
	state := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	es := startEmbedded(t, ctx, state)
	fake, err := fakeanthropic.Start(fakeanthropic.Script{Responses: []fakeanthropic.Response{
		{Content: []wire.Block{toolUse("w1", tool.ScheduleWakeupName, map[string]any{"delaySeconds": 20, "reason": "CI takes a minute", "prompt": "check CI again", "noop": false})}},
		{Content: []wire.Block{{Type: "text", Text: "Sleeping."}}},
		{When: "check CI again", Content: []wire.Block{toolUse("w2", tool.ScheduleWakeupName, map[string]any{"stop": true})}},
		{Content: []wire.Block{{Type: "text", Text: "Done."}}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer fake.Close()
	t.Setenv(agentEnv, fake.URL()) // the worker processes inherit it
	e := &env{t: t, c: es.c, queue: "wakeup", state: state}
	worker := e.startWorkerProcessAt(es.srv.FrontendAddress(), es.srv.Namespace())

	run, err := es.c.ExecuteWorkflow(ctx, client.StartWorkflowOptions{ID: "session-wake", TaskQueue: e.queue},
		contract.SessionWorkflowName, workflows.SessionInput{SessionID: "wake", Prompt: "watch CI", Workdir: t.TempDir(),
			Options: workflows.SessionOptions{ModelRetryInterval: 100 * time.Millisecond, ModelHeartbeatTimeout: 3 * time.Second, WakeupMinSeconds: 20}})
	if err != nil {
		t.Fatal(err)
	}
	var st workflows.SessionState
	poll(t, "the session to sleep", time.Minute, func() bool {
		v, err := es.c.QueryWorkflow(ctx, run.GetID(), "", contract.SessionStateQuery)
		return err == nil && v.Get(&st) == nil && st.Phase == workflows.PhaseSleeping
	})
	if st.Wakeup == nil || st.Wakeup.Seconds != 20 {
		t.Fatalf("state while asleep: %+v", st.Wakeup)
	}
	worker.kill()
	t.Logf("worker killed, server down for %v", es.restart().Round(time.Millisecond))
	worker = e.startWorkerProcessAt(es.srv.FrontendAddress(), es.srv.Namespace())
	defer worker.kill()

	var res workflows.SessionResult
	if err := run.Get(ctx, &res); err != nil {
		t.Fatalf("session: %v", err)
	}
	if res.Text != "Done." || res.StopReason != "end_turn" {
		t.Fatalf("result %+v", res)
	}
	reqs := fake.Requests()
	woken := 0
	for _, r := range reqs {
		if last := r.Messages[len(r.Messages)-1]; last.Role == "user" && len(last.Content) > 0 && strings.TrimSpace(last.Content[0].Text) == "check CI again" {
			woken++
		}
	}
	if len(reqs) != 4 || woken != 1 {
		t.Fatalf("%d model calls, %d woken by the prompt; want 4 and 1", len(reqs), woken)
	}
}
