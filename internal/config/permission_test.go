package config

import (
	"testing"
	"time"

	"github.com/spf13/pflag"
)

// The permission mode turns permission checks on only when it was given: the
// default "default" must not, or every turn without settings would ask.
func TestPermissionModeSetAndAskTimeout(t *testing.T) {
	load := func(args ...string) Config {
		t.Helper()
		fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
		AddFlags(fs, KeyStateDir, KeyPermissionMode, KeyAskTimeout, KeySession, KeyTaskQueue, KeyHeartbeatTimeout, KeyLogLevel)
		if err := fs.Parse(append(args, "--state-dir", t.TempDir())); err != nil {
			t.Fatal(err)
		}
		c, _, err := Load(fs, "")
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	if c := load(); c.PermissionModeSet || c.PermissionMode != "default" || c.AskTimeout != 24*time.Hour {
		t.Fatalf("defaults: %+v", c)
	}
	if c := load("--permission-mode", "plan", "--ask-timeout", "90s"); !c.PermissionModeSet || c.PermissionMode != "plan" || c.AskTimeout != 90*time.Second {
		t.Fatalf("flags: %+v", c)
	}
	t.Setenv("TOOLPIPE_PERMISSION_MODE", "acceptEdits")
	if c := load(); !c.PermissionModeSet || c.PermissionMode != "acceptEdits" {
		t.Fatalf("environment: %+v", c)
	}
	// Every mode a settings file's defaultMode takes is taken here too (issue 32
	// item 4: dontAsk was refused, exit 2).
	for _, mode := range []string{"default", "acceptEdits", "plan", "bypassPermissions", "dontAsk"} {
		if c := load("--permission-mode", mode); c.PermissionMode != mode {
			t.Fatalf("--permission-mode %s: %+v", mode, c)
		}
	}
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	AddFlags(fs, KeyStateDir, KeyAskTimeout, KeySession, KeyTaskQueue, KeyHeartbeatTimeout, KeyLogLevel)
	fs.Parse([]string{"--state-dir", t.TempDir(), "--ask-timeout", "10ms"})
	if _, _, err := Load(fs, ""); err == nil {
		t.Fatal("an ask timeout under 1s must be refused")
	}
}
