package workflows_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"
	"go.temporal.io/sdk/temporal"

	"github.com/toolpipe/toolpipe/contract"
	"github.com/toolpipe/toolpipe/conversation"
	"github.com/toolpipe/toolpipe/internal/fakeanthropic"
	"github.com/toolpipe/toolpipe/internal/testenv"
	"github.com/toolpipe/toolpipe/persistence"
	"github.com/toolpipe/toolpipe/wire"
	"github.com/toolpipe/toolpipe/workflows"
)

// rewindScript is the scripted session of issue 30: turns 1-2 look around, turn 3
// writes a file with Write, turn 4 deletes another with rm (Bash), turn 5 edits a
// third, then the model answers; then the answers of the prompts that follow.
func rewindScript(work string, more ...string) []fakeanthropic.Response {
	rs := []fakeanthropic.Response{
		{Content: []wire.Block{use("u1", "Bash", map[string]any{"command": "ls"})}},
		{Content: []wire.Block{use("u2", "Read", map[string]any{"file_path": filepath.Join(work, "edit.txt")})}},
		{Content: []wire.Block{use("u3", "Write", map[string]any{"file_path": filepath.Join(work, "new.txt"), "content": "written in turn 3\n"})}},
		{Content: []wire.Block{use("u4", "Bash", map[string]any{"command": "rm gone.txt"})}},
		{Content: []wire.Block{use("u5", "Edit", map[string]any{"file_path": filepath.Join(work, "edit.txt"), "old_string": "before", "new_string": "after turn 5"})}},
		{Content: []wire.Block{text("All five turns done.")}},
	}
	for _, t := range more {
		rs = append(rs, fakeanthropic.Response{Content: []wire.Block{text(t)}})
	}
	return rs
}

// rewindHarness runs the prompts of one session under one workflow id, as
// `starter agent` does, so that a rewind reaches its running or closed session.
type rewindHarness struct {
	*agentHarness
	id string
	// checkpoints: prompts take workspace checkpoints; scope is what rewinds take back.
	checkpoints bool
	scope       conversation.RewindScope
}

func newRewindHarness(t *testing.T, more ...string) *rewindHarness {
	h := newIdleAgentHarness(t)
	os.WriteFile(filepath.Join(h.work, "gone.txt"), []byte("deleted in turn 4\n"), 0o644)
	os.WriteFile(filepath.Join(h.work, "edit.txt"), []byte("before\n"), 0o644)
	h.runScript(fakeanthropic.Script{Responses: rewindScript(h.work, more...)})
	return &rewindHarness{agentHarness: h, id: "session-rw-" + h.queue}
}

// prompt runs one prompt of session sid to its end.
func (h *rewindHarness) prompt(sid, text string, opts workflows.SessionOptions) workflows.SessionResult {
	h.t.Helper()
	run, err := h.c.ExecuteWorkflow(testenv.Context(h.t), client.StartWorkflowOptions{
		ID: h.id + "-" + sid, TaskQueue: h.queue, WorkflowIDReusePolicy: enumspb.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE,
	}, contract.SessionWorkflowName, workflows.SessionInput{SessionID: sid, Prompt: text, Workdir: h.work, Options: opts, Checkpoints: h.checkpoints})
	if err != nil {
		h.t.Fatal(err)
	}
	return h.result(run)
}

// rewind sends RewindUpdate with the start of a run that serves it, as the Go API
// does: a running session takes it, a closed one gets a control run.
func (h *rewindHarness) rewind(sid string, target conversation.RewindTarget) (workflows.RewindResult, error) {
	h.t.Helper()
	ctx := testenv.Context(h.t)
	op := h.c.NewWithStartWorkflowOperation(client.StartWorkflowOptions{
		ID: h.id + "-" + sid, TaskQueue: h.queue, WorkflowIDReusePolicy: enumspb.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE,
		WorkflowIDConflictPolicy: enumspb.WORKFLOW_ID_CONFLICT_POLICY_USE_EXISTING,
	}, contract.SessionWorkflowName, workflows.SessionInput{SessionID: sid, Workdir: h.work, Control: &workflows.SessionControl{Rewind: true}})
	up, err := h.c.UpdateWithStartWorkflow(ctx, client.UpdateWithStartWorkflowOptions{StartWorkflowOperation: op,
		UpdateOptions: client.UpdateWorkflowOptions{UpdateName: workflows.RewindUpdate, WaitForStage: client.WorkflowUpdateStageCompleted,
			Args: []any{workflows.RewindArgs{Target: target, By: "tester@host", Scope: h.scope}}}})
	var res workflows.RewindResult
	if err == nil {
		err = up.Get(ctx, &res)
	}
	return res, err
}

