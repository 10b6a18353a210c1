package budget

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/toolpipe/toolpipe/internal/preview"
	"github.com/toolpipe/toolpipe/wire"
)

// Which blocks the budget governs, and how they are grouped into wire messages.

func TestPersistedPreviewsAreNotBudgeted(t *testing.T) {
	preview := wire.Block{Type: wire.BlockToolResult, ToolUseID: "p",
		Content: preview.Tag + strings.Repeat("x", 5000)}
	msgs := []Message{asst(), user(preview, res("a", 900))}
	st := NewState()
	out, recs := mustEnforce(t, msgs, st, cfg1000())
	if len(recs) != 0 || !reflect.DeepEqual(out, msgs) || st.SeenIDs["p"] {
		t.Fatalf("a persisted preview was budgeted: %v %+v", recs, st)
	}
}

func TestOnlyUserMessagesAreBudgeted(t *testing.T) {
	odd := Message{Role: wire.RoleAssistant, Blocks: []wire.Block{res("x", 5000)}}
	msgs := []Message{odd, {Role: wire.RoleUser, Blocks: []wire.Block{{Type: wire.BlockText, Text: strings.Repeat("t", 5000)}}}}
	st := NewState()
	out, recs := mustEnforce(t, msgs, st, cfg1000())
	if len(recs) != 0 || !reflect.DeepEqual(out, msgs) || len(st.SeenIDs) != 0 {
		t.Fatal("a tool_result outside a user message, or a text block, was budgeted")
	}
}

func TestConsecutiveUserMessagesShareOneBudget(t *testing.T) {
	split := []Message{asst(), user(res("a", 600)), {Role: "system"}, user(res("b", 600))}
	_, recs := mustEnforce(t, split, NewState(), cfg1000())
	if got := ids(recs); !slices.Equal(got, []string{"a"}) {
		t.Fatalf("one wire message of 1200 bytes: replaced %v, want [a]", got)
	}
	separate := []Message{asst(), user(res("a", 600)), asst(), user(res("b", 600))}
	if _, recs := mustEnforce(t, separate, NewState(), cfg1000()); len(recs) != 0 {
		t.Fatalf("two wire messages of 600 bytes: replaced %v", ids(recs))
	}
}

func TestARepeatedIDIsJudgedOnce(t *testing.T) {
	msgs := []Message{asst(), user(res("d", 600), res("e", 500), res("d", 100))}
	st := NewState()
	out, recs := mustEnforce(t, msgs, st, cfg1000())
	// d weighs 700 in all and goes first; both its blocks get the one stub.
	if got := ids(recs); !slices.Equal(got, []string{"d"}) {
		t.Fatalf("replaced %v, want [d]", got)
	}
	if got := texts(out); got[0] != "[d]" || got[2] != "[d]" {
		t.Fatalf("texts = %v", got)
	}
}

func TestARepeatedIDIsJudgedOnceInAWideGroup(t *testing.T) {
	// Past linearScanMax candidates the repeat is found by hashing instead.
	var blocks []wire.Block
	for i := range 2 * linearScanMax {
		blocks = append(blocks, res(fmt.Sprintf("w%02d", i), 10))
	}
	blocks = append(blocks, res("w05", 2000), res("w40", 5))
	st := NewState()
	out, recs := mustEnforce(t, []Message{asst(), user(blocks...)}, st, cfg1000())
	if got := ids(recs); !slices.Equal(got, []string{"w05"}) {
		t.Fatalf("replaced %v, want [w05]", got)
	}
	if got := texts(out); got[5] != "[w05]" || got[len(got)-2] != "[w05]" || len(got[len(got)-1]) != 5 {
		t.Fatal("a repeated id's blocks do not share one fate")
	}
}

func TestAnIDRepeatedInALaterWideGroupIsFrozenThere(t *testing.T) {
	wide := func(prefix string, extra ...wire.Block) Message {
		var blocks []wire.Block
		for i := range linearScanMax + 1 {
			blocks = append(blocks, res(fmt.Sprintf("%s%02d", prefix, i), 10))
		}
		return user(append(blocks, extra...)...)
	}
	msgs := []Message{asst(), wide("a", res("k", 10)), asst(), wide("b", res("k", 990))}
	_, recs := mustEnforce(t, msgs, NewState(), cfg1000())
	// In the second group k is already judged: it counts (1320 bytes in all) but
	// cannot go, so every newcomer does.
	if len(recs) != linearScanMax+1 || slices.Contains(ids(recs), "k") {
		t.Fatalf("replaced %v", ids(recs))
	}
}
