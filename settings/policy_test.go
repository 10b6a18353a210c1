package settings

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/toolpipe/toolpipe/permissions"
)

func TestResolve(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	work := filepath.Join(root, "work")
	outside := filepath.Join(root, "outside")
	for _, d := range []string{work, outside, filepath.Join(outside, "deep")} {
		os.MkdirAll(d, 0o755)
	}
	os.WriteFile(filepath.Join(outside, "secret"), []byte("x"), 0o600)
	os.WriteFile(filepath.Join(work, "file"), []byte("x"), 0o600)
	link := func(target, name string) {
		if err := os.Symlink(target, filepath.Join(work, name)); err != nil {
			t.Fatal(err)
		}
	}
	link(filepath.Join(outside, "secret"), "abs-link")
	link("../outside", "rel-dir")
	link(filepath.Join(outside, "not-yet"), "dangling")
	link("loop-b", "loop-a")
	link("loop-a", "loop-b")
	link(filepath.Join(outside, "deep"), "deep")
	for _, c := range []struct{ in, want string }{
		{filepath.Join(work, "file"), filepath.Join(work, "file")},
		{filepath.Join(work, "..", "outside", "secret"), filepath.Join(outside, "secret")},
		{filepath.Join(work, "abs-link"), filepath.Join(outside, "secret")},
		{filepath.Join(work, "rel-dir", "secret"), filepath.Join(outside, "secret")},
		{filepath.Join(work, "rel-dir", "new", "file"), filepath.Join(outside, "new", "file")},
		{filepath.Join(work, "dangling"), filepath.Join(outside, "not-yet")},
		{filepath.Join(work, "new.txt"), filepath.Join(work, "new.txt")},
		{filepath.Join(work, "file", "under-a-file"), filepath.Join(work, "file", "under-a-file")},
		// ".." after a link is the parent of its target, as the kernel takes it.
		{work + "/deep/../secret", filepath.Join(outside, "secret")},
	} {
		got, err := Resolve(c.in)
		if err != nil || got != c.want {
			t.Errorf("Resolve(%s) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	if _, err := Resolve(filepath.Join(work, "loop-a")); err == nil {
		t.Error("a link loop must be an error")
	}
	if _, err := Resolve("relative/path"); err == nil {
		t.Error("a relative path must be an error")
	}
}

func TestPolicy(t *testing.T) {
	if p, err := (Settings{}).Policy(PolicyOptions{WorkDir: "/w"}); p != nil || err != nil {
		t.Fatalf("no permission settings and no mode must give no policy: %+v %v", p, err)
	}
	root, _ := filepath.EvalSymlinks(t.TempDir())
	real := filepath.Join(root, "real")
	os.MkdirAll(real, 0o755)
	linked := filepath.Join(root, "linked")
	os.Symlink(real, linked)
	s := Settings{Permissions: Permissions{Set: true, DefaultMode: permissions.AcceptEdits, HasMode: true,
		AdditionalDirectories: []string{"/opt/lib"}}}
	p, err := s.Policy(PolicyOptions{WorkDir: linked})
	if err != nil {
		t.Fatal(err)
	}
	if p.WorkDir != real || p.ProjectDir != real || p.Mode != permissions.AcceptEdits || p.ReadOnlyCommand == nil {
		t.Fatalf("policy %+v", p)
	}
	if !slices.Equal(p.AdditionalDirs, []string{linked, "/opt/lib"}) {
		t.Fatalf("additional dirs %v", p.AdditionalDirs)
	}
	p, err = s.Policy(PolicyOptions{WorkDir: real, Mode: "plan"})
	if err != nil || p.Mode != permissions.Plan {
		t.Fatalf("--permission-mode must win: %+v %v", p, err)
	}
	if p, err = (Settings{}).Policy(PolicyOptions{WorkDir: real, Mode: "default"}); err != nil || p == nil {
		t.Fatalf("a mode alone makes a policy: %v", err)
	}
	if _, err := s.Policy(PolicyOptions{WorkDir: real, Mode: "yolo"}); err == nil {
		t.Fatal("a bad mode must be an error")
	}
}

// The state directory passed as private is kept in both spellings, like the
// working directories, so a path through a link to it is private too.
func TestPolicyPrivateDirs(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	state := filepath.Join(root, "state")
	os.MkdirAll(state, 0o755)
	linked := filepath.Join(root, "linked")
	os.Symlink(state, linked)
	s := Settings{Permissions: Permissions{Set: true}}
	p, err := s.Policy(PolicyOptions{WorkDir: root, PrivateDirs: []string{linked, filepath.Join(root, "new")}})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{linked, state, filepath.Join(root, "new")}; !slices.Equal(p.PrivateDirs, want) {
		t.Fatalf("private dirs %v, want %v", p.PrivateDirs, want)
	}
}
