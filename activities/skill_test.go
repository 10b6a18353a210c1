package activities

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/toolpipe/toolpipe/contract"
)

func writeSkill(t *testing.T, root, dir, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(root, dir), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, dir, skillFile), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Skills are listed as Claude Code 2.1.328 lists them (its system prompt, captured
// with these files in ~/.claude/skills): the frontmatter's name and description,
// or the directory's name and the first line; the user's directory hides a
// workspace skill of the same name; a directory without SKILL.md is no skill.
// A loaded skill is Claude Code's message: its base directory, then the text
// without the frontmatter, $ARGUMENTS replaced.
func TestLoadSkillsAsClaudeCode(t *testing.T) {
	user, project := t.TempDir(), t.TempDir()
	writeSkill(t, user, "greet", "---\nname: greet\ndescription: Greets people warmly. Use when asked to say hello.\n---\n\n# Greeting\n\nSay hello with $ARGUMENTS.\n")
	writeSkill(t, user, "noname", "Just text, no frontmatter.\n")
	writeSkill(t, project, "greet", "---\nname: greet\ndescription: the workspace's\n---\nhidden\n")
	writeSkill(t, project, "deploy", "---\ndescription: >\n  Deploys the app\n  to staging.\n---\nRun make deploy.\n")
	if err := os.MkdirAll(filepath.Join(project, "empty"), 0o755); err != nil {
		t.Fatal(err)
	}
	a := &Activities{}
	dirs := []string{user, project, filepath.Join(t.TempDir(), "missing")}
	got, err := a.LoadSkills(context.Background(), contract.SkillsRequest{Dirs: dirs})
	if err != nil {
		t.Fatal(err)
	}
	want := []contract.SkillInfo{
		{Name: "deploy", Description: "Deploys the app to staging.", Dir: filepath.Join(project, "deploy")},
		{Name: "greet", Description: "Greets people warmly. Use when asked to say hello.", Dir: filepath.Join(user, "greet")},
		{Name: "noname", Description: "Just text, no frontmatter.", Dir: filepath.Join(user, "noname")},
	}
	if len(got.Skills) != len(want) {
		t.Fatalf("listed %+v, want %+v", got.Skills, want)
	}
	for i := range want {
		if got.Skills[i] != want[i] {
			t.Errorf("skill %d: %+v, want %+v", i, got.Skills[i], want[i])
		}
	}
	for _, c := range []struct{ name, args, want string }{
		// Claude Code's texts, word for word.
		{"greet", "a smile", "Base directory for this skill: " + filepath.Join(user, "greet") + "\n\n# Greeting\n\nSay hello with a smile.\n\n"},
		{"noname", "", "Base directory for this skill: " + filepath.Join(user, "noname") + "\n\nJust text, no frontmatter.\n\n"},
		{"deploy", "now", "Base directory for this skill: " + filepath.Join(project, "deploy") + "\n\nRun make deploy.\n\nARGUMENTS: now\n\n"},
	} {
		r, err := a.LoadSkills(context.Background(), contract.SkillsRequest{Dirs: dirs, Name: c.name, Args: c.args})
		if err != nil || !r.Found || r.Text != c.want {
			t.Errorf("load %s: %q (found %v, %v), want %q", c.name, r.Text, r.Found, err, c.want)
		}
	}
	if r, err := a.LoadSkills(context.Background(), contract.SkillsRequest{Dirs: dirs, Name: "nope"}); err != nil || r.Found {
		t.Errorf("unknown skill: %+v, %v", r, err)
	}
}
