package main

import (
	"strings"
	"testing"

	"github.com/spf13/pflag"

	"github.com/toolpipe/toolpipe/internal/config"
	"github.com/toolpipe/toolpipe/workflows"
)

// Every key is a flag of the commands that run tools (the README says so): `starter
// agent` lacked --ask-timeout and the WebFetch keys (issue 32 item 4). thresholds and
// prices are maps, and trusted-workspaces a list that --trust and the terminal's
// question add to: all read from the user's file only. host and max-sessions are a
// fleet worker's (cmd/worker: placement), not a starter's.
func TestRunAndAgentHaveAFlagForEveryKey(t *testing.T) {
	for name, fs := range map[string]*pflag.FlagSet{"run": runCmd().Flags(), "agent": agentCmd().Flags()} {
		for _, k := range config.Keys() {
			if k == config.KeyThresholds || k == config.KeyPrices || k == config.KeyTrustedWorkspaces ||
				k == config.KeyHost || k == config.KeyMaxSessions {
				continue
			}
			if fs.Lookup(k) == nil {
				t.Errorf("starter %s has no --%s", name, k)
			}
		}
	}
}

// The --model default is printed once (cobra adds it after the text; the text said
// it too, issue 32 item 9).
func TestAgentHelpPrintsTheModelDefaultOnce(t *testing.T) {
	t.Setenv("ANTHROPIC_MODEL", "")
	usage := agentCmd().Flags().FlagUsages()
	for _, line := range strings.Split(usage, "\n") {
		if strings.Contains(line, "--model ") {
			if n := strings.Count(line, workflows.DefaultModel); n != 1 {
				t.Fatalf("--model's line names the default %d times: %q", n, line)
			}
			return
		}
	}
	t.Fatalf("no --model in\n%s", usage)
}
