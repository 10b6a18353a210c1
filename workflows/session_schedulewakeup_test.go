package workflows_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/toolpipe/toolpipe/contract"

	"go.temporal.io/sdk/client"

	"github.com/toolpipe/toolpipe/internal/fakeanthropic"
	"github.com/toolpipe/toolpipe/internal/testenv"
	"github.com/toolpipe/toolpipe/permissions"
	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/wire"
	"github.com/toolpipe/toolpipe/workflows"
)

func wakeup(id string, delay float64, prompt string, noop bool) wire.Block {
	return use(id, tool.ScheduleWakeupName, map[string]any{"delaySeconds": delay, "reason": "wait for CI", "prompt": prompt, "noop": noop})
}

// wakeupScript is a loop of two rounds: the first arms a wake-up (5 s asked,
// clamped to 60 s) and ends its turn; the wake-up's prompt starts the second,
// which stops the loop.
func wakeupScript() []fakeanthropic.Response {
	return []fakeanthropic.Response{
		{Content: []wire.Block{wakeup("w1", 5, "check CI again", false)}},
		{Content: []wire.Block{text("Sleeping until CI is done.")}},
		{When: "check CI again", Content: []wire.Block{use("w2", tool.ScheduleWakeupName, map[string]any{"stop": true})}},
		{Content: []wire.Block{text("CI passed; loop ended.")}},
	}
}

// A ScheduleWakeup sleeps the session on a timer once the model has ended its
// turn (phase sleeping, ToolpipeStatus=sleeping, the wake-up in the state) and
// wakes it with the prompt after the clamped delay, once; stop: true ends the
// loop and the session with it. The result is Claude Code's text. It waits the
// real delay (the test server has no time skipping, and the wait is what is
// tested), with the session's shortest delay at 6 s instead of Claude Code's
// 60 s (WakeupMinSeconds): the 5 s asked for is clamped to it, as 5 s is to 60 s
// by default (tool.TestWakeupDelayIsClamped).
func TestScheduleWakeupSleepsThenWakesWithThePrompt(t *testing.T) {
	ensureSearchAttributes(t)
	h := newAgentHarness(t, wakeupScript()...)
	opts := fastOptions()
	opts.WakeupMinSeconds = 6
	run := h.start(workflows.SessionInput{SessionID: "wake", Prompt: "watch CI", Options: opts, SearchAttributes: true})
	st := h.waitPhase(run.GetID(), workflows.PhaseSleeping)
	if st.Wakeup == nil || st.Wakeup.Seconds != 6 || st.Wakeup.Prompt != "check CI again" || st.Wakeup.Reason != "wait for CI" {
		t.Fatalf("wake-up in the state: %+v", st.Wakeup)
	}
	poll(t, "ToolpipeStatus=sleeping", func() bool {
		d, err := h.c.DescribeWorkflowExecution(testenv.Context(t), run.GetID(), "")
		if err != nil {
			return false
		}
		f := d.WorkflowExecutionInfo.GetSearchAttributes().GetIndexedFields()["ToolpipeStatus"]
		return f != nil && strings.Contains(string(f.GetData()), workflows.StatusSleeping)
	})
	res := h.result(run)
	if res.StopReason != "end_turn" || res.Text != "CI passed; loop ended." {
		t.Fatalf("result %+v", res)
	}
	reqs := h.fake.Requests()
	if len(reqs) != 4 {
		t.Fatalf("%d model calls, want 4 (the wake-up fired once)", len(reqs))
	}
	msgs := h.storedMessages(res.Conversation)
	r := userResults(msgs[2])["w1"]
	want := regexp.MustCompile(`^Next wakeup scheduled for \d\d:\d\d:\d\d UTC \(in (5|6)s\) \(clamped to 6s from your requested value\)\. If you owe the user a status update this tick, write it now as ordinary response text; then end the turn`)
	if r.IsError || !want.MatchString(r.Content) {
		t.Fatalf("ScheduleWakeup result: %+v", r)
	}
	if got := msgs[4].Content[0].Text; got != "check CI again" {
		t.Fatalf("woken with %q", got)
	}
	if r := userResults(msgs[6])["w2"]; r.IsError || !strings.HasPrefix(r.Content, "Loop stopped \u2014 any dynamic loop in this session is ended; there was no pending wakeup to cancel.") {
		t.Fatalf("stop result: %+v", r)
	}
}

