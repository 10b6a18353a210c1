package fleet

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/sdk/client"

	"github.com/toolpipe/toolpipe/contract"
	"github.com/toolpipe/toolpipe/internal/fakeanthropic"
	"github.com/toolpipe/toolpipe/internal/testenv"
	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/wire"
	"github.com/toolpipe/toolpipe/workflows"
)

// lostTurn is the turn during which the session's host is lost.
const lostTurn = 10

// hostLossScript is a 20-turn session: turn k (1..19) appends "t<k>" to the
// side-effect counter (outside the workspace: it is what the test counts) and
// writes f<k>.txt in the workspace; turn 10 appends, says it started, and sleeps
// until its host is killed; the 20th reply ends. Each reply waits for its
// predecessor's result (When), so a model call that is retried gets the same reply.
func hostLossScript(t *testing.T, counter, started string, hold <-chan struct{}) []fakeanthropic.Response {
	var rs []fakeanthropic.Response
	when := "host-loss-prompt"
	for k := 1; k < 20; k++ {
		cmd := fmt.Sprintf("echo t%d >> %s && echo c%d > f%d.txt && echo done-%d-end", k, counter, k, k, k)
		if k == lostTurn {
			cmd = fmt.Sprintf("echo t%d >> %s && touch %s && exec sleep 120", k, counter, started)
		}
		r := fakeanthropic.Response{When: when, Content: []wire.Block{{Type: wire.BlockToolUse, ID: fmt.Sprintf("toolu_b%02d", k), Name: "Bash",
			Input: input(t, map[string]any{"command": cmd})}}}
		if k == lostTurn+1 {
			r.HoldBeforeEnd = hold // the lost host is back before the moved session's next tools
		}
		rs = append(rs, r)
		when = fmt.Sprintf("done-%d-end", k)
		if k == lostTurn {
			when = "interrupted"
		}
	}
	rs = append(rs, fakeanthropic.Response{When: "done-19-end", Content: []wire.Block{wire.TextBlock("all done")}})
	// The session continued later, in a new run: its tools run (not fenced).
	rs = append(rs, fakeanthropic.Response{When: "continue-later", Content: []wire.Block{{Type: wire.BlockToolUse, ID: "toolu_later", Name: "Bash",
		Input: input(t, map[string]any{"command": "echo later > later.txt && echo later-ran"})}}})
	return append(rs, fakeanthropic.Response{When: "later-ran", Content: []wire.Block{wire.TextBlock("later done")}})
}

