package parity

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The environment of hook commands (issue 28, area 6: "so that scripts and hooks
// that check them behave the same"): one hook per event writes its environment, its
// shell and its directory to a file, and a Bash call does the same; Claude Code and
// a toolpipe Session run them from one settings file, and the variables Claude Code
// sets are compared by name and value.

// hookEnvEvents are the events whose hooks dump their environment.
var hookEnvEvents = []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop", "SessionEnd"}

// hookEnvDump writes what the comparison reads: the hook's input, its environment
// and the shell it runs in (its $0, whether it is bash) and its directory.
const hookEnvDump = `cat > "$CLAUDE_PROJECT_DIR/in-%[1]s.json"; { env; echo "shell=$0"; echo "bash=${BASH_VERSION:+yes}"; echo "cwd=$(pwd)"; } > "$CLAUDE_PROJECT_DIR/env-%[1]s.txt"`

var hookEnvCase = parityCase{name: "he", blocks: []caseBlock{
	blk("Bash", `{"command":"{ env; echo \"shell=$0\"; echo \"bash=${BASH_VERSION:+yes}\"; echo \"cwd=$(pwd)\"; } > env-Bash.txt","description":"dump the environment"}`),
}}

// hookEnvCompared says which variables are compared: those Claude Code sets for the
// programs it starts.
var hookEnvCompared = regexp.MustCompile(`^(CLAUDE.*|AI_AGENT|COREPACK_ENABLE_AUTO_PIN|NoDefaultCurrentDirectoryInExePath|GIT_EDITOR|SHELL|shell|bash|cwd)$`)

// hookEnvInternal are Claude Code's variables that depend on its process or on how
// the test runs it, not on behaviour a script can rely on: its pid, executable,
// messaging socket and token, notes directory, and a setting the suite gives it.
var hookEnvInternal = []string{"CLAUDE_PID", "CLAUDE_CODE_EXECPATH", "CLAUDE_CODE_MESSAGING_SOCKET", "CLAUDE_CODE_MESSAGING_TOKEN",
	"CLAUDE_CODE_CHILD_NOTES_DIR", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC"}

// Deliberate differences of the hooks' environment (README, "Compatibility with
// Claude Code").
const (
	diffEnvEffort  = "CLAUDE_EFFORT: Claude Code passes its model's effort level; toolpipe sets none, so it has none to pass"
	diffEnvAgent   = "AI_AGENT names the program: Claude Code's hooks get claude-code_2-1-328_harness (its Bash commands claude-code_2-1-328_agent), toolpipe's toolpipe_harness (toolpipe_agent)"
	diffEnvEnvFile = "CLAUDE_ENV_FILE (SessionStart): Claude Code runs what a SessionStart hook writes there before every later Bash command; toolpipe runs a session's calls on any worker, each in a fresh shell, and does not offer it"
)

// hookEnvDiffs are the deliberate differences: variable → toolpipe's value ("" for
// absent) and why.
var hookEnvDiffs = map[string][2]string{
	"CLAUDE_EFFORT":   {"", diffEnvEffort},
	"CLAUDE_ENV_FILE": {"", diffEnvEnvFile},
}

// hookEnvSettings is the settings file of both runs: each event's dumping hook.
func hookEnvSettings(t *testing.T, dir string) string {
	t.Helper()
	hs := map[string]any{}
	for _, e := range hookEnvEvents {
		g := map[string]any{"hooks": []any{map[string]any{"type": "command", "command": strings.ReplaceAll(hookEnvDump, "%[1]s", e)}}}
		if strings.Contains(e, "Tool") {
			g["matcher"] = "*"
		}
		hs[e] = []any{g}
	}
	return writeSettings(t, dir, hs)
}

// readEnvDump reads the variables compared of one dump, the session id replaced by
// <session> after checking it is the hook input's (a Bash call's: the hooks').
func readEnvDump(t *testing.T, root, what, session string) map[string]string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, "env-"+what+".txt"))
	if err != nil {
		t.Fatalf("%s: no dump: %v", what, err)
	}
	out := map[string]string{}
	for _, line := range strings.Split(string(b), "\n") {
		name, value, ok := strings.Cut(line, "=")
		if !ok || !hookEnvCompared.MatchString(name) || slices.Contains(hookEnvInternal, name) {
			continue
		}
		if name == "CLAUDE_CODE_SESSION_ID" {
			if value != session {
				t.Errorf("%s: CLAUDE_CODE_SESSION_ID is %q, the hooks' session_id %q", what, value, session)
			}
			value = "<session>"
		}
		out[name] = strings.ReplaceAll(value, root, "<W>")
	}
	return out
}

