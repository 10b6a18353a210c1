package parity

import "testing"

// Bash details (issue 28, area 6): the environment commands get, large output with
// a failure, commands killed by a signal.

// Deliberate differences of Bash (README, "Compatibility with Claude Code").
const (
	diffAgentName   = "AI_AGENT names the agent: Claude Code's is claude-code_2-1-328_agent, toolpipe's toolpipe_agent (toolpipe is not Claude Code; the variables scripts test for Claude Code by, CLAUDECODE and the others, are Claude Code's)"
	diffLargeFail   = "a failing command's large output: Claude Code 2.1.328 keeps its first 30,000 characters and shows 5,000 from each end of those, losing the rest (often the error, which comes last); toolpipe persists the whole output, as for a success, and says where"
	diffScriptLines = "bash's messages about the command's own text: Claude Code 2.1.328 runs it through eval inside its shell wrapper (\"/bin/bash: eval: line 2:\", its lines counted from the wrapper's), toolpipe as the script of bash -c (\"/bin/bash: -c: line 2:\", the command's own line numbers)"
	diffSignal      = "the shell itself killed by a signal: Claude Code 2.1.328 reports exit code 1 (144 for SIGTERM), from Node's view of the process; toolpipe reports 128+N, as bash does for a killed program (137 for SIGKILL, 143 for SIGTERM), which both report when a program the command runs is killed"
)

var bashMoreCases = []parityCase{
	{name: "bm_agent_vars", blocks: []caseBlock{blk("Bash", `{"command":"for v in CLAUDECODE CLAUDE_CODE_ENTRYPOINT GIT_EDITOR COREPACK_ENABLE_AUTO_PIN NoDefaultCurrentDirectoryInExePath SHELL; do echo \"$v=${!v}\"; done; [ -n \"$CLAUDE_CODE_SESSION_ID\" ] && echo session id set"}`)}},
	{name: "bm_ai_agent", blocks: []caseBlock{blk("Bash", `{"command":"echo \"[$AI_AGENT]\""}`)},
		differs: diffAgentName, want: map[int]func(result) string{0: isResult("[toolpipe_agent]")}},
	{name: "bm_git_editor", blocks: []caseBlock{blk("Bash", `{"command":"(mkdir -p bm_git_editor && cd bm_git_editor && git init -q r && cd r && git -c user.email=a@b -c user.name=n commit -q --allow-empty -m first && git -c user.email=a@b -c user.name=n commit -q --allow-empty --amend && git log --format=%s)"}`)},
		keepTree: true}, // the repository's objects differ by run
	{name: "bm_find_exec", files: map[string]string{"x.txt": "x\n"}, blocks: []caseBlock{blk("Bash", `{"command":"find bm_find_exec -name x.txt -exec echo found {} \\\\;"}`)}},
	{name: "bm_syntax_error", blocks: []caseBlock{blk("Bash", `{"command":"if true; then echo"}`)},
		differs: diffScriptLines, want: map[int]func(result) string{0: isErrorWith("Exit code 2\n/bin/bash: -c: line 2: syntax error: unexpected end of file")}},
	{name: "bm_heredoc_open", blocks: []caseBlock{blk("Bash", `{"command":"cat <<EOF\nhi"}`)},
		differs: diffScriptLines, want: map[int]func(result) string{0: isResult("/bin/bash: line 2: warning: here-document at line 1 delimited by end-of-file (wanted `EOF')\nhi")}},
	{name: "bm_trap_own", blocks: []caseBlock{blk("Bash", `{"command":"trap 'echo bye' EXIT; echo hi"}`)}},
	{name: "bm_large_fail", blocks: []caseBlock{blk("Bash", `{"command":"seq 1 20000; exit 2"}`)},
		differs: diffLargeFail, want: map[int]func(result) string{0: isErrorWith("Exit code 2\n<persisted-output>\nOutput too large (106.3KB). Full output saved to: <PATH>")}},
	{name: "bm_large_stderr_fail", blocks: []caseBlock{blk("Bash", `{"command":"seq 1 20000 >&2; exit 3"}`)},
		differs: diffLargeFail, want: map[int]func(result) string{0: isErrorWith("Exit code 3\n<persisted-output>\nOutput too large (106.3KB). Full output saved to: <PATH>")}},
	{name: "bm_kill9", blocks: []caseBlock{blk("Bash", `{"command":"echo before; kill -9 $$"}`)},
		differs: diffSignal, want: map[int]func(result) string{0: isErrorWith("Exit code 137\nbefore")}},
	{name: "bm_killterm", blocks: []caseBlock{blk("Bash", `{"command":"echo before; kill -TERM $$"}`)},
		differs: diffSignal, want: map[int]func(result) string{0: isErrorWith("Exit code 143\nbefore")}},
	{name: "bm_child_segv", blocks: []caseBlock{blk("Bash", `{"command":"sh -c 'kill -SEGV $$'; echo after $?"}`)}},
	{name: "bm_child_killed_last", blocks: []caseBlock{blk("Bash", `{"command":"sh -c 'kill -KILL $$'"}`)}},
	{name: "bm_exit_130", blocks: []caseBlock{blk("Bash", `{"command":"exit 130"}`)}},
	{name: "bm_exit_255", blocks: []caseBlock{blk("Bash", `{"command":"exit 256"}`)}},
	{name: "bm_stdin", blocks: []caseBlock{blk("Bash", `{"command":"cat; echo \"rc=$?\""}`)}},
	{name: "bm_tty", blocks: []caseBlock{blk("Bash", `{"command":"[ -t 0 ] && echo tty0; [ -t 1 ] && echo tty1; echo done"}`)}},
	{name: "bm_pwd", blocks: []caseBlock{blk("Bash", `{"command":"pwd; echo $PWD"}`)}},
	{name: "bm_shell_opts", blocks: []caseBlock{blk("Bash", `{"command":"echo $- ; shopt -q extglob && echo extglob; alias | wc -l"}`)}},
	{name: "bm_large_ok_30k", blocks: []caseBlock{blk("Bash", `{"command":"head -c 31000 /dev/zero | tr '\\0' a; echo"}`)}},
	{name: "bm_crlf_output", blocks: []caseBlock{blk("Bash", `{"command":"printf 'a\\r\\nb\\r\\n'"}`)}},
	{name: "bm_invalid_utf8", blocks: []caseBlock{blk("Bash", `{"command":"printf 'caf\\xe9\\n'"}`)}},
	{name: "bm_ansi", blocks: []caseBlock{blk("Bash", `{"command":"printf '\\033[31mred\\033[0m\\n'"}`)}},
}

// TestParityBashDetails compares the environment, large failing output and
// signals (cases_bash_more_test.go).
func TestParityBashDetails(t *testing.T) {
	compare(t, "bashmore", bashMoreCases)
}
