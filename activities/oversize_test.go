package activities

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolpipe/toolpipe/tool"
)

// An input over its tool's limit is dropped, and the block fails validation with
// the error the whole input gets; inputs within the limit are kept as they are.
// Names this process does not know get the largest limit any tool has.
func TestDropOversizeInput(t *testing.T) {
	big := json.RawMessage(`{"file_path":"/tmp/x","content":"` + strings.Repeat("a", maxContentInputBytes) + `"}`)
	for _, c := range []struct {
		name  string
		input json.RawMessage
		drop  bool
	}{
		{tool.WriteName, big, true},
		{tool.BashName, json.RawMessage(`{"command":"` + strings.Repeat("x", maxShortInputBytes) + `"}`), true},
		{tool.BashName, json.RawMessage(`{"command":"ls"}`), false},
		{"mcp__srv__tool", big, true},
		{"NoSuchTool", json.RawMessage(`{"a":"` + strings.Repeat("x", maxShortInputBytes) + `"}`), false},
	} {
		b := Builtins().DropOversizeInput(tool.Block{ID: "t1", Name: c.name, Input: c.input})
		if dropped := b.Input == nil && b.InputBytes == len(c.input); dropped != c.drop {
			t.Fatalf("%s (%d bytes): dropped %v, want %v", c.name, len(c.input), dropped, c.drop)
		}
		if !c.drop || !isBuiltin(c.name) {
			continue
		}
		def := builtin(t, c.name)
		whole, dropped := def.ValidateInput(c.input), def.ValidateBlock(b)
		if whole == nil || dropped == nil || whole.Error() != dropped.Error() {
			t.Fatalf("%s: whole input: %v; dropped: %v", c.name, whole, dropped)
		}
	}
}
