package permissions_test

import (
	"testing"

	"github.com/toolpipe/toolpipe/permissions"
	"github.com/toolpipe/toolpipe/tool"
)

// A tool's own answer (tool.Access.Own) decides where no deny or ask rule does:
// the task list runs in plan mode and asks nobody; ExitPlanMode asks in every
// mode, bypassPermissions too, and dontAsk denies it; a deny rule still wins.
func TestToolsOwnDecision(t *testing.T) {
	deny, err := permissions.ParseRuleFor("TaskCreate", func(string) bool { return true })
	if err != nil {
		t.Fatal(err)
	}
	allow := permissions.Request{Tool: "TaskCreate", Kind: tool.AccessOther, ReadOnly: true, Own: tool.OwnAllow}
	ask := permissions.Request{Tool: "ExitPlanMode", Kind: tool.AccessOther, ReadOnly: true, Own: tool.OwnAsk, OwnReason: "the plan"}
	for _, c := range []struct {
		req  permissions.Request
		pol  permissions.Policy
		want permissions.Behavior
	}{
		{allow, permissions.Policy{Mode: permissions.Plan}, permissions.Allow},
		{allow, permissions.Policy{Mode: permissions.Default}, permissions.Allow},
		{allow, permissions.Policy{Mode: permissions.DontAsk}, permissions.Allow},
		{allow, permissions.Policy{Mode: permissions.Plan, Deny: []permissions.Rule{deny}}, permissions.Deny},
		{ask, permissions.Policy{Mode: permissions.Plan}, permissions.Ask},
		{ask, permissions.Policy{Mode: permissions.BypassPermissions}, permissions.Ask},
		{ask, permissions.Policy{Mode: permissions.DontAsk}, permissions.Deny},
	} {
		d := permissions.Decide(c.req, c.pol)
		if d.Behavior != c.want {
			t.Errorf("%s in %s: %s (%s), want %s", c.req.Tool, c.pol.Mode, d.Behavior, d.Reason, c.want)
		}
		if c.want == permissions.Ask && d.Reason != "the plan" {
			t.Errorf("%s asks with %q, want the tool's reason", c.req.Tool, d.Reason)
		}
	}
}
