package tool

import (
	"encoding/json"
	"strings"
	"testing"
)

// deploySpec is a valid custom tool: safe when it only previews.
func deploySpec() CustomSpec {
	return CustomSpec{
		Name: "DeployPreview", Description: "Deploys a preview of a branch.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"branch":{"type":"string"},"dry_run":{"type":"boolean"}},"required":["branch"],"additionalProperties":false}`),
		Interrupt:   InterruptCancel, MaxResultSizeChars: 2_000,
		IsConcurrencySafe: func(in json.RawMessage) bool {
			var v struct {
				DryRun bool `json:"dry_run"`
			}
			return json.Unmarshal(in, &v) == nil && v.DryRun
		},
	}
}

// registered registers d for the test and removes it after.
func registered(t *testing.T, d *Definition) {
	t.Helper()
	if err := Register(d); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		customs.Lock()
		delete(customs.m, d.Name)
		customs.Unlock()
	})
}

func TestNewCustomRefusesBadSpecs(t *testing.T) {
	for _, c := range []struct {
		name   string
		change func(*CustomSpec)
		want   string
	}{
		{"builtin name", func(s *CustomSpec) { s.Name = BashName }, `tool name "Bash" is a built-in tool's`},
		{"mcp prefix", func(s *CustomSpec) { s.Name = "mcp__x__y" }, `starts with "mcp__"`},
		{"bad characters", func(s *CustomSpec) { s.Name = "deploy preview" }, "is not 1-64 letters"},
		{"empty name", func(s *CustomSpec) { s.Name = "" }, "is not 1-64 letters"},
		{"no description", func(s *CustomSpec) { s.Description = "" }, "Description is empty"},
		{"no schema", func(s *CustomSpec) { s.InputSchema = nil }, "InputSchema is empty"},
		{"schema not JSON", func(s *CustomSpec) { s.InputSchema = json.RawMessage(`{`) }, "InputSchema is not a JSON object"},
		{"schema not object", func(s *CustomSpec) { s.InputSchema = json.RawMessage(`{"type":"string"}`) }, `must have "type": "object"`},
		{"schema does not compile", func(s *CustomSpec) {
			s.InputSchema = json.RawMessage(`{"type":"object","properties":{"a":{"type":"nope"}}}`)
		}, "InputSchema does not compile"},
		{"remote reference", func(s *CustomSpec) {
			s.InputSchema = json.RawMessage(`{"type":"object","properties":{"a":{"$ref":"https://example.com/s.json"}}}`)
		}, "InputSchema does not compile"},
		{"negative threshold", func(s *CustomSpec) { s.MaxResultSizeChars = -1 }, "MaxResultSizeChars is -1"},
		{"unlimited threshold", func(s *CustomSpec) { s.MaxResultSizeChars = Unlimited }, "give a positive number"},
		{"bad interrupt", func(s *CustomSpec) { s.Interrupt = "stop" }, `Interrupt is "stop"; use "cancel" or "block"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := deploySpec()
			c.change(&s)
			_, err := NewCustom(s)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want one containing %q", err, c.want)
			}
		})
	}
}

func TestCustomToolIsLookedUpValidatedAndDescribed(t *testing.T) {
	d, err := NewCustom(deploySpec())
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := Lookup("DeployPreview"); ok {
		t.Fatal("known before it was registered")
	}
	registered(t, d)
	got, ok := Lookup("DeployPreview")
	if !ok || got != d || IsBuiltin("DeployPreview") {
		t.Fatalf("Lookup = %v, %v", got, ok)
	}
	if err := got.ValidateInput(json.RawMessage(`{"branch":"main","x":1}`)); err == nil ||
		!strings.Contains(err.Error(), "InputValidationError: DeployPreview failed due to the following issue:\nAn unexpected parameter `x` was provided") {
		t.Fatalf("validation: %v", err)
	}
	if got.IsConcurrencySafe(json.RawMessage(`{"branch":"main"}`)) || !got.IsConcurrencySafe(json.RawMessage(`{"branch":"main","dry_run":true}`)) {
		t.Fatal("IsConcurrencySafe does not follow the spec's function")
	}
	if got.IsConcurrencySafe(json.RawMessage(`{"dry_run":true}`)) {
		t.Fatal("an invalid input counts as safe")
	}
	if s := Describe(Block{Name: "DeployPreview", Input: json.RawMessage(`{"branch":"main"}`)}); s != `DeployPreview({"branch":"main"})` {
		t.Errorf("Describe = %s", s)
	}
	if got.InterruptBehavior() != InterruptCancel || got.MaxResultSizeChars != 2_000 {
		t.Fatalf("interrupt %s, threshold %d", got.InterruptBehavior(), got.MaxResultSizeChars)
	}
	api := APITools()
	last := api[len(api)-1]
	if last.Name != "DeployPreview" || last.Description != "Deploys a preview of a branch." ||
		!strings.HasPrefix(string(last.InputSchema), `{"type":"object","properties":{"branch"`) {
		t.Fatalf("APITools ends with %+v", last)
	}
	if len(api) != len(Names())+1 {
		t.Fatalf("APITools lists %d tools, want the %d built-ins and DeployPreview", len(api), len(Names()))
	}
}

func TestRegisterRefusesAnotherDefinitionUnderATakenName(t *testing.T) {
	d, _ := NewCustom(deploySpec())
	registered(t, d)
	same, _ := NewCustom(deploySpec())
	if err := Register(same); err != nil {
		t.Fatalf("the same contract again: %v", err)
	}
	other := deploySpec()
	other.Description = "Something else."
	od, _ := NewCustom(other)
	if err := Register(od); err == nil || !strings.Contains(err.Error(), `tool "DeployPreview" is already registered with another definition`) {
		t.Fatalf("error %v", err)
	}
	if err := Register(&Definition{Name: "X"}); err == nil {
		t.Fatal("a definition not made by NewCustom was registered")
	}
}

func TestDefaultsOfACustomTool(t *testing.T) {
	s := deploySpec()
	s.Interrupt, s.MaxResultSizeChars, s.IsConcurrencySafe = "", 0, nil
	d, err := NewCustom(s)
	if err != nil {
		t.Fatal(err)
	}
	if d.InterruptBehavior() != InterruptBlock || d.MaxResultSizeChars != DefaultCustomMaxResultSizeChars ||
		d.IsConcurrencySafe(json.RawMessage(`{"branch":"x","dry_run":true}`)) {
		t.Fatalf("defaults: %s %d", d.InterruptBehavior(), d.MaxResultSizeChars)
	}
}
