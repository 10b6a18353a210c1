package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Read in one `starter run`, Edit in the next run of the same session: the Edit
// works, because the session's read state is kept in its state directory. Another
// session has not read the file, so its Edit is refused.
func TestReadStateAcrossRuns(t *testing.T) {
	work, state := t.TempDir(), t.TempDir()
	file := filepath.Join(work, "notes.txt")
	os.WriteFile(file, []byte("draft\n"), 0o644)
	run := func(session string, block string) userMsg {
		t.Helper()
		msg := filepath.Join(t.TempDir(), "msg.json")
		os.WriteFile(msg, []byte(`{"role":"assistant","content":[`+block+`]}`), 0o644)
		cmd := hermetic(t, starter(t, state, "run", "--workdir", work, "--session", session, msg))
		out, _ := output(t, "run", cmd)
		return decode(t, out)
	}
	edit := func(id, from, to string) string {
		return toolUse(id, "Edit", map[string]any{"file_path": file, "old_string": from, "new_string": to})
	}
	if m := run("other", edit("e0", "draft", "stolen")); !m.Content[0].IsError || !strings.Contains(m.Content[0].Content, "read") {
		t.Fatalf("an Edit before any Read: %+v", m.Content[0])
	}
	if m := run("s1", toolUse("r1", "Read", map[string]any{"file_path": file})); m.Content[0].IsError {
		t.Fatalf("read: %+v", m.Content[0])
	}
	if m := run("s1", edit("e1", "draft", "final")); m.Content[0].IsError {
		t.Fatalf("the Edit after a Read of an earlier run: %+v", m.Content[0])
	}
	if b, _ := os.ReadFile(file); string(b) != "final\n" {
		t.Fatalf("file: %q", b)
	}
	if m := run("other", edit("e2", "final", "stolen")); !m.Content[0].IsError {
		t.Fatalf("another session's Edit ran: %+v", m.Content[0])
	}
}
