package parity

import (
	"testing"
)

// permissionRuleCase runs calls that deny rules refuse: a Bash command by prefix, a
// Read of a file by path, a whole tool, a WebFetch domain; and a Bash call beside
// them that runs; and the prefix rule after a leading `cd <working directory> && `
// and the path rule of a path with white space around it, which Claude Code reads
// without them.
var permissionRuleCase = parityCase{name: "pr", files: map[string]string{"secret.txt": "s\n", "notes.txt": "old\n", "sec/a.txt": "TODO\n"}, blocks: []caseBlock{
	blk("Bash", `{"command":"echo DENIED-RULE now","description":"a"}`),
	blk("Read", `{"file_path":"$D/secret.txt"}`),
	blk("Glob", `{"pattern":"*"}`),
	blk("WebFetch", `{"url":"http://localhost:1/page","prompt":"p"}`),
	blk("Edit", `{"file_path":"$D/notes.txt","old_string":"old","new_string":"new"}`),
	blk("Write", `{"file_path":"$D/notes.txt","content":"x"}`),
	blk("Grep", `{"pattern":"TODO","path":"$D/sec"}`),
	blk("Glob", `{"pattern":"*","path":"$D/sec"}`),
	blk("Bash", `{"command":"echo ran","description":"b"}`),
	blk("Bash", `{"command":"cd $W && echo DENIED-RULE after cd","description":"c"}`),
	blk("Read", `{"file_path":"$D/secret.txt "}`),
}}

// permissionRuleSettings writes a settings file whose deny rules refuse them.
func permissionRuleSettings(t *testing.T, dir string) string {
	t.Helper()
	return writeSettings(t, dir, nil, "Bash(echo DENIED-RULE:*)", "Read(./pr/secret.txt)", "Glob", "WebFetch(domain:localhost)",
		"Edit(./pr/notes.txt)", "Read(./pr/sec/**)")
}

// TestParityPermissionRules compares what the model is told of calls that deny
// rules refuse, with Claude Code's answers.
func TestParityPermissionRules(t *testing.T) {
	cm, root, _ := runClaudeCase(t, permissionRuleCase, permissionRuleSettings, nil)

	tpRoot := t.TempDir()
	res := runWithSettings(t, permissionRuleCase, tpRoot, permissionRuleSettings(t, t.TempDir()), nil)
	compareTurn(t, permissionRuleCase, cm, root, tpRoot, res, normalise, nil)
}
