package budget

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/toolpipe/toolpipe/wire"
)

// One unit test per rule of Enforce; the property tests cover their combinations.

func shortStub(id, _ string) string { return "[" + id + "]" }

func res(id string, n int) wire.Block {
	return wire.Block{Type: wire.BlockToolResult, ToolUseID: id, Content: strings.Repeat("x", n)}
}

func user(blocks ...wire.Block) Message { return Message{Role: wire.RoleUser, Blocks: blocks} }

func asst() Message {
	return Message{Role: wire.RoleAssistant, Blocks: []wire.Block{{Type: wire.BlockText, Text: "calling tools"}}}
}

func cfg1000() Config { return Config{BudgetChars: 1000, Stub: shortStub} }

func mustEnforce(t *testing.T, msgs []Message, st *State, cfg Config) ([]Message, []Record) {
	t.Helper()
	out, recs, err := Enforce(msgs, st, cfg)
	if err != nil {
		t.Fatal(err)
	}
	return out, recs
}

// texts lists the text of every tool_result, in order, for compact assertions.
func texts(msgs []Message) []string {
	var ts []string
	for _, m := range msgs {
		for _, b := range m.Blocks {
			if b.Type == wire.BlockToolResult {
				ts = append(ts, b.Content)
			}
		}
	}
	return ts
}

func ids(recs []Record) []string {
	var s []string
	for _, r := range recs {
		s = append(s, r.ToolUseID)
	}
	return s
}

func TestUnderBudgetNothingIsReplacedButAllIsSeen(t *testing.T) {
	msgs := []Message{asst(), user(res("a", 400), res("b", 600))} // exactly at the budget
	st := NewState()
	out, recs := mustEnforce(t, msgs, st, cfg1000())
	if len(recs) != 0 || !reflect.DeepEqual(out, msgs) {
		t.Fatalf("a message at the budget was changed: %v", recs)
	}
	if !st.SeenIDs["a"] || !st.SeenIDs["b"] || len(st.Replacements) != 0 {
		t.Fatalf("state = %+v", st)
	}
}

func TestLargestFreshIsReplacedFirstUntilItFits(t *testing.T) {
	msgs := []Message{asst(), user(res("a", 300), res("b", 700), res("c", 500))}
	st := NewState()
	out, recs := mustEnforce(t, msgs, st, cfg1000())
	if want := []Record{{"b", "[b]"}}; !slices.Equal(recs, want) {
		t.Fatalf("records = %v, want %v", recs, want)
	}
	if got := texts(out); got[1] != "[b]" || len(got[0]) != 300 || len(got[2]) != 500 {
		t.Fatalf("texts = %v", got)
	}
	if st.Replacements["b"] != "[b]" || !st.SeenIDs["a"] || !st.SeenIDs["b"] || !st.SeenIDs["c"] {
		t.Fatalf("state = %+v", st)
	}
}

func TestTiesAreBrokenByArrivalOrder(t *testing.T) {
	// More results than the standard library sorts stably by accident.
	var blocks []wire.Block
	for i := range 40 {
		blocks = append(blocks, res(fmt.Sprintf("t%02d", i), 100))
	}
	_, recs := mustEnforce(t, []Message{asst(), user(blocks...)}, NewState(), cfg1000())
	// 4000 bytes; each replacement saves 95, so 32 must go, the first 32 to arrive.
	var want []string
	for i := range 32 {
		want = append(want, fmt.Sprintf("t%02d", i))
	}
	if got := ids(recs); !slices.Equal(got, want) {
		t.Fatalf("replaced %v, want %v", got, want)
	}
}

func TestFrozenResultsAreNeverReplacedLater(t *testing.T) {
	st := NewState()
	msgs := []Message{asst(), user(res("a", 800))}
	mustEnforce(t, msgs, st, cfg1000())
	// The same wire message grows (a second user message before any assistant one):
	// a is frozen, so only the newcomer may go, although a is the larger.
	msgs = append(msgs, user(res("b", 300)))
	out, recs := mustEnforce(t, msgs, st, cfg1000())
	if got := ids(recs); !slices.Equal(got, []string{"b"}) {
		t.Fatalf("replaced %v, want [b]", got)
	}
	if len(texts(out)[0]) != 800 {
		t.Fatal("frozen result changed")
	}
}

func TestFrozenOverBudgetIsAccepted(t *testing.T) {
	st := NewState()
	msgs := []Message{asst(), user(res("a", 1500))}
	mustEnforce(t, msgs, st, Config{BudgetChars: 2000, Stub: shortStub})
	// A smaller budget later (an operator change) cannot touch what was sent whole.
	out, recs := mustEnforce(t, msgs, st, cfg1000())
	if len(recs) != 0 || !reflect.DeepEqual(out, msgs) {
		t.Fatal("a frozen result was replaced")
	}
}

