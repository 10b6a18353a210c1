package workflows_test

import (
	"slices"
	"testing"

	"github.com/toolpipe/toolpipe/internal/fakeanthropic"
	"github.com/toolpipe/toolpipe/permissions"
	"github.com/toolpipe/toolpipe/wire"
	"github.com/toolpipe/toolpipe/workflows"
)

// A deny rule that names a whole tool disables it: the model is not offered it, as
// in Claude Code; a rule with a specifier leaves the tool offered.
func TestDisabledToolIsNotOffered(t *testing.T) {
	h := newAgentHarness(t, fakeanthropic.Response{Content: []wire.Block{text("Done.")}})
	var pol permissions.Policy
	for _, s := range []string{"Glob", "Bash(rm:*)"} {
		var r permissions.Rule
		if err := r.UnmarshalText([]byte(s)); err != nil {
			t.Fatal(err)
		}
		pol.Deny = append(pol.Deny, r)
	}
	res := h.result(h.start(workflows.SessionInput{Prompt: "hi", Options: fastOptions(),
		Settings: &workflows.TurnSettings{Permissions: &pol}}))
	if res.Text != "Done." {
		t.Fatalf("result %+v", res)
	}
	reqs := h.fake.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests", len(reqs))
	}
	if slices.Contains(reqs[0].Tools, "Glob") || !slices.Contains(reqs[0].Tools, "Bash") || !slices.Contains(reqs[0].Tools, "Grep") {
		t.Fatalf("tools offered: %v; want Bash and Grep without Glob", reqs[0].Tools)
	}
}
