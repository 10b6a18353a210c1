package workflows_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.temporal.io/sdk/client"

	"github.com/toolpipe/toolpipe/hooks"
	"github.com/toolpipe/toolpipe/permissions"
	"github.com/toolpipe/toolpipe/settings"
	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/workflows"
)

// policy builds the TurnSettings of a permission policy for a working directory,
// as the starter does (directories resolved), with a short ask timeout so that an
// unanswered question becomes a denial within the test.
func policy(t *testing.T, work string, mode permissions.Mode, allow, deny, ask []string, dirs ...string) *workflows.TurnSettings {
	t.Helper()
	s := settings.Settings{Permissions: settings.Permissions{Set: true, DefaultMode: mode, HasMode: true, AdditionalDirectories: dirs}}
	for _, l := range []struct {
		rules []string
		dst   *[]permissions.Rule
	}{{allow, &s.Permissions.Allow}, {deny, &s.Permissions.Deny}, {ask, &s.Permissions.Ask}} {
		for _, text := range l.rules {
			r, err := permissions.ParseRule(text)
			if err != nil {
				t.Fatal(err)
			}
			*l.dst = append(*l.dst, r)
		}
	}
	pol, err := s.Policy(settings.PolicyOptions{WorkDir: work})
	if err != nil {
		t.Fatal(err)
	}
	return &workflows.TurnSettings{Permissions: pol, AskTimeout: time.Second}
}

// dirs returns a working directory and a directory outside it, symlinks resolved.
func dirs(t *testing.T) (work, outside string) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	work, outside = filepath.Join(root, "work"), filepath.Join(root, "outside")
	os.Mkdir(work, 0o755)
	os.Mkdir(outside, 0o755)
	os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("secret\n"), 0o600)
	os.WriteFile(filepath.Join(work, "notes.txt"), []byte("notes\n"), 0o600)
	return work, outside
}

func readOf(id, p string) tool.Block {
	return tool.Block{ID: id, Name: tool.ReadName, Input: raw(map[string]any{"file_path": p})}
}
func writeOf(id, p string) tool.Block {
	return tool.Block{ID: id, Name: tool.WriteName, Input: raw(map[string]any{"file_path": p, "content": "new\n"})}
}

func TestDenyRuleTellsTheModelWhy(t *testing.T) {
	work, _ := dirs(t)
	res := runGated(t, work, policy(t, work, permissions.BypassPermissions, nil, []string{"Bash(rm:*)"}, nil),
		bashB("b1", "rm notes.txt"))
	r := res.Results[0]
	if !r.IsError || r.Content != "Permission to use Bash with command rm notes.txt has been denied." {
		t.Fatalf("result %+v", r)
	}
	if n := noticeText(res); !strings.Contains(n, "Bash was denied by the rule Bash(rm:*) in permissions.deny") {
		t.Fatalf("people are not told which rule: notices %q", n)
	}
	if _, err := os.Stat(filepath.Join(work, "notes.txt")); err != nil {
		t.Fatal("the denied command ran")
	}
}

func TestPlanModeOnlyReads(t *testing.T) {
	work, _ := dirs(t)
	res := runGated(t, work, policy(t, work, permissions.Plan, []string{"Write"}, nil, nil),
		readOf("r1", filepath.Join(work, "notes.txt")),
		bashB("b1", "cat notes.txt"),
		writeOf("w1", filepath.Join(work, "plan.txt")),
	)
	if r := byID(res.Results, "r1"); r.IsError {
		t.Fatalf("read in plan mode: %+v", r)
	}
	if r := byID(res.Results, "b1"); r.IsError || r.Content != "notes" {
		t.Fatalf("read-only Bash in plan mode: %+v", r)
	}
	if r := byID(res.Results, "w1"); !r.IsError || !strings.Contains(r.Content, "plan mode is read-only") {
		t.Fatalf("write in plan mode, even with an allow rule: %+v", r)
	}
	if _, err := os.Stat(filepath.Join(work, "plan.txt")); err == nil {
		t.Fatal("plan mode wrote a file")
	}
}

