package scheduler

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/toolpipe/toolpipe/activities"
	"github.com/toolpipe/toolpipe/tool"
)

func block(id, name string, input any) tool.Block {
	raw, err := json.Marshal(input)
	if err != nil {
		panic(err)
	}
	return tool.Block{ID: id, Name: name, Input: raw}
}

func read(id string) tool.Block {
	return block(id, tool.ReadName, map[string]any{"file_path": "/tmp/" + id})
}
func edit(id string) tool.Block {
	return block(id, tool.EditName, map[string]any{"file_path": "/tmp/" + id, "old_string": "a", "new_string": "b"})
}
func bash(id, cmd string) tool.Block { return block(id, tool.BashName, map[string]any{"command": cmd}) }

func ids(xs []*Tracked) []string {
	var out []string
	for _, x := range xs {
		out = append(out, x.Block.ID)
	}
	return out
}

func mustAdd(t *testing.T, tr *Tracker, bs ...tool.Block) {
	t.Helper()
	for _, b := range bs {
		if _, err := tr.Add(b); err != nil {
			t.Fatal(err)
		}
	}
}

func ok(id string) tool.Result { return tool.Result{ToolUseID: id, Content: "ok " + id} }

// §3.3 + §3.4: safe tools start together; a non-safe tool waits for them and, while it
// waits, nothing after it overtakes it, not even a safe tool.
func TestScanSafeTogetherNonSafeAloneNoOvertaking(t *testing.T) {
	tr := New(activities.Builtins())
	mustAdd(t, tr, read("r1"), read("r2"), edit("e1"), read("r3"))
	if got := ids(tr.Scan()); !slices.Equal(got, []string{"r1", "r2"}) {
		t.Fatalf("first scan started %v, want [r1 r2]", got)
	}
	if got := tr.Scan(); len(got) != 0 {
		t.Fatalf("r3 overtook the queued edit: %v", ids(got))
	}
	tr.Complete("r1", ok("r1"), nil)
	if got := tr.Scan(); len(got) != 0 {
		t.Fatalf("edit started while r2 executes: %v", ids(got))
	}
	tr.Complete("r2", ok("r2"), nil)
	if got := ids(tr.Scan()); !slices.Equal(got, []string{"e1"}) {
		t.Fatalf("after reads: started %v, want [e1]", got)
	}
	if tr.CanExecute(true) {
		t.Fatal("a safe tool may not run beside an executing non-safe one")
	}
	tr.Complete("e1", ok("e1"), nil)
	if got := ids(tr.Scan()); !slices.Equal(got, []string{"r3"}) {
		t.Fatalf("after edit: started %v, want [r3]", got)
	}
}

// §3.4: a queued safe tool that cannot execute does not stop the scan (it is skipped,
// and a later safe one is also blocked for the same reason), but a non-safe one does.
func TestScanSafeBlockedDoesNotStopScan(t *testing.T) {
	tr := New(activities.Builtins())
	mustAdd(t, tr, edit("e1"))
	tr.Scan()
	mustAdd(t, tr, read("r1"), edit("e2"))
	if got := tr.Scan(); len(got) != 0 {
		t.Fatalf("started %v while e1 executes", ids(got))
	}
	tr.Complete("e1", ok("e1"), nil)
	if got := ids(tr.Scan()); !slices.Equal(got, []string{"r1"}) {
		t.Fatalf("started %v, want [r1] (e2 waits for r1)", got)
	}
}

func TestCanExecuteTruthTable(t *testing.T) {
	for _, c := range []struct {
		executing []tool.Block
		safe      bool
		want      bool
	}{
		{nil, true, true}, {nil, false, true},
		{[]tool.Block{read("a")}, true, true}, {[]tool.Block{read("a")}, false, false},
		{[]tool.Block{edit("a")}, true, false}, {[]tool.Block{edit("a")}, false, false},
	} {
		tr := New(activities.Builtins())
		mustAdd(t, tr, c.executing...)
		tr.Scan()
		if got := tr.CanExecute(c.safe); got != c.want {
			t.Errorf("executing %v, safe=%v: CanExecute=%v want %v", ids(tr.Executing()), c.safe, got, c.want)
		}
	}
}

