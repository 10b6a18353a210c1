package budget

import (
	"fmt"
	"slices"

	"github.com/toolpipe/toolpipe/wire"
)

// checkCall is the property tests' independent account of one Enforce call: it walks
// the messages itself instead of trusting collectGroups, and derives from the state
// before the call what each budgeted block had to become.
func checkCall(cfg Config, before *State, in, out []Message, recs []Record, after *State) error {
	if len(in) != len(out) {
		return fmt.Errorf("%d messages in, %d out", len(in), len(out))
	}
	recorded := map[string]int{}
	for i, r := range recs {
		if _, dup := recorded[r.ToolUseID]; dup {
			return fmt.Errorf("%s recorded twice in one call", r.ToolUseID)
		}
		if before.SeenIDs[r.ToolUseID] {
			return fmt.Errorf("%s was judged before, yet recorded now", r.ToolUseID)
		}
		if r.Replacement != after.Replacements[r.ToolUseID] {
			return fmt.Errorf("%s: record and state disagree", r.ToolUseID)
		}
		recorded[r.ToolUseID] = i
	}
	seen := before.Clone().SeenIDs
	repl := before.Clone().Replacements

	var (
		order                       []string
		freshIDs                    = map[string]*fresh{}
		inTotal, outTotal, minTotal int
	)
	endGroup := func() error {
		var last *fresh // the group's last replacement
		for _, id := range order {
			f := freshIDs[id]
			minTotal += min(f.size, f.stubSize)
			if f.recordedAt >= 0 && f.stubSize >= f.size {
				return fmt.Errorf("%s: a stub of %d bytes replaced %d", id, f.stubSize, f.size)
			}
			if f.recordedAt >= 0 && (last == nil || f.recordedAt > last.recordedAt) {
				last = f
			}
		}
		switch {
		case minTotal <= cfg.BudgetChars && outTotal > cfg.BudgetChars:
			return fmt.Errorf("group could fit (%d) but was sent with %d", minTotal, outTotal)
		case inTotal <= cfg.BudgetChars && last != nil:
			return fmt.Errorf("group fitted (%d) yet %s was replaced", inTotal, recs[last.recordedAt].ToolUseID)
		case last != nil && outTotal+last.size-last.stubSize <= cfg.BudgetChars:
			return fmt.Errorf("%s was replaced though the group already fitted", recs[last.recordedAt].ToolUseID)
		}
		if err := checkOrder(order, freshIDs); err != nil {
			return err
		}
		for _, id := range order {
			seen[id] = true
			if r, ok := after.Replacements[id]; ok && freshIDs[id].recordedAt >= 0 {
				repl[id] = r
			}
		}
		order, freshIDs = nil, map[string]*fresh{}
		inTotal, outTotal, minTotal = 0, 0, 0
		return nil
	}
	for i, m := range in {
		if len(m.Blocks) != len(out[i].Blocks) || m.Role != out[i].Role {
			return fmt.Errorf("message %d changed shape", i)
		}
		if m.Role == wire.RoleAssistant {
			if err := endGroup(); err != nil {
				return err
			}
		}
		for j, b := range m.Blocks {
			o := out[i].Blocks[j]
			if o.Type != b.Type || o.ToolUseID != b.ToolUseID || o.IsError != b.IsError {
				return fmt.Errorf("block %d/%d changed more than its text", i, j)
			}
			if m.Role != wire.RoleUser || !isCandidate(b) {
				if o.Text != b.Text || o.Content != b.Content {
					return fmt.Errorf("unbudgeted block %d/%d changed", i, j)
				}
				continue
			}
			id := b.ToolUseID
			if r, ok := repl[id]; ok {
				if o.Content != r {
					return fmt.Errorf("%s: replacement not re-applied", id)
				}
				inTotal, outTotal, minTotal = inTotal+len(r), outTotal+len(r), minTotal+len(r)
				continue
			}
			if cfg.Exempt != nil && cfg.Exempt(id) || seen[id] {
				if o.Content != b.Content {
					return fmt.Errorf("%s: exempt or frozen result changed", id)
				}
				if !(cfg.Exempt != nil && cfg.Exempt(id)) {
					inTotal, outTotal, minTotal = inTotal+len(b.Content), outTotal+len(b.Content), minTotal+len(b.Content)
				}
				continue
			}
			f := freshIDs[id]
			if f == nil {
				f = &fresh{first: b.Content, recordedAt: -1}
				if k, ok := recorded[id]; ok {
					f.recordedAt = k
				}
				freshIDs[id] = f
				order = append(order, id)
			}
			f.size += len(b.Content)
			f.n++
			f.stubSize = f.n * len(cfg.Stub(id, f.first))
			want := b.Content
			if f.recordedAt >= 0 {
				want = cfg.Stub(id, f.first)
			}
			if o.Content != want {
				return fmt.Errorf("%s: sent %q, want %q", id, o.Content, want)
			}
			inTotal += len(b.Content)
			outTotal += len(o.Content)
		}
	}
	if err := endGroup(); err != nil {
		return err
	}
	for id := range seen {
		if !after.SeenIDs[id] {
			return fmt.Errorf("%s should be seen after the call", id)
		}
	}
	for id := range after.Replacements {
		if !after.SeenIDs[id] {
			return fmt.Errorf("%s replaced but not seen", id)
		}
	}
	if len(after.Replacements) != len(before.Replacements)+len(recs) {
		return fmt.Errorf("replacements grew by %d, records %d",
			len(after.Replacements)-len(before.Replacements), len(recs))
	}
	return nil
}

// checkOrder verifies largest first, earlier first on ties: walking the group's new
// results in that order, everything before the last replaced one was replaced, unless
// its stub would not have shrunk it.
func checkOrder(order []string, byID map[string]*fresh) error {
	sorted := slices.Clone(order)
	slices.SortStableFunc(sorted, func(a, b string) int { return byID[b].size - byID[a].size })
	lastRec, prevAt := -1, -1
	for i, id := range sorted {
		if at := byID[id].recordedAt; at >= 0 {
			if at < prevAt {
				return fmt.Errorf("%s recorded out of largest-first order", id)
			}
			lastRec, prevAt = i, at
		}
	}
	for _, id := range sorted[:lastRec+1] {
		if f := byID[id]; f.recordedAt < 0 && f.stubSize < f.size {
			return fmt.Errorf("%s (%d bytes) was passed over for a smaller result", id, f.size)
		}
	}
	return nil
}

// fresh is what checkCall tracks about one new id of a group.
type fresh struct {
	first      string
	size, n    int
	stubSize   int
	recordedAt int
}
