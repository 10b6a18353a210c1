package main

import (
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/toolpipe/toolpipe/internal/fakeanthropic"
	"github.com/toolpipe/toolpipe/wire"
)

// snapshot is every regular file under dir, relative path -> content.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		files[rel] = string(b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// Issue 30's code side, from the CLI, on a session with checkpoints: turn 1
// writes new.txt (Write), turn 2 removes gone.txt (Bash rm), turn 3 edits
// edit.txt. A rewind to before turn 2 (both, the default) brings gone.txt back and
// undoes the edit while new.txt stays; LATEST restores the end state byte for
// byte; --code alone moves the files and leaves the conversation; the next prompt
// after a rewind is answered from the rewound conversation and workspace.
func TestAgentRewindCode(t *testing.T) {
	work, state := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(work, "gone.txt"), []byte("x\n"), 0o644)
	os.WriteFile(filepath.Join(work, "edit.txt"), []byte("before\n"), 0o644)
	os.WriteFile(filepath.Join(work, "keep.txt"), []byte("untouched\n"), 0o644)
	initial := snapshot(t, work)
	fake, err := fakeanthropic.Start(fakeanthropic.Script{Responses: []fakeanthropic.Response{
		{Content: []wire.Block{toolUseBlock("w1", "Write", `{"file_path":"`+filepath.Join(work, "new.txt")+`","content":"new\n"}`)}},
		{Content: []wire.Block{toolUseBlock("w2", "Bash", `{"command":"rm gone.txt"}`)}},
		{Content: []wire.Block{toolUseBlock("w3", "Read", `{"file_path":"`+filepath.Join(work, "edit.txt")+`"}`),
			toolUseBlock("w4", "Edit", `{"file_path":"`+filepath.Join(work, "edit.txt")+`","old_string":"before","new_string":"after"}`)}},
		{Content: []wire.Block{{Type: "text", Text: "three turns done"}}},
		{When: "after the rewind", Content: []wire.Block{toolUseBlock("w5", "Bash", `{"command":"cat gone.txt edit.txt"}`)}},
		{When: "before", Content: []wire.Block{{Type: "text", Text: "answered after the rewind"}}}, // the cat's output
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer fake.Close()
	st := scriptedStarter{t: t, state: state, model: fake.URL()}
	run := func(args ...string) (int, string) { t.Helper(); return st.run(work, args...) }
	ok := func(args ...string) string { t.Helper(); return st.ok(work, args...) }
	ok("agent", "--session", "c", "--checkpoints", "do three turns")
	end := snapshot(t, work)
	if _, gone := end["gone.txt"]; gone || end["edit.txt"] != "after\n" || end["new.txt"] != "new\n" {
		t.Fatalf("after three turns: %v", end)
	}
	if hist := ok("agent", "history", "c"); len(regexp.MustCompile(`\s[0-9a-f]{12}\s`).FindAllString(hist, -1)) != 3 {
		t.Errorf("history does not name the turns' checkpoints:\n%s", hist)
	}

	out := ok("agent", "rewind", "c", "--to", "2")
	if !strings.Contains(out, "rewound session c to before turn 2") || !strings.Contains(out, "workspace of session c restored to before turn 2") {
		t.Fatalf("rewind:\n%s", out)
	}
	want := map[string]string{"gone.txt": "x\n", "edit.txt": "before\n", "keep.txt": "untouched\n", "new.txt": "new\n"}
	if got := snapshot(t, work); !maps.Equal(got, want) {
		t.Errorf("before turn 2 the workspace is %v, want %v", got, want)
	}

	out = ok("agent", "rewind", "c", "--to", "LATEST")
	if got := snapshot(t, work); !maps.Equal(got, end) {
		t.Errorf("LATEST: the workspace is %v, want the end state %v\n%s", got, end, out)
	}

	out = ok("agent", "rewind", "c", "--to", "1", "--code")
	if strings.Contains(out, "rewound session c") || !strings.Contains(out, "workspace of session c restored") {
		t.Errorf("--code:\n%s", out)
	}
	if got := snapshot(t, work); !maps.Equal(got, initial) {
		t.Errorf("--code to before turn 1: the workspace is %v, want the initial %v", got, initial)
	}
	ok("agent", "rewind", "c", "--to", "LATEST", "--code")
	if got := snapshot(t, work); !maps.Equal(got, end) {
		t.Errorf("LATEST --code: the workspace is %v, want the end state %v", got, end)
	}

	// Both again, then the session goes on from turn 1's results and files.
	ok("agent", "rewind", "c", "--to", "2")
	ok("agent", "--session", "c", "after the rewind")
	reqs := fake.Requests()
	last := string(reqs[len(reqs)-1].Body)
	if strings.Contains(last, "rm gone.txt") || !strings.Contains(last, `"text":"x\nbefore"`) {
		t.Errorf("the session after the rewind did not see the rewound workspace:\n%s", last)
	}
	if code, out := run("agent", "rewind", "c", "--to", "2", "--code", "--conversation"); code != 2 {
		t.Errorf("--code with --conversation: exit %d, want 2\n%s", code, out)
	}
}

// A fork of a checkpointed session at turn 2 gets the parent's files at that point
// in its own new directory; both go on with different prompts and neither sees the
// other's files; a fork into a directory with files is refused (exit 2) and makes
// no session.
func TestAgentForkTakesTheFiles(t *testing.T) {
	work, forkDir, state := t.TempDir(), t.TempDir(), t.TempDir() // the fork gets an empty directory
	os.WriteFile(filepath.Join(work, "gone.txt"), []byte("x\n"), 0o644)
	fake, err := fakeanthropic.Start(fakeanthropic.Script{Responses: []fakeanthropic.Response{
		{Content: []wire.Block{toolUseBlock("w1", "Write", `{"file_path":"`+filepath.Join(work, "one.txt")+`","content":"1\n"}`)}},
		{Content: []wire.Block{toolUseBlock("w2", "Bash", `{"command":"rm gone.txt"}`)}},
		{Content: []wire.Block{{Type: "text", Text: "done"}}},
		{When: "parent goes on", Content: []wire.Block{toolUseBlock("p1", "Bash", `{"command":"echo parent > parent.txt; echo parent-wrote"}`)}},
		{When: "parent-wrote", Content: []wire.Block{{Type: "text", Text: "parent done"}}},
		{When: "fork goes on", Content: []wire.Block{toolUseBlock("f1", "Bash", `{"command":"echo fork > fork.txt; ls"}`)}},
		{When: "fork.txt", Content: []wire.Block{{Type: "text", Text: "fork done"}}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer fake.Close()
	st := scriptedStarter{t: t, state: state, model: fake.URL()}
	run, ok := st.run, st.ok
	ok(work, "agent", "--session", "p", "--checkpoints", "two turns")
	if code, out := run(work, "agent", "fork", "p", "--at", "2", "--session", "f-shared"); code != 2 || !strings.Contains(out, "not empty") {
		t.Fatalf("a fork into the parent's own directory: exit %d, want 2 saying why\n%s", code, out)
	}
	if code, _ := run(work, "agent", "history", "f-shared"); code != 2 {
		t.Error("the refused fork left a session behind")
	}
	out := ok(forkDir, "agent", "fork", "p", "--at", "2", "--session", "f")
	if !strings.Contains(out, "holds p's files at that point") {
		t.Fatalf("fork:\n%s", out)
	}
	if got, want := snapshot(t, forkDir), map[string]string{"gone.txt": "x\n", "one.txt": "1\n"}; !maps.Equal(got, want) {
		t.Fatalf("the fork's directory: %v, want the parent's files before turn 2 %v", got, want)
	}
	ok(work, "agent", "--session", "p", "parent goes on")
	ok(forkDir, "agent", "--session", "f", "fork goes on")
	if got, want := snapshot(t, work), map[string]string{"one.txt": "1\n", "parent.txt": "parent\n"}; !maps.Equal(got, want) {
		t.Errorf("the parent's directory: %v, want %v", got, want)
	}
	if got, want := snapshot(t, forkDir), map[string]string{"gone.txt": "x\n", "one.txt": "1\n", "fork.txt": "fork\n"}; !maps.Equal(got, want) {
		t.Errorf("the fork's directory: %v, want %v", got, want)
	}
}

// A rewind whose checkpoint is gone from the store (a store emptied or replaced
// under the session) fails with a clear error naming it, and changes nothing: the
// files stay as they are, and the conversation was not rewound (the next rewind to
// LATEST finds no rewind to undo).
func TestAgentRewindWithTheCheckpointMissing(t *testing.T) {
	work, state := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(work, "gone.txt"), []byte("x\n"), 0o644)
	fake, err := fakeanthropic.Start(fakeanthropic.Script{Responses: []fakeanthropic.Response{
		{Content: []wire.Block{toolUseBlock("w1", "Write", `{"file_path":"`+filepath.Join(work, "one.txt")+`","content":"1\n"}`)}},
		{Content: []wire.Block{toolUseBlock("w2", "Bash", `{"command":"rm gone.txt"}`)}},
		{Content: []wire.Block{{Type: "text", Text: "done"}}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer fake.Close()
	st := scriptedStarter{t: t, state: state, model: fake.URL()}
	st.ok(work, "agent", "--session", "m", "--checkpoints", "two turns")
	end := snapshot(t, work)
	// The store loses the checkpoints (their objects and records) and the host its
	// cache of them.
	for _, d := range []string{filepath.Join(state, "checkpoints"), filepath.Join(state, "m", "checkpoints"), filepath.Join(state, "cache")} {
		if _, err := os.Stat(d); err != nil {
			t.Fatalf("%v: the test deletes what the checkpoints left under the state directory", err)
		}
		if err := os.RemoveAll(d); err != nil {
			t.Fatal(err)
		}
	}
	code, out := st.run(work, "agent", "rewind", "m", "--to", "2")
	if code == 0 || !strings.Contains(out, "checkpoint not found") || !strings.Contains(out, "session m") || !strings.Contains(out, "nothing was changed") {
		t.Errorf("a rewind to a missing checkpoint: exit %d, want a failure naming the session and its checkpoint\n%s", code, out)
	}
	t.Logf("the rewind refused: %s", out)
	if got := snapshot(t, work); !maps.Equal(got, end) {
		t.Errorf("the failed rewind changed the workspace: %v, want %v", got, end)
	}
	hist := st.ok(work, "agent", "history", "m")
	if strings.Contains(hist, "rewound") {
		t.Errorf("the failed rewind is in the history as done:\n%s", hist)
	}
}

// A code rewind of a closed session restores the files in the session's own
// working directory, whatever directory the command runs in, and one given another
// directory with --workdir is refused (exit 2), changing nothing in either.
func TestAgentRewindOfAClosedSessionUsesItsOwnDirectory(t *testing.T) {
	work, state, elsewhere := t.TempDir(), t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(work, "gone.txt"), []byte("x\n"), 0o644)
	os.WriteFile(filepath.Join(elsewhere, "other.txt"), []byte("not the session's\n"), 0o644)
	fake, err := fakeanthropic.Start(fakeanthropic.Script{Responses: []fakeanthropic.Response{
		{Content: []wire.Block{toolUseBlock("w1", "Bash", `{"command":"rm gone.txt && echo new > new.txt"}`)}},
		{Content: []wire.Block{{Type: "text", Text: "done"}}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer fake.Close()
	st := scriptedStarter{t: t, state: state, model: fake.URL()}
	st.ok(work, "agent", "--session", "own", "--checkpoints", "one turn")
	end, other := snapshot(t, work), snapshot(t, elsewhere)
	if code, out := st.runIn(elsewhere, "agent", "rewind", "own", "--to", "1", "--code", "--workdir", elsewhere); code != 2 || !strings.Contains(out, "works in "+work) {
		t.Errorf("a code rewind into another directory: exit %d, want 2 naming the session's directory\n%s", code, out)
	}
	if got := snapshot(t, elsewhere); !maps.Equal(got, other) {
		t.Errorf("the refused rewind changed the other directory: %v", got)
	}
	if got := snapshot(t, work); !maps.Equal(got, end) {
		t.Errorf("the refused rewind changed the session's directory: %v", got)
	}
	if code, out := st.runIn(elsewhere, "agent", "rewind", "own", "--to", "1", "--code"); code != 0 {
		t.Fatalf("a code rewind from another directory: exit %d\n%s", code, out)
	}
	if got := snapshot(t, work); got["gone.txt"] != "x\n" || got["new.txt"] != "" {
		t.Errorf("the session's directory after the rewind: %v, want gone.txt back and new.txt gone", got)
	}
	if got := snapshot(t, elsewhere); !maps.Equal(got, other) {
		t.Errorf("the rewind from another directory changed it: %v", got)
	}
}
