package tool

import (
	"encoding/json"
	"path/filepath"
	"strings"
)

// StripCdWorkdir returns a Bash input without the `cd <working directory> && ` a
// model often starts a command with, and whether it had one. Claude Code 2.1.328
// drops that prefix, written exactly so (the directory as the session names it,
// unquoted), before hooks, permission rules and the shell see the command: the
// command runs there anyway, and `Bash(git status:*)` must match `cd /w && git
// status`. Any other cd is the command's own.
func StripCdWorkdir(input json.RawMessage, workdir string) (json.RawMessage, bool) {
	if workdir == "" || !filepath.IsAbs(workdir) {
		return input, false
	}
	in, ok := decodeObject(input)
	if !ok {
		return input, false
	}
	cmd, ok := in["command"].(string)
	prefix := "cd " + workdir + " && "
	if !ok || !strings.HasPrefix(cmd, prefix) {
		return input, false
	}
	in["command"] = strings.TrimPrefix(cmd, prefix)
	out, err := marshalInOrder(in, keyOrder(input))
	if err != nil {
		return input, false
	}
	return out, true
}
