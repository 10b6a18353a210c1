package workflows_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/toolpipe/toolpipe/hooks"
	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/workflows"
)

// The hook tests run real hook scripts (hooks/testdata/scripts) as real processes
// through the real hook activity, in both of their languages.

var languages = []string{"sh", "py"}

func script(t *testing.T, name, lang string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("..", "hooks", "testdata", "scripts", name+"."+lang))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// withHooks is TurnSettings with one group per event given.
func withHooks(pre, post, failure []hooks.Group) *workflows.TurnSettings {
	return &workflows.TurnSettings{Hooks: hooks.Config{PreToolUse: pre, PostToolUse: post, PostToolUseFailure: failure}}
}

func group(matcher string, cmds ...string) []hooks.Group {
	g := hooks.Group{Matcher: matcher}
	for _, c := range cmds {
		g.Hooks = append(g.Hooks, hooks.Command{Command: c})
	}
	return []hooks.Group{g}
}

// runGated runs blocks as a closed turn in dir with settings.
func runGated(t *testing.T, dir string, s *workflows.TurnSettings, blocks ...tool.Block) workflows.TurnResult {
	t.Helper()
	h := realHarness(t)
	return h.result(h.start(workflows.TurnInput{Workdir: dir, CloseIntake: true, Settings: s, Blocks: blocks}))
}

func TestHookDeniesRmRf(t *testing.T) {
	for _, lang := range languages {
		t.Run(lang, func(t *testing.T) {
			dir := t.TempDir()
			os.Mkdir(filepath.Join(dir, "victim"), 0o755)
			res := runGated(t, dir, withHooks(group("Bash", script(t, "deny_rm_rf", lang)), nil, nil),
				bashB("b1", "rm -rf victim"), bashB("b2", "echo fine"))
			r := byID(res.Results, "b1")
			if !r.IsError || !strings.HasPrefix(r.Content, "PreToolUse:Bash hook error: ") || !strings.Contains(r.Content, "rm -rf is not allowed") {
				t.Fatalf("b1: %+v", r)
			}
			if _, err := os.Stat(filepath.Join(dir, "victim")); err != nil {
				t.Fatal("the denied command ran")
			}
			// A denied call never ran: it cancels no sibling (TestDeniedBashCancelsNothing).
			if r := byID(res.Results, "b2"); r.IsError || r.Content != "fine" {
				t.Fatalf("b2: %+v", r)
			}
		})
	}
}

func TestHookRewritesInput(t *testing.T) {
	for lang, want := range map[string]string{
		"sh": "dry-run: deploy skipped by the bash hook",
		"py": "dry-run: make deploy (python hook)",
	} {
		t.Run(lang, func(t *testing.T) {
			dir := t.TempDir()
			res := runGated(t, dir, withHooks(group("Bash", script(t, "rewrite", lang)), nil, nil),
				bashB("b1", "make deploy"))
			if r := res.Results[0]; r.IsError || r.Content != want {
				t.Fatalf("result %+v, want %q", r, want)
			}
		})
	}
	t.Run("invalid rewrite is validated again", func(t *testing.T) {
		bad := `echo '{"hookSpecificOutput":{"updatedInput":{"command":"ls","colour":"red"}}}'`
		res := runGated(t, t.TempDir(), withHooks(group("Bash", bad), nil, nil), bashB("b1", "ls"))
		if r := res.Results[0]; !r.IsError || !strings.HasPrefix(r.Content, "<tool_use_error>InputValidationError: ") || !strings.Contains(r.Content, "rewrote") {
			t.Fatalf("result %+v", r)
		}
	})
}

func TestHookAdditionalContext(t *testing.T) {
	for _, lang := range languages {
		t.Run(lang, func(t *testing.T) {
			res := runGated(t, t.TempDir(), withHooks(nil, group("Bash", script(t, "add_context", lang)), nil),
				bashB("b1", "echo out"))
			r := res.Results[0]
			if r.IsError || !strings.HasPrefix(r.Content, "out\n\n<system-reminder>\nPostToolUse:Bash hook additional context: Project convention: run make lint") ||
				!strings.HasSuffix(r.Content, "</system-reminder>") {
				t.Fatalf("result %q", r.Content)
			}
		})
	}
}

