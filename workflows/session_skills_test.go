package workflows_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolpipe/toolpipe/contract"

	"go.temporal.io/sdk/client"

	"github.com/toolpipe/toolpipe/fakeanthropic"
	"github.com/toolpipe/toolpipe/internal/testenv"
	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/wire"
	"github.com/toolpipe/toolpipe/workflows"
)

// skillsReplayID is the recorded skills session's workflow id.
const skillsReplayID = "session-skills-recorded"

// A session given skill directories lists their skills in its system prompt, in
// Claude Code's words, and the Skill tool loads one: the result is "Launching
// skill: greet" and the skill's text (its base directory, $ARGUMENTS replaced) is
// in the next request's user message; an unknown name is refused. The history is
// committed and replays.
func TestSkillListedAndLoaded(t *testing.T) {
	skills := filepath.Join(t.TempDir(), "skills")
	if err := os.MkdirAll(filepath.Join(skills, "greet"), 0o755); err != nil {
		t.Fatal(err)
	}
	body := "---\nname: greet\ndescription: Greets people warmly. Use when asked to say hello.\n---\n\n# Greeting\n\nSay hello with $ARGUMENTS.\n"
	if err := os.WriteFile(filepath.Join(skills, "greet", "SKILL.md"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	h := newIdleAgentHarness(t)
	h.fake.Add(
		fakeanthropic.Response{Content: []wire.Block{use("s1", "Skill", map[string]any{"skill": "greet", "args": "a smile"}),
			use("s2", "Skill", map[string]any{"skill": "nope"})}},
		fakeanthropic.Response{Content: []wire.Block{text("Hello, with a smile.")}},
	)
	h.startWorker()
	id := skillsReplayID
	if os.Getenv("TOOLPIPE_RECORD_HISTORY") != "1" {
		id = t.Name() + "-" + h.queue
	}
	run, err := h.c.ExecuteWorkflow(testenv.Context(t), client.StartWorkflowOptions{ID: id, TaskQueue: h.queue},
		contract.SessionWorkflowName, workflows.SessionInput{SessionID: "sk", Prompt: "say hello", Workdir: h.work,
			Options: fastOptions(), SkillDirs: []string{skills}, Model: workflows.ModelOptions{System: "You are terse."}})
	if err != nil {
		t.Fatal(err)
	}
	if res := h.result(run); res.Text != "Hello, with a smile." {
		t.Fatalf("result %+v", res)
	}
	reqs := h.fake.Requests()
	wantListing := "You are terse.\n\nThe following skills are available for use with the Skill tool:\n\n- greet: Greets people warmly. Use when asked to say hello."
	if reqs[0].System != wantListing {
		t.Errorf("system prompt %q, want %q", reqs[0].System, wantListing)
	}
	if r := resultOf(t, reqs, "s1"); r.IsError || r.Content != "Launching skill: greet" {
		t.Errorf("Skill: %+v", r)
	}
	if r := resultOf(t, reqs, "s2"); !r.IsError || r.Content != tool.UseError("Unknown skill: nope") {
		t.Errorf("unknown skill: %+v", r)
	}
	wantText := "Base directory for this skill: " + filepath.Join(skills, "greet") + "\n\n# Greeting\n\nSay hello with a smile.\n\n"
	found := false
	for _, m := range reqs[1].Messages {
		for _, b := range m.Content {
			found = found || (m.Role == wire.RoleUser && b.Type == "text" && b.Text == wantText)
		}
	}
	if !found {
		t.Errorf("the skill's text is not in the next request: %s", reqs[1].Body)
	}
	if strings.Contains(reqs[1].System, "hidden") {
		t.Error("listing changed")
	}
	if os.Getenv("TOOLPIPE_RECORD_HISTORY") == "1" {
		testenv.WriteHistory(t, filepath.FromSlash("testdata/session_history_skills.json"), testenv.History(t, h.c, id, run.GetRunID()))
	}
}

// TestSkillReplay replays the recorded skills session.
func TestSkillReplay(t *testing.T) {
	replayHistory(t, "testdata/session_history_skills.json", skillsReplayID)
}
