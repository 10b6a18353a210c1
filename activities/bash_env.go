package activities

import "strings"

// claudeEnv is what Claude Code 2.1.328 gives every program it starts, Bash
// commands and hook commands alike, so that scripts, git and package managers that
// check it behave as under Claude Code: CLAUDECODE=1 (the marker tools test for),
// CLAUDE_CODE_ENTRYPOINT (sdk-cli: a headless agent), CLAUDE_CODE_CHILD_SESSION=1
// (a program started inside a session; a nested agent reads it),
// CLAUDE_CODE_SESSION_ATTENDED=0 (nobody watches the session's terminal),
// COREPACK_ENABLE_AUTO_PIN=0 (corepack does not rewrite package.json),
// NoDefaultCurrentDirectoryInExePath=1, and the session's id, the session_id its
// hooks are given. Claude Code's own internals (its pid, executable, messaging
// socket and token, notes directory) have no counterpart, nor has CLAUDE_EFFORT:
// toolpipe sets no effort level (README, "Compatibility with Claude Code").
func claudeEnv(sessionID string) [][2]string {
	add := [][2]string{
		{"CLAUDECODE", "1"},
		{"CLAUDE_CODE_ENTRYPOINT", "sdk-cli"},
		{"CLAUDE_CODE_CHILD_SESSION", "1"},
		{"CLAUDE_CODE_SESSION_ATTENDED", "0"},
		{"COREPACK_ENABLE_AUTO_PIN", "0"},
		{"NoDefaultCurrentDirectoryInExePath", "1"},
	}
	if sessionID != "" {
		add = append(add, [2]string{"CLAUDE_CODE_SESSION_ID", sessionID})
	}
	return add
}

// agentEnv is env with what Claude Code 2.1.328 adds to a Bash command's: the
// common variables (claudeEnv), GIT_EDITOR=true (git commit, rebase and merge never
// wait for an editor) and SHELL (the shell the command runs in). AI_AGENT names the
// agent: toolpipe, not Claude Code (README, "Compatibility with Claude Code").
func agentEnv(env []string, sessionID string) []string {
	return withVars(env, append(claudeEnv(sessionID),
		[2]string{"GIT_EDITOR", "true"},
		[2]string{"SHELL", "/bin/bash"},
		[2]string{"AI_AGENT", "toolpipe_agent"},
	))
}

// hookCommandEnv is env with what Claude Code 2.1.328 gives a hook command: the common
// variables (claudeEnv) and CLAUDE_PROJECT_DIR; no GIT_EDITOR or SHELL, which are
// Bash's. AI_AGENT names the harness that runs the hook, as Claude Code's
// claude-code_2-1-328_harness does, but toolpipe's.
func hookCommandEnv(env []string, sessionID, projectDir string) []string {
	return withVars(env, append(claudeEnv(sessionID),
		[2]string{"CLAUDE_PROJECT_DIR", projectDir},
		[2]string{"AI_AGENT", "toolpipe_harness"},
	))
}

// withVars is env with the variables of add set, replacing what env had of them.
func withVars(env []string, add [][2]string) []string {
	out := make([]string, 0, len(env)+len(add))
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if !setBy(add, name) {
			out = append(out, kv)
		}
	}
	for _, a := range add {
		out = append(out, a[0]+"="+a[1])
	}
	return out
}

func setBy(add [][2]string, name string) bool {
	for _, a := range add {
		if a[0] == name {
			return true
		}
	}
	return false
}

// bashScript is the script bash -c runs for a command: the command as written,
// after an EXIT trap that keeps bash from exec'ing the command's last program in
// its place, so that bash itself reports a program killed by a signal ("/bin/bash:
// line 1: 123 Killed  python train.py"), as under Claude Code, whose shell
// wrapper does the same. The trap is on the command's first line, so line numbers
// in bash's messages are the command's own; a trap the command sets replaces it.
func bashScript(command string) string { return "trap : EXIT; " + command }
