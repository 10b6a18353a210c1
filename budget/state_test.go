package budget

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestCloneIsIndependent(t *testing.T) {
	orig := NewState()
	orig.SeenIDs["a"] = true
	orig.SeenIDs["b"] = true
	orig.Replacements["a"] = "[a]"
	c := orig.Clone()
	if !reflect.DeepEqual(c, orig) {
		t.Fatalf("clone %+v differs from %+v", c, orig)
	}
	c.SeenIDs["c"] = true
	c.Replacements["b"] = "[b]"
	orig.Replacements["a"] = "changed"
	if orig.SeenIDs["c"] || orig.Replacements["b"] != "" || c.Replacements["a"] != "[a]" {
		t.Fatal("clone and original share maps")
	}
}

func TestCloneOfNilIsEmpty(t *testing.T) {
	var s *State
	if c := s.Clone(); c == nil || c.SeenIDs == nil || c.Replacements == nil {
		t.Fatalf("Clone(nil) = %+v", c)
	}
}

func TestCloneRestoresTheInvariant(t *testing.T) {
	// A payload written by something else may hold a replacement it forgot to mark
	// seen, or a false entry; the clone means the same and is canonical.
	s := &State{SeenIDs: map[string]bool{"x": false}, Replacements: map[string]string{"r": "[r]"}}
	c := s.Clone()
	want := &State{SeenIDs: map[string]bool{"r": true}, Replacements: map[string]string{"r": "[r]"}}
	if !reflect.DeepEqual(c, want) {
		t.Fatalf("clone = %+v", c)
	}
}

func TestStateJSONIsStable(t *testing.T) {
	s := NewState()
	for _, id := range []string{"zeta", "alpha", "mid"} {
		s.SeenIDs[id] = true
	}
	s.Replacements["zeta"] = "<persisted-output>\nz\n</persisted-output>"
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"seenIds":{"alpha":true,"mid":true,"zeta":true},` +
		`"replacements":{"zeta":"\u003cpersisted-output\u003e\nz\n\u003c/persisted-output\u003e"}}`
	if string(b) != want {
		t.Fatalf("JSON = %s\nwant   %s", b, want)
	}
	for range 50 {
		again, _ := json.Marshal(s.Clone())
		if string(again) != want {
			t.Fatalf("JSON changed between encodings: %s", again)
		}
	}
	var back State
	if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(&back, s) {
		t.Fatalf("round trip: %+v, %v", back, err)
	}
}

func TestStateDecodedFromEmptyJSONWorks(t *testing.T) {
	var st State
	if err := json.Unmarshal([]byte(`{}`), &st); err != nil {
		t.Fatal(err)
	}
	_, recs := mustEnforce(t, []Message{asst(), user(res("a", 2000))}, &st, cfg1000())
	if len(recs) != 1 || st.Replacements["a"] != "[a]" {
		t.Fatalf("records %v, state %+v", recs, st)
	}
}

func TestRecordJSON(t *testing.T) {
	b, err := json.Marshal(Record{ToolUseID: "toolu_1", Replacement: "[r]"})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"toolUseId":"toolu_1","replacement":"[r]"}`; string(b) != want {
		t.Fatalf("JSON = %s, want %s", b, want)
	}
}
