package workflows_test

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/toolpipe/toolpipe/hooks"
	"github.com/toolpipe/toolpipe/permissions"
	"github.com/toolpipe/toolpipe/sandbox"
	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/workflows"
)

// probeWritable is a read-only command (the classifier passes it) that tells
// whether it runs in the read-only sandbox: there the working directory is not
// writable, and the turn's worker is not among the processes it sees.
const probeWritable = `[ -w notes.txt ] && echo writable || echo readonly; ps -e -o comm= | grep -c workflows.test; true`

func probeB(id string, disable bool) tool.Block {
	in := map[string]any{"command": probeWritable}
	if disable {
		in["dangerouslyDisableSandbox"] = true
	}
	return tool.Block{ID: id, Name: tool.BashName, Input: raw(in)}
}

// A Bash command that runs without approval only because it was classified
// read-only runs in the read-only sandbox in every mode that does not allow
// everything (plan, default, acceptEdits, dontAsk), with or without
// dangerouslyDisableSandbox, and with the write sandbox's settings (even
// excludedCommands) on top. One that an allow rule, a PreToolUse hook, a
// PermissionRequest hook (the approval) or bypassPermissions let run is
// unsandboxed, as before.
func TestReadOnlyCommandsRunInTheReadOnlySandbox(t *testing.T) {
	if _, err := exec.LookPath("bwrap"); err != nil {
		t.Skip("bubblewrap (bwrap) is not installed")
	}
	work, _ := dirs(t)
	sandboxed := "readonly\n0"
	for _, mode := range []permissions.Mode{permissions.Plan, permissions.Default, permissions.AcceptEdits, permissions.DontAsk} {
		s := policy(t, work, mode, nil, nil, nil)
		res := runGated(t, work, s, probeB("plain", false), probeB("disable", true))
		for _, id := range []string{"plain", "disable"} {
			if r := byID(res.Results, id); r.IsError || r.Content != sandboxed {
				t.Errorf("%s, %s: %+v", mode, id, r)
			}
		}
	}
	on := true
	s := policy(t, work, permissions.Default, nil, nil, nil)
	s.Sandbox = &sandbox.Settings{Enabled: &on, ExcludedCommands: []string{"["}}
	if r := runGated(t, work, s, probeB("excluded", true)).Results[0]; r.IsError || r.Content != sandboxed {
		t.Errorf("with the write sandbox's settings: %+v", r)
	}

	unsandboxed := func(what string, s *workflows.TurnSettings, b tool.Block) {
		t.Helper()
		if r := runGated(t, work, s, b).Results[0]; r.IsError || !strings.HasPrefix(r.Content, "writable\n") || strings.HasSuffix(r.Content, "\n0") {
			t.Errorf("%s: %+v", what, r)
		}
	}
	unsandboxed("bypassPermissions", policy(t, work, permissions.BypassPermissions, nil, nil, nil), probeB("b", false))
	unsandboxed("an allow rule", policy(t, work, permissions.Default, []string{"Bash"}, nil, nil), probeB("b", false))
	s = policy(t, work, permissions.Default, nil, nil, nil)
	s.Hooks = hooks.Config{PreToolUse: group("Bash", `echo '{"hookSpecificOutput":{"permissionDecision":"allow"}}'`)}
	unsandboxed("a PreToolUse hook's allow", s, probeB("b", false))
	// An ask rule makes the read-only command ask; the PermissionRequest hook
	// approves it.
	s = policy(t, work, permissions.Default, nil, nil, []string{"Bash([:*)"})
	s.Hooks = hooks.Config{PermissionRequest: group("Bash", `echo '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}'`)}
	unsandboxed("an approval", s, probeB("b", false))
}
