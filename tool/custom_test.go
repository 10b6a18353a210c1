package tool

import (
	"context"
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
		Run: func(context.Context, Call) (Output, error) { return Output{Content: "deployed"}, nil },
	}
}

func TestNewCustomRefusesBadSpecs(t *testing.T) {
	for _, c := range []struct {
		name   string
		change func(*CustomSpec)
		want   string
	}{
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
		{"no function", func(s *CustomSpec) { s.Run = nil }, "Run is nil"},
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

// A custom tool goes into a registry like any other: it is looked up there only,
// validated, scheduled by its own rule and described to the model.
func TestCustomToolIsLookedUpValidatedAndDescribed(t *testing.T) {
	custom, err := NewCustom(deploySpec())
	if err != nil {
		t.Fatal(err)
	}
	base := MustRegistry(testTool{name: "Zeta"})
	if _, ok := base.Lookup("DeployPreview"); ok {
		t.Fatal("known before it was added")
	}
	reg, err := base.With(custom)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := base.Lookup("DeployPreview"); ok {
		t.Fatal("With changed the registry it was called on")
	}
	got, ok := reg.Lookup("DeployPreview")
	if !ok || got.IsBuiltin() || got.Tool() != custom {
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
	if s := reg.Describe(Block{Name: "DeployPreview", Input: json.RawMessage(`{"branch":"main"}`)}); s != `DeployPreview({"branch":"main"})` {
		t.Errorf("Describe = %s", s)
	}
	if s := got.Summary(json.RawMessage(`{"branch":"main"}`)); s != "DeployPreview" {
		t.Errorf("Summary = %s", s)
	}
	if got.InterruptBehavior() != InterruptCancel || got.MaxResultSizeChars() != 2_000 || got.Timeout(nil) != DefaultTimeout {
		t.Fatalf("interrupt %s, threshold %d", got.InterruptBehavior(), got.MaxResultSizeChars())
	}
	if a := got.Access(json.RawMessage(`{"branch":"x","dry_run":true}`)); a.Kind != AccessOther || !a.ReadOnly {
		t.Fatalf("a safe call's access: %+v", a)
	}
	api := reg.APITools()
	if len(api) != 2 || api[0].Name != "DeployPreview" || api[0].Description != "Deploys a preview of a branch." ||
		!strings.HasPrefix(string(api[0].InputSchema), `{"type":"object","properties":{"branch"`) || api[1].Name != "Zeta" {
		t.Fatalf("APITools = %+v", api)
	}
	out, err := got.Run(context.Background(), Call{})
	if err != nil || out.Content != "deployed" {
		t.Fatalf("Run = %+v, %v", out, err)
	}
}

// A registry holds each name once, and a built-in tool's name is not a program's.
func TestRegistryRefusesTakenNames(t *testing.T) {
	custom, _ := NewCustom(deploySpec())
	reg := MustRegistry(testTool{name: "Bash", builtin: true}, custom)
	for _, c := range []struct {
		tool Tool
		want string
	}{
		{custom, `tool "DeployPreview" is given twice`},
		{testTool{name: "Bash"}, `tool name "Bash" is a built-in tool's`},
		{testTool{name: "mcp__s__t"}, `starts with "mcp__"`},
		{testTool{name: "two words"}, "is not 1-64 letters"},
		{nil, "a nil tool"},
	} {
		if _, err := reg.With(c.tool); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("With(%v): %v, want %q", c.tool, err, c.want)
		}
	}
}

// A program's tool's fingerprint is its contract; a built-in tool's is its name,
// so that a new description in a new release fails no running turn.
func TestFingerprint(t *testing.T) {
	a, _ := NewCustom(deploySpec())
	other := deploySpec()
	other.Description = "Something else."
	b, _ := NewCustom(other)
	if MustCompile(a).Fingerprint() == MustCompile(b).Fingerprint() {
		t.Fatal("two contracts, one fingerprint")
	}
	x, y := testTool{name: "T", builtin: true, description: "one"}, testTool{name: "T", builtin: true, description: "two"}
	if MustCompile(x).Fingerprint() != MustCompile(y).Fingerprint() {
		t.Fatal("a built-in tool's fingerprint changed with its description")
	}
}

func TestDefaultsOfACustomTool(t *testing.T) {
	s := deploySpec()
	s.Interrupt, s.MaxResultSizeChars, s.IsConcurrencySafe = "", 0, nil
	ct, err := NewCustom(s)
	if err != nil {
		t.Fatal(err)
	}
	d := MustCompile(ct)
	if d.InterruptBehavior() != InterruptBlock || d.MaxResultSizeChars() != DefaultMaxResultSizeChars ||
		d.IsConcurrencySafe(json.RawMessage(`{"branch":"x","dry_run":true}`)) || d.MaxInputBytes() != MaxBlockInputBytes {
		t.Fatalf("defaults: %s %d", d.InterruptBehavior(), d.MaxResultSizeChars())
	}
}

// testTool is a minimal tool for the registry's tests.
type testTool struct {
	Base
	name, description string
	builtin           bool
	panics            bool
}

func (t testTool) Spec() Spec {
	return Spec{Name: t.name, Description: t.description + ".", Builtin: t.builtin,
		InputSchema: `{"type":"object","properties":{"x":{"type":"string"}}}`}
}

func (t testTool) IsConcurrencySafe(json.RawMessage) bool {
	if t.panics {
		panic("boom")
	}
	return true
}

func (t testTool) Run(context.Context, Call) (Output, error) { return Output{}, nil }

// A tool that panics deciding its safety makes the call unsafe instead of crashing
// the workflow.
func TestIsConcurrencySafeFailsClosedOnPanic(t *testing.T) {
	for _, builtin := range []bool{true, false} {
		d := MustCompile(testTool{name: "P", builtin: builtin, panics: true})
		if d.IsConcurrencySafe(json.RawMessage(`{"x":"y"}`)) {
			t.Fatal("a panicking check was taken as safe")
		}
	}
}
