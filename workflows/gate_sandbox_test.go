package workflows_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolpipe/toolpipe/permissions"
	"github.com/toolpipe/toolpipe/sandbox"
	"github.com/toolpipe/toolpipe/tool"
)

// With sandbox.enabled and autoAllowBashIfSandboxed (its default), Bash runs
// without approval in default mode, confined: a write outside the working
// directory fails. An ask rule still asks, and dangerouslyDisableSandbox needs the
// usual approval.
func TestSandboxedBashAutoAllowed(t *testing.T) {
	if _, err := exec.LookPath("bwrap"); err != nil {
		t.Skip("bubblewrap (bwrap) is not installed")
	}
	work, outside := dirs(t)
	on := true
	pol := policy(t, work, permissions.Default, nil, nil, []string{"Bash(rm:*)"})
	pol.Sandbox = &sandbox.Settings{Enabled: &on}
	var results []tool.Result
	for _, b := range []tool.Block{
		bashB("inside", "touch made && echo done"),
		bashB("outside", "touch "+filepath.Join(outside, "escaped")),
		bashB("rule", "rm notes.txt"),
		{ID: "disable", Name: tool.BashName, Input: raw(map[string]any{"command": "touch " + filepath.Join(outside, "disabled"), "dangerouslyDisableSandbox": true})},
	} {
		results = append(results, runGated(t, work, pol, b).Results...)
	}
	if r := byID(results, "inside"); r.IsError || r.Content != "done" {
		t.Errorf("inside: %+v", r)
	}
	if r := byID(results, "outside"); !r.IsError || !strings.Contains(r.Content, "Read-only file system") {
		t.Errorf("outside: %+v", r)
	}
	for _, id := range []string{"rule", "disable"} {
		if r := byID(results, id); !r.IsError || !strings.Contains(r.Content, "nobody answered") {
			t.Errorf("%s: %+v", id, r)
		}
	}
	for _, p := range []string{filepath.Join(outside, "escaped"), filepath.Join(outside, "disabled")} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s was written", p)
		}
	}
	if _, err := os.Stat(filepath.Join(work, "notes.txt")); err != nil {
		t.Error("the asked rm ran")
	}
}
