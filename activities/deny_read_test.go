package activities

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolpipe/toolpipe/sandbox"
	"github.com/toolpipe/toolpipe/tool"
)

// sandbox.filesystem.denyRead applies to every tool, sandbox enabled or not:
// Read, Edit and Write refuse a denied path (also through a symbolic link, also
// a file that does not exist yet), Glob and Grep refuse to search inside one and
// leave its files out of what they find elsewhere. Without the setting the same
// calls see everything.
func TestDenyReadAppliesToEveryTool(t *testing.T) {
	a := newActs(t)
	work, _ := filepath.EvalSymlinks(t.TempDir())
	os.MkdirAll(filepath.Join(work, "secrets"), 0o755)
	os.WriteFile(filepath.Join(work, ".env"), []byte("TOKEN=hunter2\n"), 0o600)
	os.WriteFile(filepath.Join(work, "secrets", "key.pem"), []byte("KEY=private\n"), 0o600)
	os.WriteFile(filepath.Join(work, "notes.txt"), []byte("TOKEN is documented here\n"), 0o644)
	os.Symlink(filepath.Join(work, "secrets", "key.pem"), filepath.Join(work, "innocent.txt"))
	deny := &sandbox.Settings{Filesystem: sandbox.Filesystem{DenyRead: []string{filepath.Join(work, ".env"), filepath.Join(work, "secrets")}}}
	run := func(s *sandbox.Settings, name string, input map[string]any, readFiles ...string) tool.Output {
		t.Helper()
		c := call(t, name, work, input, readFiles...)
		c.Sandbox = s
		var out tool.Output
		var err error
		switch name {
		case tool.ReadName:
			out, err = a.Read(context.Background(), c)
		case tool.EditName:
			out, err = a.Edit(context.Background(), c)
		case tool.WriteName:
			out, err = a.Write(context.Background(), c)
		case tool.GlobName:
			out, err = a.Glob(context.Background(), c)
		case tool.GrepName:
			out, err = a.Grep(context.Background(), c)
		}
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	refused := func(what string, out tool.Output) {
		t.Helper()
		if !out.IsError || !strings.Contains(out.Content, "sandbox.filesystem.denyRead hides from every tool") {
			t.Errorf("%s: %+v", what, out)
		}
	}
	env, key := filepath.Join(work, ".env"), filepath.Join(work, "secrets", "key.pem")
	refused("Read .env", run(deny, tool.ReadName, map[string]any{"file_path": ".env"}))
	refused("Read through a link", run(deny, tool.ReadName, map[string]any{"file_path": "innocent.txt"}))
	refused("Edit .env", run(deny, tool.EditName, map[string]any{"file_path": env, "old_string": "hunter2", "new_string": "x"}, env))
	refused("Write a new file in secrets", run(deny, tool.WriteName, map[string]any{"file_path": "secrets/new.pem", "content": "x"}))
	refused("Glob in secrets", run(deny, tool.GlobName, map[string]any{"pattern": "*", "path": "secrets"}))
	refused("Grep in secrets", run(deny, tool.GrepName, map[string]any{"pattern": "KEY", "path": key}))
	if out := run(deny, tool.ReadName, map[string]any{"file_path": "notes.txt"}); out.IsError || !strings.Contains(out.Content, "documented") {
		t.Errorf("Read notes.txt: %+v", out)
	}
	if out := run(deny, tool.GlobName, map[string]any{"pattern": "**/*"}); strings.Contains(out.Content, ".env") || strings.Contains(out.Content, "key.pem") ||
		!strings.Contains(out.Content, "notes.txt") {
		t.Errorf("Glob: %+v", out)
	}
	if out := run(deny, tool.GrepName, map[string]any{"pattern": "TOKEN|KEY", "output_mode": "content"}); strings.Contains(out.Content, "hunter2") ||
		strings.Contains(out.Content, "private") || !strings.Contains(out.Content, "documented") {
		t.Errorf("Grep: %+v", out)
	}
	if _, err := os.Stat(filepath.Join(work, "secrets", "new.pem")); err == nil {
		t.Error("Write wrote into a denied directory")
	}
	// Without denyRead every one of them gets through: the test can fail.
	if out := run(nil, tool.ReadName, map[string]any{"file_path": "innocent.txt"}); out.IsError || !strings.Contains(out.Content, "private") {
		t.Errorf("control Read: %+v", out)
	}
	if out := run(nil, tool.GrepName, map[string]any{"pattern": "TOKEN|KEY", "output_mode": "content"}); !strings.Contains(out.Content, "hunter2") {
		t.Errorf("control Grep: %+v", out)
	}
}
