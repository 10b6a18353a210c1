package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 24: a Write over its 16 MiB limit is answered with the size error without
// its content ever being stored: nothing of it reaches <state>/payloads/ (it left
// 201 MB there for a 200 MB Write), from a message file or from --stream, and the
// call beside it runs.
func TestOversizeInputIsNotStored(t *testing.T) {
	work := t.TempDir()
	content := strings.Repeat("a", 17<<20)
	write, _ := json.Marshal(map[string]any{"file_path": filepath.Join(work, "big.txt"), "content": content})
	block := `{"type":"tool_use","id":"big","name":"Write","input":` + string(write) + `}`
	small := toolUse("small", "Bash", map[string]any{"command": "echo ran"})
	check := func(t *testing.T, state string, m userMsg) {
		t.Helper()
		if len(m.Content) != 2 {
			t.Fatalf("%d results", len(m.Content))
		}
		if r := m.Content[0]; !r.IsError || !strings.Contains(r.Content, "InputValidationError: the input is "+itoa(len(write))+" bytes; Write takes at most 16777216") {
			t.Errorf("big: %+v", r)
		}
		if r := m.Content[1]; r.IsError || !strings.Contains(r.Content, "ran") {
			t.Errorf("small: %+v", r)
		}
		filepath.Walk(filepath.Join(state, "payloads"), func(p string, fi os.FileInfo, err error) error {
			if err == nil && !fi.IsDir() && fi.Size() > 1<<20 {
				t.Errorf("%s holds %d bytes: the oversize input was stored", p, fi.Size())
			}
			return nil
		})
		if _, err := os.Stat(filepath.Join(work, "big.txt")); err == nil {
			t.Error("the refused Write wrote its file")
		}
	}
	t.Run("message", func(t *testing.T) {
		state := t.TempDir()
		msg := filepath.Join(t.TempDir(), "msg.json")
		os.WriteFile(msg, []byte(`{"role":"assistant","content":[`+block+`,`+small+`]}`), 0o644)
		out, _ := output(t, "run", starter(t, state, "run", "--workdir", work, msg))
		check(t, state, decode(t, out))
	})
	t.Run("stream", func(t *testing.T) {
		state := t.TempDir()
		cmd := starter(t, state, "run", "--stream", "--workdir", work, "--session", "stream")
		cmd.Stdin = strings.NewReader(block + "\n" + small + "\n")
		out, _ := output(t, "run --stream", cmd)
		check(t, state, decode(t, out))
	})
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