// §3.1: an unknown tool completes at once, safe, with the exact error.
func TestUnknownToolFailsFast(t *testing.T) {
	tr := New(activities.Builtins())
	mustAdd(t, tr, block("u1", "Frobnicate", map[string]any{}))
	x := tr.Get("u1")
	if x.Status != Completed || !x.Safe || x.Result == nil || !x.Result.IsError ||
		x.Result.Content != "<tool_use_error>Error: No such tool available: Frobnicate</tool_use_error>" {
		t.Fatalf("unknown tool tracked as %+v / %+v", x, x.Result)
	}
	if got := ids(tr.Yield()); !slices.Equal(got, []string{"u1"}) {
		t.Fatalf("yield %v", got)
	}
}

// §3.2: safety is computed from the input, and fails closed.
func TestSafetyFromInputFailsClosed(t *testing.T) {
	tr := New(activities.Builtins())
	mustAdd(t, tr,
		bash("ls", "ls -la"),
		bash("push", "git push"),
		block("bad", tool.ReadName, map[string]any{"file_path": 42}),
		block("badbash", tool.BashName, map[string]any{"cmd": "ls"}),
	)
	want := map[string]bool{"ls": true, "push": false, "bad": false, "badbash": false}
	for id, safe := range want {
		if got := tr.Get(id).Safe; got != safe {
			t.Errorf("%s: safe=%v want %v", id, got, safe)
		}
	}
}

// §3.5: results come out in arrival order however tools finish.
func TestYieldInArrivalOrder(t *testing.T) {
	tr := New(activities.Builtins())
	mustAdd(t, tr, read("a"), read("b"), read("c"))
	tr.Scan()
	tr.Complete("c", ok("c"), nil)
	tr.Complete("b", ok("b"), nil)
	if got := tr.Yield(); len(got) != 0 {
		t.Fatalf("yielded %v before a completed", ids(got))
	}
	tr.Complete("a", ok("a"), nil)
	if got := ids(tr.Yield()); !slices.Equal(got, []string{"a", "b", "c"}) {
		t.Fatalf("yielded %v", got)
	}
	if !tr.Done() {
		t.Fatal("not done after yielding all")
	}
}

// §3.6: a Bash error cascades; queued siblings get the synthetic error naming it.
func TestBashErrorCascades(t *testing.T) {
	tr := New(activities.Builtins())
	mustAdd(t, tr, bash("b1", "ls /nope"), bash("b2", "cat x"), edit("e1"))
	tr.Scan()
	cascade, _ := tr.Complete("b1", tool.Result{Content: "ls: no such file", IsError: true}, nil)
	if !cascade {
		t.Fatal("a Bash error must cascade")
	}
	if err := tr.Cancelled("b2"); err != nil {
		t.Fatal(err)
	}
	tr.Scan()
	want := SiblingErrorMessage("Bash(ls /nope)")
	for _, id := range []string{"b2", "e1"} {
		r := tr.Get(id).Result
		if r == nil || !r.IsError || r.Content != want {
			t.Errorf("%s: %+v, want %q", id, r, want)
		}
	}
	// Tools added after the error never run either.
	mustAdd(t, tr, read("late"))
	if got := tr.Scan(); len(got) != 0 || tr.Get("late").Result.Content != want {
		t.Fatalf("late tool: started %v, result %+v", ids(got), tr.Get("late").Result)
	}
}

