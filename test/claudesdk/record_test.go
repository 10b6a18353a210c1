package claudesdk

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRecordClaudeCode writes Claude Code's message streams, and the protocol
// lines the SDK and the executable exchanged, under testdata/ (TOOLPIPE_SDK_RECORD=1
// only): the fixtures cmd/toolpipe-claude's unit tests decode.
func TestRecordClaudeCode(t *testing.T) {
	if os.Getenv("TOOLPIPE_SDK_RECORD") == "" {
		t.Skip("TOOLPIPE_SDK_RECORD=1 records Claude Code's streams into testdata/")
	}
	p := install(t)
	out := filepath.Join("testdata", "claude-code-"+claudeVersion)
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	tee := filepath.Join(t.TempDir(), "claude-tee")
	// The wrapper keeps what crosses the executable's stdin and stdout.
	if err := os.WriteFile(tee, []byte(`#!/bin/bash
d="$TEE_DIR"; n=$(date +%s%N); mkdir -p "$d"
printf '%s\n' "$@" > "$d/$n.args"
tee "$d/$n.stdin" | "$REAL_CLAUDE" "$@" | tee "$d/$n.stdout"
`), 0o755); err != nil {
		t.Fatal(err)
	}
	only := os.Getenv("TOOLPIPE_SDK_RECORD")
	for _, sc := range scenarios {
		if only != "1" && !strings.Contains(","+only+",", ","+sc.name+",") {
			continue
		}
		t.Run(sc.name, func(t *testing.T) {
			dir := t.TempDir()
			o := runScenario(t, p, sc, tee, "TEE_DIR="+dir, "REAL_CLAUDE="+p.claude, "IS_SANDBOX=1")
			if o.err != nil {
				t.Logf("stderr: %s", o.stderr)
				t.Fatalf("%s: %v", sc.name, o.err)
			}
			var stream []string
			for _, l := range o.lines {
				stream = append(stream, strings.ReplaceAll(string(l.Raw), o.cwd, "$CWD"))
			}
			write(t, filepath.Join(out, sc.name+".jsonl"), strings.Join(stream, "\n")+"\n")
			files, _ := filepath.Glob(filepath.Join(dir, "*"))
			for i, f := range files {
				b, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				ext := filepath.Ext(f)
				write(t, filepath.Join(out, "protocol", sc.name+"-"+string(rune('0'+i/3))+ext),
					strings.ReplaceAll(strings.ReplaceAll(string(b), o.cwd, "$CWD"), filepath.Dir(o.cwd), "$ROOT"))
			}
		})
	}
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
