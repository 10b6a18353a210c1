package devserver

import (
	"strings"
	"testing"
)

// Extra SQLite pragmas are for tuning: none may touch what durability rests on.
func TestSQLitePragmasCannotWeakenDurability(t *testing.T) {
	for _, k := range []string{"journal_mode", "synchronous", "mode"} {
		_, err := Config{StateDir: t.TempDir(), SQLitePragmas: map[string]string{k: "off"}}.normalize()
		if err == nil || !strings.Contains(err.Error(), k) {
			t.Errorf("pragma %s: %v, want a refusal naming it", k, err)
		}
	}
	if _, err := (Config{StateDir: t.TempDir(), SQLitePragmas: map[string]string{"cache_size": "-65536"}}).normalize(); err != nil {
		t.Errorf("cache_size: %v", err)
	}
}
