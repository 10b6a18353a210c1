package activities

import (
	"encoding/json"
	"testing"

	"github.com/toolpipe/toolpipe/tool"
)

// Every registered tool is described to the model with a valid object schema.
func TestAPIToolsCoverRegistry(t *testing.T) {
	tools := Builtins().APITools()
	if len(tools) != len(Builtins().Names()) {
		t.Fatalf("%d API tools for %d registered tools", len(tools), len(Builtins().Names()))
	}
	for _, at := range tools {
		var s struct {
			Type string `json:"type"`
		}
		if at.Description == "" || json.Unmarshal(at.InputSchema, &s) != nil || s.Type != "object" {
			t.Errorf("%s: description %q, schema %.60s", at.Name, at.Description, at.InputSchema)
		}
	}
}

// builtin is the built-in tool named name.
func builtin(t testing.TB, name string) *tool.Definition {
	t.Helper()
	d, ok := Builtins().Lookup(name)
	if !ok {
		t.Fatalf("no built-in tool %s", name)
	}
	return d
}

func isBuiltin(name string) bool { _, ok := Builtins().Lookup(name); return ok }
