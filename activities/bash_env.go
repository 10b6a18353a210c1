package activities

import "strings"

// agentEnv is what Claude Code 2.1.328 adds to a Bash command's environment, so
// that scripts, git and package managers that check it behave as under Claude Code:
// CLAUDECODE=1 (the marker tools test for), CLAUDE_CODE_ENTRYPOINT (sdk-cli: a
// headless agent), GIT_EDITOR=true (git commit, rebase and merge never wait for an
// editor), COREPACK_ENABLE_AUTO_PIN=0 (corepack does not rewrite package.json),
// SHELL (the shell the command runs in) and the session's id, the session_id its
// hooks are given. AI_AGENT names the agent: toolpipe, not Claude Code (README,
// "Compatibility with Claude Code"). Claude Code's own internals (its pid,
// executable, messaging socket) have no counterpart.
func agentEnv(env []string, sessionID string) []string {
	add := [][2]string{
		{"CLAUDECODE", "1"},
		{"CLAUDE_CODE_ENTRYPOINT", "sdk-cli"},
		{"GIT_EDITOR", "true"},
		{"COREPACK_ENABLE_AUTO_PIN", "0"},
		{"NoDefaultCurrentDirectoryInExePath", "1"},
		{"SHELL", "/bin/bash"},
		{"AI_AGENT", "toolpipe_agent"},
	}
	if sessionID != "" {
		add = append(add, [2]string{"CLAUDE_CODE_SESSION_ID", sessionID})
	}
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