func TestAcceptEdits(t *testing.T) {
	work, outside := dirs(t)
	res := runGated(t, work, policy(t, work, permissions.AcceptEdits, nil, nil, nil),
		writeOf("w1", filepath.Join(work, "new.txt")),
		writeOf("w2", filepath.Join(outside, "new.txt")),
		bashB("b1", "touch made-by-bash"),
	)
	if r := byID(res.Results, "w1"); r.IsError {
		t.Fatalf("an edit inside the working directory: %+v", r)
	}
	if r := byID(res.Results, "w2"); !r.IsError || !strings.Contains(r.Content, "is outside the working directories") || !strings.Contains(r.Content, "nobody answered within 1s") {
		t.Fatalf("an edit outside: %+v", r)
	}
	if r := byID(res.Results, "b1"); !r.IsError || !strings.Contains(r.Content, "nobody answered") {
		t.Fatalf("Bash in acceptEdits asks: %+v", r)
	}
	for _, p := range []string{filepath.Join(outside, "new.txt"), filepath.Join(work, "made-by-bash")} {
		if _, err := os.Stat(p); err == nil {
			t.Fatalf("%s was created without approval", p)
		}
	}
}

// Confinement: a file outside the working directories, named directly, through ".."
// or through a symbolic link inside, is not touched without approval or a rule.
func TestConfinement(t *testing.T) {
	work, outside := dirs(t)
	os.Symlink(outside, filepath.Join(work, "link"))
	blocks := []tool.Block{
		readOf("direct", filepath.Join(outside, "secret.txt")),
		readOf("dotdot", work+"/../outside/secret.txt"),
		readOf("symlink", filepath.Join(work, "link", "secret.txt")),
		{ID: "grep", Name: tool.GrepName, Input: raw(map[string]any{"pattern": "secret", "path": "link"})},
		{ID: "glob", Name: tool.GlobName, Input: raw(map[string]any{"pattern": outside + "/*.txt"})},
		readOf("inside", filepath.Join(work, "notes.txt")),
	}
	res := runGated(t, work, policy(t, work, permissions.Default, nil, nil, nil), blocks...)
	for _, id := range []string{"direct", "dotdot", "symlink", "grep", "glob"} {
		if r := byID(res.Results, id); !r.IsError || !strings.Contains(r.Content, "outside the working directories") || strings.Contains(r.Content, "secret\n") {
			t.Errorf("%s: %+v", id, r)
		}
	}
	if r := byID(res.Results, "inside"); r.IsError {
		t.Errorf("inside: %+v", r)
	}
	// A rule, or an additional directory, lets them through.
	// (Through the link, the file has two names, one inside and one outside: Decide
	// wants an allow rule for each name, so the link itself still asks.)
	res = runGated(t, work, policy(t, work, permissions.Default, []string{"Read(/" + outside + "/**)"}, nil, nil), blocks...)
	for _, id := range []string{"direct", "dotdot"} {
		if r := byID(res.Results, id); r.IsError || !strings.Contains(r.Content, "secret") {
			t.Errorf("allowed by a rule, %s: %+v", id, r)
		}
	}
	res = runGated(t, work, policy(t, work, permissions.Default, nil, nil, nil, outside), blocks...)
	for _, id := range []string{"direct", "dotdot", "symlink", "grep", "glob"} {
		if r := byID(res.Results, id); r.IsError {
			t.Errorf("in an additional directory, %s: %+v", id, r)
		}
	}
}

// A hook's allow does not lift a deny rule; a hook's deny wins over an allow rule.
func TestHookDecisionAndRules(t *testing.T) {
	work, _ := dirs(t)
	allowHook := `echo '{"hookSpecificOutput":{"permissionDecision":"allow"}}'`
	s := policy(t, work, permissions.Default, []string{"Bash(echo:*)"}, []string{"Bash(touch:*)"}, nil)
	s.Hooks = hooks.Config{PreToolUse: append(group("Bash", allowHook), group("Read", `echo '{"decision":"block","reason":"no reading today"}'`)...)}
	res := runGated(t, work, s, readOf("r1", filepath.Join(work, "notes.txt")), bashB("hookallowed", "date"), bashB("denied", "touch x"))
	if r := byID(res.Results, "denied"); !r.IsError || r.Content != "Permission to use Bash with command touch x has been denied." {
		t.Fatalf("a hook's allow lifted a deny rule: %+v", r)
	}
	if r := byID(res.Results, "hookallowed"); r.IsError {
		t.Fatalf("a hook's allow must skip the mode's question: %+v", r)
	}
	if r := byID(res.Results, "r1"); !r.IsError || !strings.Contains(r.Content, "no reading today") {
		t.Fatalf("a hook's legacy block: %+v", r)
	}
}

