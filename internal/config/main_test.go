package config

import (
	"os"
	"testing"
)

// TestMain keeps the tests from reading the developer's own toolpipe.yaml
// (UserFile) and trust settings.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "config-test-home")
	if err != nil {
		panic(err)
	}
	os.Setenv("XDG_CONFIG_HOME", dir)
	os.Unsetenv("TOOLPIPE_TRUST")
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