func TestHookExit2(t *testing.T) {
	for _, lang := range languages {
		t.Run(lang, func(t *testing.T) {
			dir := t.TempDir()
			res := runGated(t, dir, withHooks(group("Write", script(t, "exit2", lang)), group("Bash", script(t, "exit2", lang)), nil),
				tool.Block{ID: "w1", Name: tool.WriteName, Input: raw(map[string]any{"file_path": filepath.Join(dir, "f"), "content": "x"})},
				bashB("b1", "echo ran > ran.txt"))
			exit2 := script(t, "exit2", lang)
			if r := byID(res.Results, "w1"); !r.IsError || !strings.HasPrefix(r.Content, "PreToolUse:Write hook error: ["+exit2+"]: blocked by policy: this tool is frozen today") {
				t.Fatalf("w1: %+v", r)
			}
			if _, err := os.Stat(filepath.Join(dir, "f")); err == nil {
				t.Fatal("the blocked Write ran")
			}
			// PostToolUse exit 2: the tool ran; its stderr is shown to the model.
			r := byID(res.Results, "b1")
			if r.IsError || !strings.Contains(r.Content, "PostToolUse:Bash hook blocking error from command: \""+exit2+"\": ["+exit2+"]: blocked by policy") {
				t.Fatalf("b1: %+v", r)
			}
			if _, err := os.Stat(filepath.Join(dir, "ran.txt")); err != nil {
				t.Fatal("the Bash call did not run")
			}
		})
	}
}

// A hook past its timeout is killed and does not block; the slow phase is reported.
func TestHookTimeoutDoesNotBlock(t *testing.T) {
	for _, lang := range languages {
		t.Run(lang, func(t *testing.T) {
			s := withHooks([]hooks.Group{{Matcher: "Bash", Hooks: []hooks.Command{{Command: script(t, "sleep", lang) + " 30", Timeout: 1}}}}, nil, nil)
			res := runGated(t, t.TempDir(), s, bashB("b1", "echo went ahead"))
			if r := res.Results[0]; r.IsError || r.Content != "went ahead" {
				t.Fatalf("result %+v", r)
			}
			notes := noticeText(res)
			if !strings.Contains(notes, "timed out after 1s") {
				t.Fatalf("notices: %s", notes)
			}
			// The phase is reported with its duration, which the 1s timeout bounds
			// from below (how much longer it took depends on the machine).
			m := regexp.MustCompile(`PreToolUse hooks for Bash took ([0-9.]+[mµn]?s)`).FindStringSubmatch(notes)
			if m == nil {
				t.Fatalf("no slow-phase notice: %s", notes)
			}
			if d, err := time.ParseDuration(m[1]); err != nil || d < time.Second {
				t.Fatalf("the phase took %s by its notice, less than the hook's 1s timeout: %s", m[1], notes)
			}
		})
	}
}

func noticeText(res workflows.TurnResult) string {
	var b strings.Builder
	for _, n := range res.Notices {
		fmt.Fprintf(&b, "%s: %s\n", n.ToolUseID, n.Text)
	}
	return b.String()
}

// Output that is not what a hook should print never blocks, and never reaches the
// model; 10 MB of it does not break the turn's history.
func TestHookBadOutputProceeds(t *testing.T) {
	for _, name := range []string{"garbage", "plain_text", "big_output"} {
		for _, lang := range languages {
			t.Run(name+"."+lang, func(t *testing.T) {
				res := runGated(t, t.TempDir(), withHooks(group("Bash", script(t, name, lang)), group("Bash", script(t, name, lang)), nil),
					bashB("b1", "echo ok"))
				if r := res.Results[0]; r.IsError || r.Content != "ok" {
					t.Fatalf("result %+v", r)
				}
				notes := noticeText(res)
				switch {
				case name == "plain_text" && strings.Contains(notes, "hook `"):
					t.Fatalf("plain text is not an error: %s", notes)
				case name != "plain_text" && !strings.Contains(notes, "printed invalid JSON") && !strings.Contains(notes, "printed invalid hook output") && !(name == "big_output" && lang == "sh"):
					t.Fatalf("notices: %s", notes)
				}
			})
		}
	}
}