func (h *rewindHarness) head(sid string) conversation.Head {
	h.t.Helper()
	convs, err := persistence.NewConversations(h.state)
	if err != nil {
		h.t.Fatal(err)
	}
	head, _, err := convs.ReadHead(sid)
	if err != nil {
		h.t.Fatal(err)
	}
	return head
}

// holds reports whether a request's messages have a tool_use block of id.
func holds(req fakeanthropic.Request, id string) bool {
	for _, m := range req.Messages {
		for _, b := range m.Content {
			if b.Type == wire.BlockToolUse && b.ID == id {
				return true
			}
		}
	}
	return false
}

// The scripted session (continued as new every two model calls, so that turn 1's
// point is in an earlier run than the rewind): its history has a mark per call;
// a rewind to before turn 4 takes the conversation back (the next prompt's request
// ends at turn 3's results), is recorded with who asked, and LATEST restores the
// end byte for byte. The rewound turns stay in the store.
func TestRewindConversation(t *testing.T) {
	h := newRewindHarness(t, "Answered after the rewind.", "Answered at the latest.")
	opts := fastOptions()
	opts.ContinueAsNewEvery = 2
	res := h.prompt("s1", "Do the five turns", opts)
	if res.StopReason != "end_turn" {
		t.Fatalf("first prompt: %+v", res)
	}
	end := h.head("s1")
	convs, _ := persistence.NewConversations(h.state)
	marks, err := convs.Turns("s1")
	if err != nil || len(marks) != 6 {
		t.Fatalf("history: %d marks, %v; want one per model call", len(marks), err)
	}
	for i, m := range marks[:5] {
		if m.Turn != i+1 || m.CallCount != 1 || m.Before.Len() >= m.After.Len() {
			t.Fatalf("mark %d: %+v", i, m)
		}
	}
	if marks[0].Prompt != "Do the five turns" || marks[1].Prompt != "" || !slices.Equal(marks[2].Files, []string{filepath.Join(h.work, "new.txt")}) ||
		marks[3].Calls[0] != "Bash(rm gone.txt)" || marks[5].Turn != 0 || marks[5].Text != "All five turns done." {
		t.Fatalf("marks %+v", marks)
	}
	if marks[0].Before.Len() != 0 {
		t.Fatalf("before turn 1 is %d messages, want none (the prompt goes back too)", marks[0].Before.Len())
	}

	rw, err := h.rewind("s1", conversation.RewindTarget{Turn: 4})
	if err != nil {
		t.Fatalf("rewind: %v", err)
	}
	if rw.Mark == nil || rw.Mark.Turn != 4 || rw.Messages != marks[3].Before.Len() || rw.Dropped != end.Conversation.Len()-rw.Messages || rw.By != "tester@host" {
		t.Fatalf("rewind result %+v", rw)
	}
	if got := h.head("s1"); !slices.Equal(got.Conversation.Refs(), marks[3].Before.Refs()) || got.Next != end.Next {
		t.Fatalf("head after the rewind %+v, want turn 4's before %+v", got, marks[3].Before)
	}
	recs, _ := convs.Rewinds("s1")
	if len(recs) != 1 || recs[0].By != "tester@host" || recs[0].At.IsZero() || !slices.Equal(recs[0].From.Refs(), end.Conversation.Refs()) {
		t.Fatalf("rewinds %+v", recs)
	}
	// The rewind is in the session's history: a run that served the update.
	if hist := h.history(h.id + "-s1"); !strings.Contains(hist, workflows.RewindUpdate) || !strings.Contains(hist, "tester@host") {
		t.Fatal("the rewind is not in the session's history")
	}

	// LATEST undoes it: the end, byte for byte.
	if _, err := h.rewind("s1", conversation.RewindTarget{Latest: true}); err != nil {
		t.Fatalf("rewind to LATEST: %v", err)
	}
	if got := h.head("s1"); !slices.Equal(got.Conversation, end.Conversation) {
		t.Fatalf("head after LATEST %+v, want %+v", got.Conversation, end.Conversation)
	}
	// Rewound twice, LATEST is still the end.
	for _, to := range []int{4, 2} {
		if _, err := h.rewind("s1", conversation.RewindTarget{Turn: to}); err != nil {
			t.Fatal(err)
		}
	}
	recs, _ = convs.Rewinds("s1")
	if last := recs[len(recs)-1]; !slices.Equal(last.Latest, end.Conversation) {
		t.Fatalf("after two rewinds LATEST is %+v, want the end %+v", last.Latest, end.Conversation)
	}
	if _, err := h.rewind("s1", conversation.RewindTarget{Turn: 4}); err != nil {
		t.Fatal(err)
	}

	// The next prompt's request ends at turn 3: its results, then the prompt.
	res = h.prompt("s1", "Try again from turn 3", fastOptions())
	if res.Text != "Answered after the rewind." {
		t.Fatalf("prompt after the rewind: %+v", res)
	}
	reqs := h.fake.Requests()
	last, turn4 := reqs[len(reqs)-1], reqs[3]
	if !holds(last, "u3") || holds(last, "u4") || holds(last, "u5") || strings.Contains(string(last.Body), "All five turns done.") {
		t.Fatalf("the request after the rewind has the rewound turns: %s", last.Body)
	}
	a, b := rawMessages(t, turn4), rawMessages(t, last)
	if len(b) < len(a) {
		t.Fatalf("the request after the rewind has %d messages, turn 4's had %d", len(b), len(a))
	}
	for i := range a[:len(a)-1] {
		if stripCacheControl(a[i]) != stripCacheControl(b[i]) {
			t.Fatalf("message %d differs from turn 4's request:\n%s\n%s", i, a[i], b[i])
		}
	}
	if !strings.Contains(string(b[len(b)-1]), "Try again from turn 3") {
		t.Fatalf("the last message is %s", b[len(b)-1])
	}
	// The session went on: LATEST has nothing to undo, and says so.
	_, err = h.rewind("s1", conversation.RewindTarget{Latest: true})
	var appErr *temporal.ApplicationError
	if !errors.As(err, &appErr) || appErr.Type() != contract.ErrBadRewind || !strings.Contains(err.Error(), "went on after its last rewind") {
		t.Fatalf("LATEST after going on: %v", err)
	}
	// The rewound turns are still reachable: after turn 5 is the old end but its answer.
	if _, err := h.rewind("s1", conversation.RewindTarget{Turn: 5, After: true}); err != nil {
		t.Fatal(err)
	}
	if got := h.head("s1"); !slices.Equal(got.Conversation.Refs(), marks[4].After.Refs()) {
		t.Fatalf("after turn 5: %+v, want %+v", got.Conversation, marks[4].After)
	}
}

