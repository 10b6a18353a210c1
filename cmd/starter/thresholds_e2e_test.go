package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 17 item 7: the thresholds of toolpipe.yaml apply in `starter run` (its
// in-process worker), counted in characters. With Bash at 15,000: 12,000 CJK
// characters (36,000 bytes) stay inline, 20,000 ASCII characters (under the default
// 30,000) are persisted.
func TestRunAppliesThresholdsInCharacters(t *testing.T) {
	dir := t.TempDir()
	conf := filepath.Join(dir, "toolpipe.yaml")
	if err := os.WriteFile(conf, []byte("thresholds:\n  Bash: 15000\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	msg := `{"role":"assistant","content":[` +
		toolUse("toolu_cjk", "Bash", map[string]any{"command": `printf '字%.0s' $(seq 12000)`}) + "," +
		toolUse("toolu_ascii", "Bash", map[string]any{"command": `printf 'a%.0s' $(seq 20000)`}) + `]}`
	cmd := starter(t, filepath.Join(dir, "state"), "run", "--config", conf, "--workdir", dir, "-")
	cmd.Stdin = strings.NewReader(msg)
	out, _ := output(t, "run", cmd)
	m := decode(t, out)
	if len(m.Content) != 2 {
		t.Fatalf("results: %+v", m)
	}
	if c := m.Content[0].Content; c != strings.Repeat("字", 12000) {
		t.Errorf("12,000 CJK characters under a 15,000-character threshold were not inline: %.200q", c)
	}
	if c := m.Content[1].Content; !strings.HasPrefix(c, "<persisted-output>\nOutput too large (19.5KB).") {
		t.Errorf("20,000 characters over the configured 15,000 were not persisted: %.200q", c)
	}
}