// Matching hooks run at the same time (each waits for the other to start), and a
// command listed twice runs once.
func TestHooksRunInParallelOnce(t *testing.T) {
	dir := t.TempDir()
	wait := func(me, other string) string {
		return fmt.Sprintf(`touch %s; for i in $(seq 200); do [ -e %s ] && echo '{"hookSpecificOutput":{"additionalContext":"%s saw %s"}}' && exit 0; sleep 0.05; done; exit 1`, me, other, me, other)
	}
	count := "echo x >> count; cat >/dev/null"
	s := &workflows.TurnSettings{Hooks: hooks.Config{PreToolUse: []hooks.Group{
		{Matcher: "Bash", Hooks: []hooks.Command{{Command: wait("a", "b")}, {Command: count}}},
		{Matcher: "*", Hooks: []hooks.Command{{Command: wait("b", "a")}, {Command: count}}},
	}}}
	res := runGated(t, dir, s, bashB("b1", "true"))
	if c := res.Results[0].Content; !strings.Contains(c, "PreToolUse:Bash hook additional context: a saw b\n\nPreToolUse:Bash hook additional context: b saw a") {
		t.Fatalf("the hooks did not overlap: %q (notices %s)", c, noticeText(res))
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "count")); string(b) != "x\n" {
		t.Fatalf("the duplicate command ran %d times", strings.Count(string(b), "x"))
	}
}

// The hook input carries Claude Code's fields; continue: false stops the session.
func TestHookInputAndStop(t *testing.T) {
	for _, lang := range languages {
		t.Run(lang, func(t *testing.T) {
			dir := t.TempDir()
			rec := script(t, "record", lang)
			s := withHooks(group("*", rec, script(t, "stop", lang)), group("*", rec), group("*", rec))
			s.ProjectDir = dir
			// "bad" is not read-only, so it runs after "ok" has finished with its hooks:
			// its error would otherwise cancel them (the Bash cascade).
			res := runGated(t, dir, s, bashB("ok", "echo hi"), bashB("bad", "touch f; exit 3"))
			if !res.Stop || !strings.Contains(res.StopReason, "daily budget reached") {
				t.Fatalf("stop %v %q", res.Stop, res.StopReason)
			}
			if !strings.Contains(noticeText(res), "stopping the agent") {
				t.Fatalf("the systemMessage is not shown: %s", noticeText(res))
			}
			f, err := os.Open(filepath.Join(dir, "hook-inputs.jsonl"))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			seen := map[string]map[string]any{}
			sc := bufio.NewScanner(f)
			for sc.Scan() {
				if strings.TrimSpace(sc.Text()) == "" {
					continue
				}
				var in map[string]any
				if err := json.Unmarshal(sc.Bytes(), &in); err != nil {
					t.Fatalf("hook input %q: %v", sc.Text(), err)
				}
				seen[fmt.Sprint(in["hook_event_name"], "/", in["tool_use_id"])] = in
			}
			pre, post, fail := seen["PreToolUse/ok"], seen["PostToolUse/ok"], seen["PostToolUseFailure/bad"]
			if pre == nil || post == nil || fail == nil || len(seen) != 4 {
				t.Fatalf("hook inputs: %v", seen)
			}
			if pre["session_id"] != "s" || pre["cwd"] != dir || pre["permission_mode"] != "default" || pre["tool_name"] != "Bash" ||
				pre["tool_input"].(map[string]any)["command"] != "echo hi" || pre["transcript_path"] != "" {
				t.Fatalf("PreToolUse input %v", pre)
			}
			if resp, _ := post["tool_response"].(map[string]any); resp["stdout"] != "hi" {
				t.Fatalf("PostToolUse input %v", post)
			}
			if e, _ := fail["error"].(string); !strings.Contains(e, "Exit code 3") {
				t.Fatalf("PostToolUseFailure input %v", fail)
			}
		})
	}
}