// Bad input changes nothing: a turn past the end, a session never stored.
func TestRewindBadInput(t *testing.T) {
	h := newRewindHarness(t)
	h.prompt("s1", "Do the five turns", fastOptions())
	before := h.head("s1")
	_, err := h.rewind("s1", conversation.RewindTarget{Turn: 9})
	if err == nil || !strings.Contains(err.Error(), "turns 1 to 5, not 9") {
		t.Fatalf("rewind past the end: %v", err)
	}
	if got := h.head("s1"); !slices.Equal(got.Conversation, before.Conversation) {
		t.Fatal("a refused rewind changed the head")
	}
	if _, err := h.rewind("nobody", conversation.RewindTarget{Turn: 1}); err == nil || !strings.Contains(err.Error(), "no conversation") {
		t.Fatalf("rewind of a session never stored: %v", err)
	}
	if _, err := h.rewind("s1", conversation.RewindTarget{Turn: 0}); err == nil || !strings.Contains(err.Error(), "numbered from 1") {
		t.Fatalf("rewind to turn 0: %v", err)
	}
}

// fork makes session sid a fork of parent at target, with a run that does only that.
func (h *rewindHarness) fork(sid, parent string, target conversation.RewindTarget) (workflows.SessionResult, error) {
	h.t.Helper()
	run, err := h.c.ExecuteWorkflow(testenv.Context(h.t), client.StartWorkflowOptions{
		ID: h.id + "-" + sid, TaskQueue: h.queue, WorkflowIDReusePolicy: enumspb.WORKFLOW_ID_REUSE_POLICY_ALLOW_DUPLICATE,
	}, contract.SessionWorkflowName, workflows.SessionInput{SessionID: sid, Workdir: h.work,
		Control: &workflows.SessionControl{Fork: &workflows.ForkFrom{Parent: parent, Target: target}}})
	if err != nil {
		h.t.Fatal(err)
	}
	var res workflows.SessionResult
	err = run.Get(testenv.Context(h.t), &res)
	return res, err
}

