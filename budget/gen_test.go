package budget

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/toolpipe/toolpipe/internal/preview"
	"github.com/toolpipe/toolpipe/wire"
)

// This file generates conversations for the property tests: seeded, so every failure
// names a seed that reproduces it.

const propBudget = 1000

// tagStub is the usual replacement: a <persisted-output> preview, shorter than most
// results that need replacing.
func tagStub(id, content string) string {
	return fmt.Sprintf("%s\nOutput too large (%d B). Full output saved to: /s/%s.txt\n</persisted-output>",
		preview.Tag, len(content), id)
}

// plainStub stays a budget candidate after replacement, which the tagged one does not.
func plainStub(id, content string) string {
	return fmt.Sprintf("[result %s replaced: %d bytes]", id, len(content))
}

// wideStub is sometimes longer than what it replaces, so Enforce must skip it.
func wideStub(id, content string) string {
	return strings.Repeat("~", 150+len(content)%200) + id
}

func readExempt(id string) bool { return strings.HasSuffix(id, "-read") }

// propConfig varies the stub and the exemption with the seed.
func propConfig(seed uint64) Config {
	cfg := Config{BudgetChars: propBudget}
	switch seed % 3 {
	case 0:
		cfg.Stub = tagStub
	case 1:
		cfg.Stub = plainStub
	default:
		cfg.Stub = wideStub
	}
	if seed%2 == 0 {
		cfg.Exempt = readExempt
	}
	return cfg
}

type convGen struct {
	r    *rand.Rand
	next int
	ids  []string // every id produced, for the rare deliberate repeat
}

func newConvGen(seed uint64) *convGen {
	return &convGen{r: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
}

// textPool is the source of all generated text: slicing it costs nothing, and its
// multibyte runes make bytes and runes differ.
var textPool = func() string {
	r := rand.New(rand.NewPCG(1, 2))
	runes := []rune("abcdefghijklmnopqrstuvwxyz0123456789 \n\té世€")
	var sb strings.Builder
	for sb.Len() < 1<<16 {
		sb.WriteRune(runes[r.IntN(len(runes))])
	}
	return sb.String()
}()

// text returns n bytes of the pool from a random offset; cutting through a rune is
// fine, since sizes are bytes.
func (g *convGen) text(n int) string {
	off := g.r.IntN(len(textPool) - n)
	return textPool[off : off+n]
}

func (g *convGen) size() int {
	switch p := g.r.IntN(100); {
	case p < 15: // exact ties, so the tie-break is exercised
		return []int{100, 300, 600}[g.r.IntN(3)]
	case p < 20:
		return 0
	case p < 60:
		return g.r.IntN(200)
	case p < 90:
		return 200 + g.r.IntN(600)
	default:
		return 800 + g.r.IntN(1200)
	}
}

func (g *convGen) newID() string {
	g.next++
	id := fmt.Sprintf("toolu_%04d", g.next)
	if g.r.IntN(10) == 0 {
		id += "-read"
	}
	g.ids = append(g.ids, id)
	return id
}

// result builds one tool_result; now and then it repeats an id or is already a
// persisted preview, the cases a simple model of the world would forget.
func (g *convGen) result(group []string) wire.Block {
	id := ""
	switch p := g.r.IntN(100); {
	case p < 3 && len(group) > 0:
		id = group[g.r.IntN(len(group))]
	case p < 5 && len(g.ids) > 0:
		id = g.ids[g.r.IntN(len(g.ids))]
	default:
		id = g.newID()
	}
	text := g.text(g.size())
	if g.r.IntN(20) == 0 {
		text = preview.Tag + "\npreview\n" + preview.ClosingTag
	}
	return wire.Block{Type: wire.BlockToolResult, ToolUseID: id, Content: text, IsError: g.r.IntN(10) == 0}
}

// round is one assistant turn with its results: sometimes in several consecutive user
// messages (one wire message), sometimes interleaved with a message of another role.
func (g *convGen) round() []Message {
	asst := Message{Role: wire.RoleAssistant, Blocks: []wire.Block{{Type: wire.BlockText, Text: "let me look"}}}
	// A tool_result outside a user message must be ignored.
	if g.r.IntN(10) == 0 {
		asst.Blocks = append(asst.Blocks, wire.Block{Type: wire.BlockToolResult, ToolUseID: g.newID(), Content: g.text(3000)})
	}
	msgs := []Message{asst}
	var group []string
	// A wide turn: many parallel results in one message, past the sizes where the
	// standard library's sorts are stable by accident.
	perMessage := 5
	if g.r.IntN(10) == 0 {
		perMessage = 40
	}
	for range 1 + g.r.IntN(3) {
		if g.r.IntN(8) == 0 {
			msgs = append(msgs, Message{Role: "system", Blocks: []wire.Block{{Type: wire.BlockText, Text: "note"}}})
		}
		user := Message{Role: wire.RoleUser}
		for range g.r.IntN(perMessage) {
			b := g.result(group)
			group = append(group, b.ToolUseID)
			asst.Blocks = append(asst.Blocks, wire.Block{Type: wire.BlockToolUse, ToolUseID: b.ToolUseID})
			user.Blocks = append(user.Blocks, b)
		}
		if g.r.IntN(4) == 0 {
			user.Blocks = append(user.Blocks, wire.Block{Type: wire.BlockText, Text: g.text(500)})
		}
		msgs = append(msgs, user)
	}
	msgs[0] = asst
	return msgs
}

func mustJSON(t testing.TB, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func deepCopy(msgs []Message) []Message {
	if msgs == nil {
		return nil
	}
	c := make([]Message, len(msgs))
	for i, m := range msgs {
		c[i] = Message{Role: m.Role}
		if m.Blocks != nil {
			c[i].Blocks = append([]wire.Block{}, m.Blocks...)
		}
	}
	return c
}

// sameMessages compares byte for byte, faster than encoding both.
func sameMessages(a, b []Message) bool {
	return slices.EqualFunc(a, b, func(x, y Message) bool {
		return x.Role == y.Role && slices.EqualFunc(x.Blocks, y.Blocks, sameBlock)
	})
}

// sameBlock compares every field of two blocks.
func sameBlock(x, y wire.Block) bool {
	return x.Type == y.Type && x.Text == y.Text && x.ID == y.ID && x.Name == y.Name &&
		bytes.Equal(x.Input, y.Input) && x.ToolUseID == y.ToolUseID && x.Content == y.Content && x.IsError == y.IsError
}