// Issue 26 item 5: a 20-turn session whose host is SIGKILLed, and its state
// directory and workspace deleted, in the middle of turn 10 continues on another
// host from the checkpoint of turn 9: the interrupted call is reported interrupted,
// no side effect is repeated (each appears once in the counter), the files at the
// end are what the turns wrote (f10 never), the lost host, restarted under its name,
// runs none of the moved session's tools, and a call of the old placement sent to it
// is refused by the fence before it runs.
func TestSessionMovesOffALostHost(t *testing.T) {
	dir := t.TempDir()
	counter, started := filepath.Join(dir, "effects.log"), filepath.Join(dir, "started")
	hold := make(chan struct{})
	t0 := time.Now()
	f := startFleet(t, fakeanthropic.Script{Responses: hostLossScript(t, counter, started, hold)}, 4)
	t.Logf("server and store up in %v", time.Since(t0))
	cmds := map[string]*exec.Cmd{}
	for _, h := range []string{"host-a", "host-b", "host-c"} {
		cmds[h] = f.startHost(h, 4)
		f.hosts = append(f.hosts, h)
	}
	work := filepath.Join(dir, "work")
	if err := os.MkdirAll(work, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(work, "seed.txt"), []byte("seed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	const session = "moving"
	run, err := f.c.ExecuteWorkflow(f.ctx, client.StartWorkflowOptions{ID: "session-" + session, TaskQueue: queue}, contract.SessionWorkflowName,
		workflows.SessionInput{SessionID: session, Prompt: "host-loss-prompt", Workdir: work, Place: true,
			Options: workflows.SessionOptions{MaxTurns: 30, Turn: workflows.TurnOptions{HeartbeatTimeout: 3 * time.Second, HostStartTimeout: 3 * time.Second}}})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("hosts up at %v", time.Since(t0))
	waitFor(t, 60*time.Second, "turn 10's command to start", func() bool { _, err := os.Stat(started); return err == nil })
	t.Logf("turn 10 running at %v", time.Since(t0))
	st := f.state(run.GetID())
	lost := st.Placement.Host
	if st.Placement.Generation != 1 || len(st.Checkpoints) < lostTurn {
		t.Fatalf("before the loss: placement %+v, %d checkpoints", st.Placement, len(st.Checkpoints))
	}
	// The host is lost with its disk: the worker is killed, its state directory and
	// the workspace are gone.
	if err := cmds[lost].Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmds[lost].Wait()
	for _, d := range []string{f.states[lost], work} {
		if err := os.RemoveAll(d); err != nil {
			t.Fatal(err)
		}
	}
	var moved *contract.Placement
	waitFor(t, 60*time.Second, "the session to move", func() bool {
		// A query while the killed host still held the session's workflow in its
		// cache can fail (the server cancels the stream it dispatched there); the
		// next one goes to a live host.
		st, err := f.tryState(run.GetID())
		if err != nil {
			t.Logf("state query while the host is lost: %v", err)
			return false
		}
		moved = st.Placement
		return moved != nil && moved.Generation == 2
	})
	t.Logf("moved to %s at %v", moved.Host, time.Since(t0))
	if moved.Host == lost {
		t.Fatalf("the session moved back onto its lost host %s", lost)
	}
	back := f.startHost(lost, 4) // the lost host comes back, under its name, with an empty disk
	close(hold)
	var res workflows.SessionResult
	if err := run.Get(f.ctx, &res); err != nil || res.Text != "all done" {
		t.Fatalf("session: %+v %v", res, err)
	}

	t.Logf("session done at %v", time.Since(t0))
	// No side effect twice, the interrupted one once.
	got, err := os.ReadFile(counter)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for k := 1; k < 20; k++ {
		want = append(want, fmt.Sprintf("t%d", k))
	}
	if lines := strings.Fields(string(got)); !slices.Equal(lines, want) {
		t.Errorf("side effects:\n%s\nwant each of t1..t19 once, in order", got)
	}
	// The model was told the call was interrupted.
	told := false
	for _, r := range f.fake.Requests() {
		told = told || bytes.Contains(r.Body, []byte(workflows.LostWorkerMessage))
	}
	if !told {
		t.Errorf("no request told the model %q", workflows.LostWorkerMessage)
	}
	// The files are what the turns wrote: the checkpoint of turn 9, then turns 11-19.
	wantFiles := map[string]string{"seed.txt": "seed\n"}
	for k := 1; k < 20; k++ {
		if k != lostTurn {
			wantFiles[fmt.Sprintf("f%d.txt", k)] = fmt.Sprintf("c%d\n", k)
		}
	}
	entries, err := os.ReadDir(work)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != len(wantFiles) {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("workspace holds %v, want %d files", names, len(wantFiles))
	}
	for name, content := range wantFiles {
		if b, err := os.ReadFile(filepath.Join(work, name)); err != nil || string(b) != content {
			t.Errorf("%s = %q %v, want %q", name, b, err, content)
		}
	}
	// The restarted host ran none of the moved session's tools.
	backID := fmt.Sprintf("%d@", back.Process.Pid)
	for k := lostTurn + 1; k < 20; k++ {
		for _, ev := range testenv.History(t, f.c, fmt.Sprintf("session-%s/turn-%d", session, k), "") {
			if a := ev.GetActivityTaskStartedEventAttributes(); a != nil && strings.HasPrefix(a.GetIdentity(), backID) {
				t.Errorf("turn %d's tool ran on the restarted lost host (%s)", k, a.GetIdentity())
			}
		}
	}
	// A call of the old placement that still reaches the lost host is refused there
	// before it runs.
	fenced := filepath.Join(dir, "fenced")
	frun, err := f.c.ExecuteWorkflow(f.ctx, client.StartWorkflowOptions{ID: "stale-call", TaskQueue: queue}, contract.TurnWorkflowName,
		workflows.TurnInput{SessionID: session, Workdir: dir, CloseIntake: true, ToolQueue: contract.HostQueue(queue, lost), Generation: 1,
			Blocks: []tool.Block{{ID: "toolu_stale", Name: "Bash", Input: input(t, map[string]any{"command": "touch " + fenced})}}})
	if err != nil {
		t.Fatal(err)
	}
	var tr workflows.TurnResult
	if err := frun.Get(f.ctx, &tr); err != nil {
		t.Fatal(err)
	}
	if r := tr.Results[0]; !r.IsError || !strings.Contains(r.Content, "has moved to host "+moved.Host) {
		t.Errorf("the stale call's result: %+v", r)
	}
	if _, err := os.Stat(fenced); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the stale call ran on the lost host: %v", err)
	}
	started2 := false
	for _, ev := range testenv.History(t, f.c, "stale-call", "") {
		if ev.GetEventType() == enumspb.EVENT_TYPE_ACTIVITY_TASK_STARTED && strings.HasPrefix(ev.GetActivityTaskStartedEventAttributes().GetIdentity(), backID) {
			started2 = true
		}
	}
	if !started2 {
		t.Errorf("the stale call was not taken by the restarted lost host, so its fence was not tried")
	}

	// The session, continued in a new run, is placed again past the move's
	// generation: its tools are not fenced off as the lost placement's were.
	later, err := f.c.ExecuteWorkflow(f.ctx, client.StartWorkflowOptions{ID: "session-" + session, TaskQueue: queue}, contract.SessionWorkflowName,
		workflows.SessionInput{SessionID: session, Prompt: "continue-later", Workdir: work, Place: true,
			Options: workflows.SessionOptions{MaxTurns: 5, Turn: workflows.TurnOptions{HeartbeatTimeout: 3 * time.Second, HostStartTimeout: 3 * time.Second}}})
	if err != nil {
		t.Fatal(err)
	}
	var lres workflows.SessionResult
	if err := later.Get(f.ctx, &lres); err != nil || lres.Text != "later done" {
		reqs := f.fake.Requests()
		body := string(reqs[len(reqs)-1].Body)
		t.Fatalf("the session continued later: %s %v; the last request says %s", lres.StopReason, err, body[max(0, strings.LastIndex(body, "toolu_later")):min(len(body), strings.LastIndex(body, "toolu_later")+400)])
	}
	if b, err := os.ReadFile(filepath.Join(work, "later.txt")); err != nil || string(b) != "later\n" {
		t.Errorf("the later run's Bash did not run: later.txt = %q %v", b, err)
	}
}

// state is a session's state.
func (f *fleet) state(id string) workflows.SessionState {
	f.t.Helper()
	st, err := f.tryState(id)
	if err != nil {
		f.t.Fatal(err)
	}
	return st
}

// tryState is state for a caller that expects a query to fail for a while.
func (f *fleet) tryState(id string) (workflows.SessionState, error) {
	var st workflows.SessionState
	v, err := f.c.QueryWorkflow(f.ctx, id, "", contract.SessionStateQuery)
	if err != nil {
		return st, err
	}
	return st, v.Get(&st)
}

// waitFor polls cond (a state outside the test's control: processes, files) until
// it holds.
func waitFor(t *testing.T, limit time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waited %v for %s", limit, what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
