package budget

import (
	"reflect"
	"slices"
	"testing"

	"github.com/toolpipe/toolpipe/internal/preview"
	"github.com/toolpipe/toolpipe/wire"
)

func TestReconstructMarksEverythingSeenAndRestoresRecords(t *testing.T) {
	msgs := []Message{asst(), user(res("a", 10), res("b", 2000)), asst(), user(res("c", 10))}
	st := Reconstruct(msgs, []Record{{"b", "[b]"}}, nil)
	want := &State{
		SeenIDs:      map[string]bool{"a": true, "b": true, "c": true},
		Replacements: map[string]string{"b": "[b]"},
	}
	if !reflect.DeepEqual(st, want) {
		t.Fatalf("state = %+v", st)
	}
}

func TestReconstructIgnoresWhatEnforceIgnores(t *testing.T) {
	preview := wire.Block{Type: wire.BlockToolResult, ToolUseID: "p", Content: preview.Tag + "..."}
	msgs := []Message{{Role: wire.RoleAssistant, Blocks: []wire.Block{res("x", 1)}}, user(preview)}
	if st := Reconstruct(msgs, nil, nil); len(st.SeenIDs) != 0 {
		t.Fatalf("seen = %v", st.SeenIDs)
	}
}

func TestReconstructLaterRecordAndOwnRecordsWin(t *testing.T) {
	parent := NewState()
	parent.SeenIDs["a"] = true
	parent.Replacements["a"] = "parent"
	parentJSON := mustJSON(t, parent)
	st := Reconstruct(nil, []Record{{"a", "first"}, {"a", "second"}}, parent)
	if st.Replacements["a"] != "second" {
		t.Fatalf("replacement = %q", st.Replacements["a"])
	}
	if mustJSON(t, parent) != parentJSON {
		t.Fatal("inherited state was modified")
	}
}

// A fork re-applies replacements it inherited without recording them; on resume only
// the parent's state knows those, so without it the fork would send the full result
// where it had sent the stub, and miss the prompt cache.
func TestReconstructedForkMakesTheForksDecisions(t *testing.T) {
	cfg := cfg1000()
	parent := NewState()
	prefix := []Message{asst(), user(res("p1", 900), res("p2", 900))}
	if _, recs := mustEnforce(t, prefix, parent, cfg); len(recs) != 1 {
		t.Fatalf("parent records = %v", recs)
	}

	fork := parent.Clone()
	forkMsgs := append(slices.Clone(prefix), asst(), user(res("f1", 1500)))
	_, forkRecs := mustEnforce(t, forkMsgs, fork, cfg)

	resumed := Reconstruct(forkMsgs, forkRecs, parent)
	if mustJSON(t, resumed) != mustJSON(t, fork) {
		t.Fatalf("resumed %s\nfork    %s", mustJSON(t, resumed), mustJSON(t, fork))
	}
	next := append(slices.Clone(forkMsgs), asst(), user(res("f2", 800), res("f3", 800)))
	want, wantRecs := mustEnforce(t, next, fork, cfg)
	got, gotRecs := mustEnforce(t, next, resumed, cfg)
	if !reflect.DeepEqual(got, want) || !slices.Equal(gotRecs, wantRecs) {
		t.Fatal("the resumed fork decided differently")
	}

	orphan := Reconstruct(forkMsgs, forkRecs, nil)
	if out, _ := mustEnforce(t, forkMsgs, orphan, cfg); reflect.DeepEqual(out, want[:len(forkMsgs)]) {
		t.Fatal("without the parent the fork should lose the inherited replacement")
	}
}
