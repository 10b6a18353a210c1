package toolpipe

import (
	"encoding/json"
	"testing"

	"github.com/toolpipe/toolpipe/tool"
)

func blk(id, name, input string) tool.Block {
	return tool.Block{ID: id, Name: name, Input: json.RawMessage(input)}
}

// TestTurnIDHasNoSeparatorAmbiguity: one id holding the old separator must not name
// the turn of the two ids it joins.
func TestTurnIDHasNoSeparatorAmbiguity(t *testing.T) {
	one := turnID("s", []tool.Block{blk("p\nq", "Bash", `{}`)})
	two := turnID("s", []tool.Block{blk("p", "Bash", `{}`), blk("q", "Bash", `{}`)})
	if one == two {
		t.Fatalf("[\"p\\nq\"] and [\"p\",\"q\"] share the turn id %s", one)
	}
	if a, b := turnID("s", []tool.Block{blk("ab", "", `{}`), blk("c", "", `{}`)}), turnID("s", []tool.Block{blk("a", "", `{}`), blk("bc", "", `{}`)}); a == b {
		t.Fatalf("[ab c] and [a bc] share the turn id %s", a)
	}
	if turnID("s", []tool.Block{blk("x", "Bash", `{"command":"a"}`)}) != turnID("s", []tool.Block{blk("x", "Read", `{}`)}) {
		t.Error("the turn id must depend on the ids only (a streamed turn is named before its input is known)")
	}
}

// TestMessageDigestCoversTheMessage: the same ids with another name or input are
// another message; whitespace in the input is not.
func TestMessageDigestCoversTheMessage(t *testing.T) {
	base := messageDigest([]tool.Block{blk("toolu_01", "Bash", `{"command": "ls"}`)})
	if got := messageDigest([]tool.Block{blk("toolu_01", "Bash", `{"command":"ls"}`)}); got != base {
		t.Error("whitespace in the input changed the digest")
	}
	for name, other := range map[string][]tool.Block{
		"input": {blk("toolu_01", "Bash", `{"command":"rm -rf x"}`)},
		"name":  {blk("toolu_01", "Read", `{"command":"ls"}`)},
		"more":  {blk("toolu_01", "Bash", `{"command":"ls"}`), blk("toolu_02", "Bash", `{}`)},
		"split": {blk("toolu_0", "1Bash", `{"command":"ls"}`)},
	} {
		if messageDigest(other) == base {
			t.Errorf("%s: a different message has the same digest", name)
		}
	}
}