// A fork at turn 3 starts from the parent's conversation before turn 3; then both
// go on with different prompts and neither's conversation has the other's turns.
// The parent is untouched; a fork onto a session that exists is refused.
func TestForkAtTurn(t *testing.T) {
	h := newRewindHarness(t, "the fork answers", "the parent answers")
	h.prompt("s1", "Do the five turns", fastOptions())
	parentEnd := h.head("s1")
	res, err := h.fork("s2", "s1", conversation.RewindTarget{Turn: 3})
	if err != nil || res.StopReason != workflows.StopForked {
		t.Fatalf("fork: %+v, %v", res, err)
	}
	convs, _ := persistence.NewConversations(h.state)
	marks, _ := convs.Turns("s1")
	if got := h.head("s2"); !slices.Equal(got.Conversation.Refs(), marks[2].Before.Refs()) || got.Parent != "s1" || got.ForkedAt != 3 {
		t.Fatalf("fork's head %+v", got)
	}
	if hist := h.history(h.id + "-s2"); !strings.Contains(hist, workflows.MemoParentSession) {
		t.Fatal("the fork's run has no parent_session memo")
	}
	if r := h.prompt("s2", "Fork: go another way", fastOptions()); r.Text != "the fork answers" {
		t.Fatalf("fork's prompt: %+v", r)
	}
	if got := h.head("s2"); got.Parent != "s1" || got.ForkedAt != 3 {
		t.Fatalf("the fork's head lost its parent once it went on: %+v", got)
	}
	if r := h.prompt("s1", "Parent: go on", fastOptions()); r.Text != "the parent answers" {
		t.Fatalf("parent's prompt: %+v", r)
	}
	reqs := h.fake.Requests()
	forkReq, parentReq := reqs[len(reqs)-2], reqs[len(reqs)-1]
	if !holds(forkReq, "u2") || holds(forkReq, "u3") || holds(forkReq, "u4") || strings.Contains(string(forkReq.Body), "Parent: go on") {
		t.Fatalf("the fork's request: %s", forkReq.Body)
	}
	if !holds(parentReq, "u5") || strings.Contains(string(parentReq.Body), "Fork: go another way") {
		t.Fatalf("the parent's request: %s", parentReq.Body)
	}
	if got := h.head("s1"); !got.Conversation.IsPrefix(parentEnd.Conversation) || got.Conversation.Len() <= parentEnd.Conversation.Len() {
		t.Fatalf("the parent's conversation changed: %+v", got.Conversation)
	}
	// Onto an existing session: refused, nothing changed.
	before := h.head("s2")
	_, err = h.fork("s2", "s1", conversation.RewindTarget{Turn: 2})
	var appErr *temporal.ApplicationError
	if !errors.As(err, &appErr) || appErr.Type() != contract.ErrSessionExists {
		t.Fatalf("fork onto an existing session: %v", err)
	}
	if got := h.head("s2"); !slices.Equal(got.Conversation, before.Conversation) {
		t.Fatal("a refused fork changed the session")
	}
	if _, err := h.fork("s3", "s1", conversation.RewindTarget{Turn: 7}); err == nil || !strings.Contains(err.Error(), "not 7") {
		t.Fatalf("fork past the end: %v", err)
	}
}

// A rewind while a turn runs interrupts it first: the Bash stops, its results are
// stored, the prompt ends, and then the conversation goes back.
func TestRewindInterruptsARunningTurn(t *testing.T) {
	h := newIdleAgentHarness(t)
	h.runScript(runningScript())
	rh := &rewindHarness{agentHarness: h, id: "session-rw-" + h.queue}
	run := rh.startRunning(t, "s1")
	rw, err := rh.rewind("s1", conversation.RewindTarget{Turn: 2})
	if err != nil || !rw.Interrupted || rw.Mark == nil || rw.Mark.Turn != 2 {
		t.Fatalf("rewind of a running turn: %+v, %v", rw, err)
	}
	res := h.result(run)
	if res.StopReason != workflows.StopInterrupted {
		t.Fatalf("the prompt ended %+v", res)
	}
	convs, _ := persistence.NewConversations(h.state)
	marks, _ := convs.Turns("s1")
	if got := rh.head("s1"); len(marks) != 2 || !slices.Equal(got.Conversation.Refs(), marks[1].Before.Refs()) || !slices.Equal(res.Conversation.Refs(), marks[1].Before.Refs()) {
		t.Fatalf("head %+v, result %+v, marks %+v", got.Conversation, res.Conversation, marks)
	}
	if n := len(h.fake.Requests()); n != 2 {
		t.Fatalf("%d model calls, want 2 (none after the interrupt)", n)
	}
}

// runningScript's turn 2 runs until it is interrupted.
func runningScript() fakeanthropic.Script {
	return fakeanthropic.Script{Responses: []fakeanthropic.Response{
		{Content: []wire.Block{use("u1", "Bash", map[string]any{"command": "echo one"})}},
		{Content: []wire.Block{use("u2", "Bash", map[string]any{"command": "touch started; sleep 60"})}},
		{Content: []wire.Block{text("never asked")}},
	}}
}

// startRunning starts session sid on runningScript and returns once its turn 2's
// Bash has started.
func (h *rewindHarness) startRunning(t *testing.T, sid string) client.WorkflowRun {
	t.Helper()
	run, err := h.c.ExecuteWorkflow(testenv.Context(t), client.StartWorkflowOptions{ID: h.id + "-" + sid, TaskQueue: h.queue},
		contract.SessionWorkflowName, workflows.SessionInput{SessionID: sid, Prompt: "go", Workdir: h.work, Options: fastOptions()})
	if err != nil {
		t.Fatal(err)
	}
	poll(t, "turn 2's Bash to start", func() bool {
		_, err := os.Stat(filepath.Join(h.work, "started"))
		return err == nil
	})
	return run
}
