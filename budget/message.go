package budget

import (
	"iter"
	"strings"

	"github.com/toolpipe/toolpipe/internal/preview"
	"github.com/toolpipe/toolpipe/wire"
)

// Message is one conversation message, in the order the model sees them. Only the
// tool_result blocks of user messages are budgeted; their text is the block's
// Content, as on the wire.
type Message struct {
	Role   string       `json:"role"`
	Blocks []wire.Block `json:"blocks"`
}

// isCandidate reports whether the budget governs b. A result that opens with
// preview.Tag was already persisted by the per-result threshold (DESIGN §4): it
// is a short preview of a file on disk, and replacing it would persist the preview
// instead of the output, so, as in Claude Code, it is neither counted nor replaced.
// Enforce and Reconstruct must agree on it exactly, or a reconstructed state would
// judge results the original froze.
func isCandidate(b wire.Block) bool {
	return b.Type == wire.BlockToolResult && !strings.HasPrefix(b.Content, preview.Tag)
}

// candidate is one tool_use id in one group. The id, not the block, is the unit of
// judgement: should an id repeat, all of its blocks share one fate, so a second Enforce
// cannot find an unjudged copy of something it already judged.
type candidate struct {
	id    string
	text  string // the first block's text: what the stub describes
	size  int    // bytes of all its blocks in the group
	count int    // how many blocks carry the id in the group
}

// groups holds the candidates of every wire-level user message in one slice, so a
// call allocates a handful of times however long the conversation is.
type groups struct {
	cands []candidate
	ends  []int // group i is cands[ends[i-1]:ends[i]]
}

// all yields each group's candidates, in arrival order.
func (g groups) all() iter.Seq[[]candidate] {
	return func(yield func([]candidate) bool) {
		start := 0
		for _, end := range g.ends {
			if !yield(g.cands[start:end]) {
				return
			}
			start = end
		}
	}
}

// collectGroups returns the candidates of each wire-level user message. The Anthropic
// API takes alternating roles, so consecutive user messages reach the model as one
// message (Claude Code merges them in normalizeMessagesForAPI): they must share one
// budget, or N parallel results sent as N messages would each pass alone and together
// blow it. Only an assistant message starts a new group; other roles are not sent as
// messages of their own.
func collectGroups(messages []Message) groups {
	var c collector
	for _, m := range messages {
		switch m.Role {
		case wire.RoleAssistant:
			c.flush()
		case wire.RoleUser:
			for _, b := range m.Blocks {
				if isCandidate(b) {
					c.add(b)
				}
			}
		}
	}
	c.flush()
	return c.groups
}

// linearScanMax is the group size up to which finding a repeated id by scanning beats
// hashing; parallel tool calls rarely come in larger numbers.
const linearScanMax = 32

// collector builds groups, merging the blocks of an id that repeats within a group.
type collector struct {
	groups
	start   int            // first candidate of the current group
	index   map[string]int // id -> candidate, once the group outgrows a scan
	indexed bool
}

func (c *collector) add(b wire.Block) {
	cur := c.cands[c.start:]
	if !c.indexed && len(cur) > linearScanMax {
		if c.index == nil {
			c.index = make(map[string]int, 2*len(cur))
		}
		for i, x := range cur {
			c.index[x.id] = c.start + i
		}
		c.indexed = true
	}
	at, found := -1, false
	if c.indexed {
		at, found = c.index[b.ToolUseID]
	} else {
		for i := range cur {
			if cur[i].id == b.ToolUseID {
				at, found = c.start+i, true
				break
			}
		}
	}
	if found {
		c.cands[at].size += len(b.Content)
		c.cands[at].count++
		return
	}
	if c.indexed {
		c.index[b.ToolUseID] = len(c.cands)
	}
	c.cands = append(c.cands, candidate{id: b.ToolUseID, text: b.Content, size: len(b.Content), count: 1})
}

func (c *collector) flush() {
	if len(c.cands) > c.start {
		c.ends = append(c.ends, len(c.cands))
		c.start = len(c.cands)
	}
	if c.indexed {
		clear(c.index)
		c.indexed = false
	}
}
