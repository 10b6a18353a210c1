package tool

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestMCPNames(t *testing.T) {
	if got := MCPName("my.server", "do thing/now"); got != "mcp__my_server__do_thing_now" {
		t.Fatalf("MCPName: %q", got)
	}
	for name, want := range map[string][2]string{
		"mcp__memory__create_entities": {"memory", "create_entities"},
		"mcp__a__b__c":                 {"a", "b__c"}, // the first "__" after the prefix splits
	} {
		s, tl, ok := ParseMCPName(name)
		if !ok || s != want[0] || tl != want[1] {
			t.Errorf("ParseMCPName(%q) = %q, %q, %v", name, s, tl, ok)
		}
	}
	for _, bad := range []string{"Bash", "mcp__", "mcp__server", "mcp____tool", "mcp__server__"} {
		if _, _, ok := ParseMCPName(bad); ok {
			t.Errorf("ParseMCPName(%q) accepted", bad)
		}
	}
}

func TestMCPSpecDefinition(t *testing.T) {
	ro := MCPSpec{Name: "mcp__s__read", ReadOnly: true,
		InputSchema: json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"}},"required":["q"]}`)}
	d, err := ro.Definition()
	if err != nil {
		t.Fatal(err)
	}
	if !d.IsConcurrencySafe(json.RawMessage(`{"q":"x"}`)) || d.InterruptBehavior() != InterruptCancel ||
		!d.Retryable(json.RawMessage(`{"q":"x"}`)) || d.MaxResultSizeChars() != MCPMaxResultSizeChars {
		t.Fatalf("read-only tool: %+v", d)
	}
	if err := d.ValidateInput(json.RawMessage(`{}`)); err == nil || !strings.HasPrefix(err.Error(), InputValidationError) {
		t.Fatalf("missing required field: %v", err)
	}
	if d.IsConcurrencySafe(json.RawMessage(`{"q":1}`)) {
		t.Fatal("an invalid input counts as safe")
	}

	rw, err := MCPSpec{Name: "mcp__s__write"}.Definition() // no schema: any object
	if err != nil {
		t.Fatal(err)
	}
	if rw.IsConcurrencySafe(json.RawMessage(`{}`)) || rw.InterruptBehavior() != InterruptBlock || rw.Retryable(json.RawMessage(`{}`)) {
		t.Fatalf("tool with side effects: %+v", rw)
	}
	if rw.ValidateInput(json.RawMessage(`{"any":1}`)) != nil || rw.ValidateInput(json.RawMessage(`[1]`)) == nil {
		t.Fatal("the default schema is not 'any object'")
	}

	for _, bad := range []MCPSpec{
		{Name: "Bash"},
		{Name: "mcp__s__t", InputSchema: json.RawMessage(`{"type":"nonsense"}`)},
		{Name: "mcp__s__t", InputSchema: json.RawMessage(`{"$ref":"https://example.com/remote.json"}`)},
		{Name: "mcp__s__t", InputSchema: json.RawMessage(`{`)},
	} {
		if _, err := bad.Definition(); err == nil {
			t.Errorf("%+v compiled", bad)
		}
	}
}

func TestMCPAPITools(t *testing.T) {
	specs := []MCPSpec{{Name: "mcp__s__a", Description: "A."}, {Name: "mcp__s__b", InputSchema: json.RawMessage(`{"type":"object"}`)}}
	reg := MustRegistry(testTool{name: "T"})
	all := reg.APIToolsWithMCP(specs)
	n := len(reg.APITools())
	if len(all) != n+2 || all[n].Name != "mcp__s__a" || string(all[n].InputSchema) != `{"type":"object"}` || all[n+1].Description != "" {
		t.Fatalf("tools %+v", all[n:])
	}
}

// Progress lines and the sibling-cancel message show an MCP call's input, since it
// has no command or path.
func TestDescribeMCPCall(t *testing.T) {
	got := Describe(Block{ID: "m", Name: "mcp__memory__create", Input: json.RawMessage(`{ "name": "alice",  "kind": "person" }`)})
	if want := `mcp__memory__create({"name":"alice","kind":"person"})`; got != want {
		t.Fatalf("Describe = %q, want %q", got, want)
	}
}
