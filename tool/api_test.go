package tool

import (
	"encoding/json"
	"testing"
)

// Every registered tool is described to the model with a valid object schema.
func TestAPIToolsCoverRegistry(t *testing.T) {
	tools := APITools()
	if len(tools) != len(Names()) {
		t.Fatalf("%d API tools for %d registered tools", len(tools), len(Names()))
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
