package budget

import (
	"maps"
	"reflect"
	"slices"
	"testing"

	"github.com/toolpipe/toolpipe/wire"
)

// The property tests drive generated conversations turn by turn, as the Turn workflow
// does: append a round, Enforce the whole conversation, keep the input (the transcript
// holds originals; the output only goes to the model).

const (
	propSeeds  = 200
	propRounds = 14
)

// drive runs seed's conversation for rounds turns and calls step after each Enforce
// with the input, output, records and the state before and after.
func drive(t *testing.T, seed uint64, rounds int, step func(in, out []Message, recs []Record, before, after *State)) {
	t.Helper()
	g := newConvGen(seed)
	cfg := propConfig(seed)
	st := NewState()
	var msgs []Message
	for range rounds {
		msgs = append(msgs, g.round()...)
		before := st.Clone()
		snapshot := deepCopy(msgs)
		out, recs, err := Enforce(msgs, st, cfg)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		// Property 5: the input is never modified.
		if !reflect.DeepEqual(msgs, snapshot) {
			t.Fatalf("seed %d: Enforce modified its input", seed)
		}
		step(msgs, out, recs, before, st)
	}
}

// Property 1: Enforce is idempotent, on its own output and on the same input.
func TestPropIdempotent(t *testing.T) {
	for seed := range uint64(propSeeds) {
		cfg := propConfig(seed)
		drive(t, seed, propRounds, func(in, out []Message, _ []Record, _, after *State) {
			stateJSON := mustJSON(t, after)
			for name, again := range map[string][]Message{"output": out, "input": in} {
				st := after.Clone()
				out2, recs2, err := Enforce(again, st, cfg)
				if err != nil {
					t.Fatal(err)
				}
				if len(recs2) != 0 {
					t.Fatalf("seed %d: Enforce on its %s made %d new records", seed, name, len(recs2))
				}
				if !sameMessages(out2, out) {
					t.Fatalf("seed %d: Enforce on its %s changed the messages", seed, name)
				}
				if got := mustJSON(t, st); got != stateJSON {
					t.Fatalf("seed %d: Enforce on its %s changed the state", seed, name)
				}
			}
		})
	}
}

// Property 2: a clone and a reconstruction make exactly the original's decisions on a
// continued conversation.
func TestPropCloneAndReconstructAgree(t *testing.T) {
	for seed := range uint64(propSeeds) {
		g := newConvGen(seed)
		cfg := propConfig(seed)
		orig := NewState()
		var msgs []Message
		var (
			records []Record
			sent    []Message
		)
		for range propRounds / 2 {
			msgs = append(msgs, g.round()...)
			out, recs, err := Enforce(msgs, orig, cfg)
			if err != nil {
				t.Fatal(err)
			}
			records = append(records, recs...)
			sent = out
		}
		others := map[string]*State{
			"clone":                  orig.Clone(),
			"reconstruct":            Reconstruct(msgs, records, nil),
			"reconstruct(inherited)": Reconstruct(msgs, records, NewState()),
			"reconstruct(output)":    Reconstruct(sent, records, nil),
		}
		want := mustJSON(t, orig)
		for name, st := range others {
			if got := mustJSON(t, st); got != want {
				t.Fatalf("seed %d: %s state differs:\n got %s\nwant %s", seed, name, got, want)
			}
		}
		for range propRounds {
			msgs = append(msgs, g.round()...)
			out, recs, err := Enforce(msgs, orig, cfg)
			if err != nil {
				t.Fatal(err)
			}
			for _, name := range slices.Sorted(maps.Keys(others)) {
				out2, recs2, err := Enforce(msgs, others[name], cfg)
				if err != nil {
					t.Fatal(err)
				}
				if !sameMessages(out2, out) || !slices.Equal(recs2, recs) {
					t.Fatalf("seed %d: %s decided differently", seed, name)
				}
			}
		}
	}
}

// Properties 3 and 4, plus the partition rules: each call is checked against an
// independent account of what it had to do.
func TestPropEachCallObeysTheRules(t *testing.T) {
	for seed := range uint64(propSeeds) {
		cfg := propConfig(seed)
		everRecorded := map[string]string{}
		drive(t, seed, propRounds, func(in, out []Message, recs []Record, before, after *State) {
			if err := checkCall(cfg, before, in, out, recs, after); err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			// Property 4: a replacement, once chosen, is sent byte-identical forever.
			for _, r := range recs {
				if _, dup := everRecorded[r.ToolUseID]; dup {
					t.Fatalf("seed %d: %s recorded twice", seed, r.ToolUseID)
				}
				everRecorded[r.ToolUseID] = r.Replacement
			}
			for i, m := range in {
				for j, b := range m.Blocks {
					r, ok := everRecorded[b.ToolUseID]
					if ok && m.Role == wire.RoleUser && isCandidate(b) && out[i].Blocks[j].Content != r {
						t.Fatalf("seed %d: %s sent as %q, recorded %q", seed, b.ToolUseID, out[i].Blocks[j].Content, r)
					}
				}
			}
		})
	}
}

// Determinism: the same input gives the same bytes, 50 times over, whatever order the
// runtime happens to range over the state's maps in.
func TestDeterminism(t *testing.T) {
	for seed := range uint64(20) {
		g := newConvGen(seed)
		cfg := propConfig(seed)
		st := NewState()
		var msgs []Message
		for range 30 {
			msgs = append(msgs, g.round()...)
			if _, _, err := Enforce(msgs, st, cfg); err != nil {
				t.Fatal(err)
			}
		}
		for range 5 {
			msgs = append(msgs, g.round()...)
		}
		var (
			wantOut []Message
			want    string
		)
		for run := range 50 {
			s := st.Clone()
			out, recs, err := Enforce(msgs, s, cfg)
			if err != nil {
				t.Fatal(err)
			}
			got := mustJSON(t, recs) + mustJSON(t, s) + mustJSON(t, Reconstruct(msgs, recs, s))
			if run == 0 {
				wantOut, want = out, got
			} else if got != want || !sameMessages(out, wantOut) {
				t.Fatalf("seed %d: run %d differs from run 0", seed, run)
			}
		}
	}
}