// hookSession is the session_id the SessionStart hook was given in root.
func hookSession(t *testing.T, root string) string {
	t.Helper()
	var in struct {
		SessionID string `json:"session_id"`
	}
	b, err := os.ReadFile(filepath.Join(root, "in-SessionStart.json"))
	if err != nil || json.Unmarshal(b, &in) != nil || in.SessionID == "" {
		t.Fatalf("the SessionStart hook's input: %v %q", err, b)
	}
	return in.SessionID
}

// TestParityHookEnvironment compares, per event and for a Bash call, the
// variables Claude Code gives the programs it starts with toolpipe's.
func TestParityHookEnvironment(t *testing.T) {
	_, claudeRoot, _ := runClaudeCase(t, hookEnvCase, hookEnvSettings, nil)
	tpRoot := t.TempDir()
	hookEnvCase.setup(t, tpRoot)
	runToolpipeSession(t, tpRoot, hookEnvSettings(t, t.TempDir()), [][]scriptBlock{hookEnvCase.script(tpRoot)})
	inherited := map[string]string{}
	for _, kv := range os.Environ() {
		k, v, _ := strings.Cut(kv, "=")
		inherited[k] = v
	}
	compared := 0
	for _, what := range append(slices.Clone(hookEnvEvents), "Bash") {
		t.Run(what, func(t *testing.T) {
			w := readEnvDump(t, claudeRoot, what, hookSession(t, claudeRoot))
			g := readEnvDump(t, tpRoot, what, hookSession(t, tpRoot))
			for name, v := range g {
				if _, ok := w[name]; !ok && inherited[name] == v {
					delete(g, name) // the test's own environment, which the worker inherits
				}
			}
			for _, name := range slices.Sorted(func(yield func(string) bool) {
				for n := range w {
					if !yield(n) {
						return
					}
				}
				for n := range g {
					if _, dup := w[n]; !dup && !yield(n) {
						return
					}
				}
			}) {
				compared++
				wv, wok := w[name]
				gv, gok := g[name]
				if d, ok := hookEnvDiffs[name]; ok {
					if gv != d[0] {
						t.Errorf("%s: toolpipe's %s is %q, not %q as the listed difference says (%s)", what, name, gv, d[0], d[1])
					}
					t.Logf("%s: %s differs deliberately (%s)\n claude:   %q\n toolpipe: %q", what, name, d[1], wv, gv)
					continue
				}
				if name == "AI_AGENT" {
					want := "toolpipe_" + strings.TrimPrefix(wv, "claude-code_2-1-328_")
					if gv != want {
						t.Errorf("%s: AI_AGENT %q, want %q (%s)", what, gv, want, diffEnvAgent)
					}
					t.Logf("%s: AI_AGENT differs deliberately (%s)\n claude:   %q\n toolpipe: %q", what, diffEnvAgent, wv, gv)
					continue
				}
				if wok != gok || wv != gv {
					t.Errorf("%s: %s:\n claude:   %q (set %v)\n toolpipe: %q (set %v)", what, name, wv, wok, gv, gok)
				}
			}
		})
	}
	t.Logf("hook environment: compared %d variables of %d programs", compared, len(hookEnvEvents)+1)
}