func TestReplacementIsReappliedFromStateNotRecomputed(t *testing.T) {
	st := NewState()
	msgs := []Message{asst(), user(res("a", 1200))}
	_, recs := mustEnforce(t, msgs, st, cfg1000())
	if len(recs) != 1 {
		t.Fatalf("records = %v", recs)
	}
	// A changed stub (a new worker version, say) must not change what the model
	// was already sent.
	other := Config{BudgetChars: 1000, Stub: func(id, _ string) string { return "different " + id }}
	out, recs := mustEnforce(t, msgs, st, other)
	if len(recs) != 0 || texts(out)[0] != "[a]" {
		t.Fatalf("re-applied %q, records %v", texts(out)[0], recs)
	}
}

func TestReplacementsCountTowardTheTotal(t *testing.T) {
	st := NewState()
	st.SeenIDs["r"] = true
	st.Replacements["r"] = strings.Repeat("s", 600)
	msgs := []Message{asst(), user(res("r", 5000), res("f", 500))}
	// 600 (replacement) + 500 > 1000, so the fresh one goes.
	_, recs := mustEnforce(t, msgs, st, cfg1000())
	if got := ids(recs); !slices.Equal(got, []string{"f"}) {
		t.Fatalf("replaced %v, want [f]", got)
	}
}

func TestStubThatWouldGrowTheResultIsNotUsed(t *testing.T) {
	long := func(id, _ string) string { return strings.Repeat("L", 400) + id }
	st := NewState()
	msgs := []Message{asst(), user(res("big", 900), res("small", 300))}
	out, recs := mustEnforce(t, msgs, st, Config{BudgetChars: 1000, Stub: long})
	if got := ids(recs); !slices.Equal(got, []string{"big"}) {
		t.Fatalf("replaced %v, want [big]", got)
	}
	if len(texts(out)[1]) != 300 || !st.SeenIDs["small"] {
		t.Fatal("small should stay whole, and be frozen")
	}
}

func TestExemptResultsAreNeitherCountedNorReplaced(t *testing.T) {
	cfg := cfg1000()
	cfg.Exempt = func(id string) bool { return id == "read" }
	st := NewState()
	msgs := []Message{asst(), user(res("read", 5000), res("a", 900))}
	out, recs := mustEnforce(t, msgs, st, cfg)
	if len(recs) != 0 || !reflect.DeepEqual(out, msgs) {
		t.Fatalf("replaced %v", ids(recs))
	}
	if !st.SeenIDs["read"] {
		t.Fatal("an exempt result must be seen, so Reconstruct agrees")
	}
}

func TestEnforceIsIdempotent(t *testing.T) {
	msgs := []Message{asst(), user(res("a", 700), res("b", 700))}
	st := NewState()
	out, _ := mustEnforce(t, msgs, st, cfg1000())
	for _, again := range [][]Message{out, msgs} {
		out2, recs := mustEnforce(t, again, st, cfg1000())
		if len(recs) != 0 || !reflect.DeepEqual(out2, out) {
			t.Fatalf("second Enforce changed something: %v", recs)
		}
	}
}

func TestEnforceDoesNotModifyItsInput(t *testing.T) {
	msgs := []Message{asst(), user(res("a", 700), res("b", 700)), asst(), user(res("c", 10))}
	orig := deepCopy(msgs)
	out, _ := mustEnforce(t, msgs, NewState(), cfg1000())
	if !reflect.DeepEqual(msgs, orig) {
		t.Fatal("input modified")
	}
	out = append(out, user(res("z", 1)))
	out[1].Blocks[1].Content = "scribble" // a changed message owns its blocks
	if !reflect.DeepEqual(msgs, orig) {
		t.Fatal("output aliases the input where it changed")
	}
}

func TestEmptyConversation(t *testing.T) {
	out, recs, err := Enforce(nil, NewState(), cfg1000())
	if err != nil || out != nil || recs != nil {
		t.Fatalf("got %v %v %v", out, recs, err)
	}
}

func TestInvalidArgumentsAreErrors(t *testing.T) {
	msgs := []Message{asst(), user(res("a", 2000))}
	cases := map[string]struct {
		st  *State
		cfg Config
	}{
		"zero budget":     {NewState(), Config{BudgetChars: 0, Stub: shortStub}},
		"negative budget": {NewState(), Config{BudgetChars: -1, Stub: shortStub}},
		"nil stub":        {NewState(), Config{BudgetChars: 1000}},
		"nil state":       {nil, cfg1000()},
	}
	for name, c := range cases {
		out, recs, err := Enforce(msgs, c.st, c.cfg)
		if err == nil || !strings.HasPrefix(err.Error(), "budget: ") {
			t.Errorf("%s: err = %v, want a budget: error", name, err)
		}
		if out != nil || recs != nil || (c.st != nil && (len(c.st.SeenIDs) != 0 || len(c.st.Replacements) != 0)) {
			t.Errorf("%s: output or state changed on error", name)
		}
	}
}
