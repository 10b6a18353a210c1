package budget

import (
	"cmp"
	"errors"
	"fmt"
	"slices"

	"github.com/toolpipe/toolpipe/wire"
)

// DefaultBudgetChars is the reference budget of one wire-level user message: Claude
// Code's MAX_TOOL_RESULTS_PER_MESSAGE_CHARS.
const DefaultBudgetChars = 200_000

// Config parameterises Enforce. Its functions run inside workflow code, so they must
// be pure and deterministic: the same arguments must give the same answer on every
// replay, on every worker.
type Config struct {
	// BudgetChars is the most bytes of budgeted tool results one wire-level user
	// message may carry. Must be positive.
	BudgetChars int

	// Stub returns the text the model sees instead of a replaced result, typically the
	// <persisted-output> preview naming the file the caller will write. Required.
	Stub func(toolUseID, content string) string

	// Exempt, when set, names results the budget must leave alone: neither counted nor
	// ever replaced. Claude Code exempts tools whose threshold is unlimited (Read):
	// replacing their output with "saved to a file, Read it" would loop.
	Exempt func(toolUseID string) bool
}

func (c Config) validate() error {
	if c.BudgetChars <= 0 {
		return fmt.Errorf("budget: BudgetChars must be positive, got %d", c.BudgetChars)
	}
	if c.Stub == nil {
		return errors.New("budget: Config.Stub is nil; it is needed to build replacements")
	}
	return nil
}

func (c Config) exempt(id string) bool { return c.Exempt != nil && c.Exempt(id) }

// Enforce holds every wire-level user message of messages under cfg.BudgetChars and
// returns the messages the model should be sent, with the replacements it decided in
// this call, in the order decided. It updates st in place.
//
// A wire-level user message is a run of consecutive user messages: the API merges
// them, so only an assistant message ends one. In each, a tool result whose id has a
// replacement gets that exact replacement again; one already seen stays as it is,
// whatever the total, since changing it would change bytes the model has seen; one
// never seen is judged now. If the group's total (replacements, seen and new
// results, bytes) is over budget, new results are replaced, largest first and on ties
// the earlier first, by cfg.Stub(id, text) until the group fits or none remain; a stub
// that would not shrink its result is not used. Every new id becomes seen.
//
// Enforce is idempotent: applied again to its output, or to the same input, with the
// updated state, it returns the same messages and no records.
//
// messages is never modified. The returned slice is new, but messages that needed no
// change share their Blocks with the input: treat both as read-only. On error st is
// untouched.
func Enforce(messages []Message, st *State, cfg Config) (out []Message, newRecords []Record, err error) {
	if err := cfg.validate(); err != nil {
		return nil, nil, err
	}
	if st == nil {
		return nil, nil, errors.New("budget: nil *State; use NewState")
	}
	st.ensureMaps()

	// Texts are substituted in one pass at the end, so that each changed message is
	// copied once however many of its results are replaced.
	apply := map[string]string{}
	var fresh []candidate
	for group := range collectGroups(messages).all() {
		total := 0
		fresh = fresh[:0]
		for _, c := range group {
			if r, ok := st.Replacements[c.id]; ok {
				apply[c.id] = r
				total += len(r) * c.count
				continue
			}
			if cfg.exempt(c.id) {
				st.SeenIDs[c.id] = true
				continue
			}
			total += c.size
			if !st.SeenIDs[c.id] {
				st.SeenIDs[c.id] = true
				fresh = append(fresh, c)
			}
		}
		if total <= cfg.BudgetChars || len(fresh) == 0 {
			continue
		}
		// Stable, so equal sizes keep arrival order: no tie is left to chance.
		slices.SortStableFunc(fresh, func(a, b candidate) int { return cmp.Compare(b.size, a.size) })
		for _, c := range fresh {
			if total <= cfg.BudgetChars {
				break
			}
			stub := cfg.Stub(c.id, c.text)
			stubSize := len(stub) * c.count
			if stubSize >= c.size {
				continue // would grow the message; it stays frozen as sent
			}
			total += stubSize - c.size
			st.Replacements[c.id] = stub
			apply[c.id] = stub
			newRecords = append(newRecords, Record{ToolUseID: c.id, Replacement: stub})
		}
	}
	return replaceTexts(messages, apply), newRecords, nil
}

// replaceTexts copies messages with the texts of apply substituted. Only messages that
// change get new Blocks, which keeps an Enforce with nothing new to decide cheap.
func replaceTexts(messages []Message, apply map[string]string) []Message {
	out := slices.Clone(messages) // never the caller's array: appending to out is safe
	if len(apply) == 0 {
		return out
	}
	for i, m := range out {
		if m.Role != wire.RoleUser {
			continue
		}
		copied := false
		for j, b := range m.Blocks {
			r, ok := apply[b.ToolUseID]
			if !ok || !isCandidate(b) || b.Content == r {
				continue
			}
			if !copied {
				m.Blocks = slices.Clone(m.Blocks)
				out[i].Blocks = m.Blocks
				copied = true
			}
			m.Blocks[j].Content = r
		}
	}
	return out
}