// §3.6: when two running Bash calls fail one after the other (the second's error
// arrives before the cancellation reaches it), the first error is the cause: the
// second does not cascade again, and queued siblings keep the first call's name.
func TestSecondBashErrorKeepsTheFirstCause(t *testing.T) {
	tr := New(activities.Builtins())
	mustAdd(t, tr, bash("b1", "ls /first"), bash("b2", "ls /second"), edit("e1"))
	if got := ids(tr.Scan()); !slices.Equal(got, []string{"b1", "b2"}) {
		t.Fatalf("started %v, want the two read-only Bash calls together", got)
	}
	if cascade, _ := tr.Complete("b1", tool.Result{Content: "ls: /first: No such file", IsError: true}, nil); !cascade {
		t.Fatal("the first Bash error must cascade")
	}
	if cascade, _ := tr.Complete("b2", tool.Result{Content: "ls: /second: No such file", IsError: true}, nil); cascade {
		t.Fatal("a second Bash error must not cascade again")
	}
	tr.Scan()
	want := SiblingErrorMessage("Bash(ls /first)")
	if r := tr.Get("e1").Result; r == nil || r.Content != want {
		t.Fatalf("queued sibling: %+v, want %q", r, want)
	}
	// b2 keeps its own result: it really ran and failed.
	if r := tr.Get("b2").Result; r == nil || !strings.Contains(r.Content, "/second") {
		t.Fatalf("b2: %+v", r)
	}
}

// §3.6: a non-Bash error cascades nothing.
func TestReadErrorCascadesNothing(t *testing.T) {
	tr := New(activities.Builtins())
	mustAdd(t, tr, read("r1"), read("r2"), edit("e1"))
	tr.Scan()
	if cascade, _ := tr.Complete("r1", tool.Result{Content: "File does not exist", IsError: true}, nil); cascade {
		t.Fatal("a Read error must not cascade")
	}
	tr.Complete("r2", ok("r2"), nil)
	if got := ids(tr.Scan()); !slices.Equal(got, []string{"e1"}) {
		t.Fatalf("after a Read error: started %v", got)
	}
}

// §3.7: interrupt stops cancel tools, lets block tools run; interruptible flag.
func TestInterrupt(t *testing.T) {
	tr := New(activities.Builtins())
	mustAdd(t, tr, read("r1"), read("r2"))
	if tr.Interruptible() {
		t.Fatal("nothing executing: not interruptible")
	}
	tr.Scan()
	if !tr.Interruptible() {
		t.Fatal("only cancel tools executing: interruptible")
	}
	tr2 := New(activities.Builtins())
	mustAdd(t, tr2, edit("e1"), read("r3"), block("w1", tool.WriteName, map[string]any{"file_path": "/tmp/w", "content": "x"}))
	tr2.Scan()
	if tr2.Interruptible() {
		t.Fatal("a block tool executing: not interruptible")
	}
	if got := tr2.Interrupt(); len(got) != 0 {
		t.Fatalf("interrupt cancelled block tools %v", ids(got))
	}
	tr2.Complete("e1", ok("e1"), nil)
	tr2.Scan()
	if r := tr2.Get("r3").Result; r == nil || r.Content != InterruptedMessage {
		t.Fatalf("queued cancel tool after interrupt: %+v", r)
	}
	if tr2.Get("w1").Status != Executing {
		t.Fatalf("queued block tool after interrupt: %s, want executing", tr2.Get("w1").Status)
	}
	if got := ids(tr.Interrupt()); !slices.Equal(got, []string{"r1", "r2"}) {
		t.Fatalf("interrupt cancels %v", got)
	}
	tr.Cancelled("r1")
	if r := tr.Get("r1").Result; r.Content != InterruptedMessage {
		t.Fatalf("cancelled r1: %q", r.Content)
	}
}

func TestDuplicateIDRejected(t *testing.T) {
	tr := New(activities.Builtins())
	mustAdd(t, tr, read("a"))
	if _, err := tr.Add(read("a")); err == nil || !strings.Contains(err.Error(), "duplicate") {
		t.Fatalf("duplicate add: %v", err)
	}
}

func BenchmarkScan(b *testing.B) {
	blocks := make([]tool.Block, 50)
	for i := range blocks {
		if i%5 == 4 {
			blocks[i] = edit(fmt.Sprint("e", i))
		} else {
			blocks[i] = read(fmt.Sprint("r", i))
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		tr := New(activities.Builtins())
		for _, bl := range blocks {
			tr.Add(bl)
		}
		for !tr.Done() {
			for _, x := range tr.Scan() {
				tr.Complete(x.Block.ID, ok(x.Block.ID), nil)
			}
			tr.Yield()
		}
	}
}
