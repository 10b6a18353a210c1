package toolenv

import (
	"slices"
	"testing"
)

// Held secrets are found by LookupEnv and Env (and win over the environment),
// but never by os.Environ, which is what child processes inherit.
func TestHeldSecretsAreSeenOnlyThroughTheLookup(t *testing.T) {
	t.Setenv("TOOLPIPE_TEST_HELD", "from-environment")
	t.Setenv("TOOLPIPE_TEST_PLAIN", "plain")
	Hold(map[string]string{"TOOLPIPE_TEST_HELD": "held-value", "TOOLPIPE_TEST_ONLY_HELD": "only-held"})
	t.Cleanup(func() {
		held.Lock()
		delete(held.vars, "TOOLPIPE_TEST_HELD")
		delete(held.vars, "TOOLPIPE_TEST_ONLY_HELD")
		held.Unlock()
	})
	if v, ok := LookupEnv("TOOLPIPE_TEST_HELD"); !ok || v != "held-value" {
		t.Errorf("held: %q %v", v, ok)
	}
	if v := Getenv("TOOLPIPE_TEST_PLAIN"); v != "plain" {
		t.Errorf("plain: %q", v)
	}
	env := Env{}.Environ()
	if !slices.Contains(env, "TOOLPIPE_TEST_ONLY_HELD=only-held") || !slices.Contains(env, "TOOLPIPE_TEST_HELD=held-value") ||
		slices.Contains(env, "TOOLPIPE_TEST_HELD=from-environment") || !slices.Contains(env, "TOOLPIPE_TEST_PLAIN=plain") {
		t.Errorf("Env.Environ: %v", env)
	}
	if !slices.Contains(HeldNames(), "TOOLPIPE_TEST_ONLY_HELD") {
		t.Errorf("HeldNames: %v", HeldNames())
	}
}