// A delay past the bounds is clamped to 3,600 s and says so; stop: true cancels the
// pending wake-up and says how many; the session then ends without sleeping.
func TestScheduleWakeupStopCancelsThePendingOne(t *testing.T) {
	h := newAgentHarness(t,
		fakeanthropic.Response{Content: []wire.Block{wakeup("w1", 7200, "again", true)}},
		fakeanthropic.Response{Content: []wire.Block{use("w2", tool.ScheduleWakeupName, map[string]any{"stop": true})}},
		fakeanthropic.Response{Content: []wire.Block{text("Stopped.")}},
	)
	res := h.result(h.start(workflows.SessionInput{SessionID: "wake-stop", Prompt: "go", Options: fastOptions()}))
	if res.StopReason != "end_turn" || res.Text != "Stopped." {
		t.Fatalf("result %+v", res)
	}
	msgs := h.storedMessages(res.Conversation)
	if r := userResults(msgs[2])["w1"]; r.IsError || !strings.Contains(r.Content, "(in 3600s) (clamped to 3600s from your requested value).") {
		t.Fatalf("clamped result: %+v", r)
	}
	if r := userResults(msgs[4])["w2"]; r.IsError || !strings.HasPrefix(r.Content, "Loop stopped \u2014 cancelled 1 pending wakeup(s); no further dynamic-loop wakeups scheduled.") {
		t.Fatalf("stop result: %+v", r)
	}
}

// ScheduleWakeup needs no permission (Claude Code allows it), but a deny rule that
// names it refuses it, and so does a PreToolUse hook matching its name; a call
// without delaySeconds gets Claude Code's refusal. None of them arms anything: the
// session ends instead of sleeping.
func TestScheduleWakeupObeysRulesAndHooks(t *testing.T) {
	for _, c := range []struct {
		name     string
		settings func(t *testing.T, work string) *workflows.TurnSettings
		input    map[string]any
		want     string
	}{
		{"allowed without a rule", func(t *testing.T, work string) *workflows.TurnSettings {
			return policy(t, work, permissions.Default, nil, nil, nil)
		}, map[string]any{"stop": true}, "Loop stopped"},
		{"deny rule", func(t *testing.T, work string) *workflows.TurnSettings {
			s := policy(t, work, permissions.Default, nil, nil, nil)
			r, err := permissions.ParseRuleFor(tool.ScheduleWakeupName, func(string) bool { return true }) // as settings files read it
			if err != nil {
				t.Fatal(err)
			}
			s.Permissions.Deny = append(s.Permissions.Deny, r)
			return s
		}, map[string]any{"delaySeconds": 60, "reason": "r", "prompt": "p"}, "ScheduleWakeup is disabled for this session"},
		{"PreToolUse hook", func(t *testing.T, work string) *workflows.TurnSettings {
			return withHooks(group("ScheduleWakeup", "echo 'no sleeping here' >&2; exit 2"), nil, nil)
		}, map[string]any{"delaySeconds": 60, "reason": "r", "prompt": "p"}, "no sleeping here"},
		{"missing delay", func(t *testing.T, work string) *workflows.TurnSettings { return nil },
			map[string]any{"prompt": "p"}, "`delaySeconds` and `reason` are required when `stop` is not true."},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := newAgentHarness(t,
				fakeanthropic.Response{Content: []wire.Block{use("w1", tool.ScheduleWakeupName, c.input)}},
				fakeanthropic.Response{Content: []wire.Block{text("ok")}},
			)
			res := h.result(h.start(workflows.SessionInput{SessionID: "wake-gate", Prompt: "go", Options: fastOptions(), Settings: c.settings(t, h.work)}))
			r := userResults(h.storedMessages(res.Conversation)[2])["w1"]
			if !strings.Contains(r.Content, c.want) || (c.want != "Loop stopped") != r.IsError {
				t.Fatalf("result %+v, want %q", r, c.want)
			}
			if res.StopReason != "end_turn" {
				t.Fatalf("session %+v", res)
			}
		})
	}
}

// wakeupReplayID is the workflow id the wake-up history was recorded under.
const wakeupReplayID = "session-wakeup-replay"

// TestScheduleWakeupReplay replays the recorded session of change scheduled-wakeups
// (a wake-up armed, slept on, fired; then stop: true) and its turns. Record them
// again with TOOLPIPE_RECORD_HISTORY=1 only for a deliberate, versioned change.
func TestScheduleWakeupReplay(t *testing.T) {
	hists := []struct{ path, id string }{
		{"testdata/session_history_wakeup.json", wakeupReplayID},
		{"testdata/turn_history_wakeup.json", wakeupReplayID + "/turn-1"},
	}
	if os.Getenv("TOOLPIPE_RECORD_HISTORY") == "1" {
		h := newAgentHarness(t, wakeupScript()...)
		run, err := h.c.ExecuteWorkflow(testenv.Context(t), client.StartWorkflowOptions{ID: wakeupReplayID, TaskQueue: h.queue},
			contract.SessionWorkflowName, workflows.SessionInput{SessionID: "wakerec", Prompt: "watch CI", Workdir: h.work, Options: fastOptions()})
		if err != nil {
			t.Fatal(err)
		}
		if res := h.result(run); res.Text != "CI passed; loop ended." {
			t.Fatalf("recorded session: %+v", res)
		}
		for _, hist := range hists {
			runID := ""
			if hist.id == wakeupReplayID {
				runID = run.GetRunID()
			}
			testenv.WriteHistory(t, filepath.FromSlash(hist.path), testenv.History(t, h.c, hist.id, runID))
		}
	}
	for _, hist := range hists {
		replayHistory(t, hist.path, hist.id)
	}
}