// Hostile read-only Bash through the whole pipeline (the workflow, the permission
// check and the real Bash activity): the planted git directory in default
// and acceptEdits asks (nobody answers, so it is denied) and runs nothing; a read
// outside the working directory asks; a Read deny rule covers cat.
func TestHostileReadOnlyBashAsks(t *testing.T) {
	for _, mode := range []permissions.Mode{permissions.Default, permissions.AcceptEdits} {
		t.Run(mode.String(), func(t *testing.T) {
			work, outside := dirs(t)
			ng := filepath.Join(work, "w", "ng")
			os.MkdirAll(filepath.Join(ng, "objects", "info"), 0o755)
			os.MkdirAll(filepath.Join(ng, "refs", "heads"), 0o755)
			os.WriteFile(filepath.Join(ng, "HEAD"), []byte("ref: refs/heads/main\n"), 0o644)
			os.WriteFile(filepath.Join(ng, "config"), []byte("[core]\n\trepositoryformatversion = 0\n\tfsmonitor = touch ../PWNED; echo\n"), 0o644)
			os.WriteFile(filepath.Join(work, ".env"), []byte("KEY=secret-in-env\n"), 0o600)
			os.Symlink(outside, filepath.Join(work, "link")) // as a cloned repository can hold
			os.Mkdir(filepath.Join(outside, "sub"), 0o755)
			os.Symlink(filepath.Join(outside, "sub"), filepath.Join(work, "l"))              // l/.. is outside
			os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(work, "lnkfile")) // matched by lnk*
			// One turn each: a failed Bash call cancels its parallel siblings. The
			// turns run at once on one worker, each waiting out its own unanswered
			// question (the policy's 1 s ask timeout), not one after another.
			pol := policy(t, work, mode, nil, []string{"Read(./.env)"}, nil)
			h := realHarness(t)
			var runs []client.WorkflowRun
			for _, b := range []tool.Block{
				bashB("gitdir", "cd w && git --git-dir=ng status --short"),
				bashB("gitdir2", "git --git-dir=w/ng status --short"),
				bashB("gitenv", "GIT_DIR=w/ng git status --short"),
				bashB("gitC", "git -C w/ng status"),
				bashB("passwd", "cat "+filepath.Join(outside, "secret.txt")),
				bashB("symlink", "cat link/secret.txt"),
				bashB("env", "cat .env"),
				bashB("inside", "cat notes.txt"),
				// Issue 24: ".." after a link, a pattern matching a link, a
				// pattern matching .env, a recursive read holding it, \r.
				bashB("dotdot", "cat ./l/../secret.txt"),
				bashB("globlink", "cat lnk*"),
				bashB("envglob", "cat .en?"),
				bashB("grepr", "grep -r KEY ."),
				bashB("cr", "echo a\r# $(touch PWNED)"),
			} {
				runs = append(runs, h.start(workflows.TurnInput{Workdir: work, CloseIntake: true, Settings: pol, Blocks: []tool.Block{b}}))
			}
			var results []tool.Result
			for _, run := range runs {
				results = append(results, h.result(run).Results...)
			}
			for _, id := range []string{"gitdir", "gitdir2", "gitenv", "gitC", "passwd", "symlink", "dotdot", "globlink", "grepr", "cr"} {
				if r := byID(results, id); !r.IsError || !strings.Contains(r.Content, "nobody answered") {
					t.Errorf("%s: %+v", id, r)
				}
			}
			for _, id := range []string{"passwd", "symlink", "dotdot", "globlink"} {
				if r := byID(results, id); !strings.Contains(r.Content, "outside the working directories") || strings.Contains(r.Content, "secret\n") {
					t.Errorf("%s: %+v", id, r)
				}
			}
			for _, id := range []string{"env", "envglob", "grepr"} {
				if r := byID(results, id); !r.IsError || !strings.Contains(r.Content, "Read(./.env)") || strings.Contains(r.Content, "secret-in-env") {
					t.Errorf("%s: %+v", id, r)
				}
			}
			if r := byID(results, "inside"); r.IsError || r.Content != "notes" {
				t.Errorf("inside: %+v", r)
			}
			for _, p := range []string{filepath.Join(work, "w", "PWNED"), filepath.Join(work, "PWNED")} {
				if _, err := os.Stat(p); err == nil {
					t.Fatalf("%s was created: the planted config ran", p)
				}
			}
		})
	}
}
