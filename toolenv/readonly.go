package toolenv

import (
	"fmt"
	"strconv"
	"strings"
)

// readOnlyGitConfig is the git configuration a read-only command runs with. It is
// given as GIT_CONFIG_COUNT/KEY/VALUE, which take precedence over every config
// file, so that no repository, global or included config can make "git status"
// or "git log" run a program: an fsmonitor, a hook, a pager, an ssh or proxy
// command, a signature verifier or a credential helper. Diff drivers, textconv
// and diff.external cannot be switched off this way (an empty diff.external
// breaks git diff); they come from the config of the repository found from the
// working directory, whose .git only changes with approval, because read-only git
// never picks another repository (readonly.Classify). Implicit
// bare repositories (a directory holding HEAD, config, objects and refs, which a
// cloned project can contain as plain files) are not used, and no transport may
// be used, so nothing reaches the network.
var readOnlyGitConfig = [][2]string{
	{"core.fsmonitor", "false"},
	{"core.hooksPath", "/dev/null"},
	{"core.pager", "cat"},
	{"core.sshCommand", "false"},
	{"core.gitProxy", ""},
	{"core.askPass", "false"},
	{"core.editor", "false"},
	{"sequence.editor", "false"},
	{"credential.helper", ""},
	{"gpg.program", "false"},
	{"gpg.ssh.program", "false"},
	{"gpg.x509.program", "false"},
	{"log.showSignature", "false"},
	{"protocol.allow", "never"},
	{"safe.bareRepository", "explicit"},
	{"uploadpack.packObjectsHook", ""},
}

// unsetForReadOnly are variables of the worker's environment that would make an
// allowed program run another one; a read-only command runs without them.
var unsetForReadOnly = []string{
	"GIT_SSH", "GIT_SSH_COMMAND", "GIT_ASKPASS", "SSH_ASKPASS", "GIT_PROXY_COMMAND",
	"GIT_DIR", "GIT_WORK_TREE", "GIT_EXEC_PATH", "GIT_CONFIG_PARAMETERS", "GIT_PAGER", "PAGER",
	"LESSOPEN", "LESSCLOSE", "MANPAGER", "BASH_ENV", "ENV",
}

// ReadOnly returns environ as a command classified read-only runs with: git
// cannot run programs or reach the network whatever its config files say, and
// pagers are cat. A GIT_CONFIG_COUNT the worker set is kept, with these entries
// after it (the last value of a key wins).
func ReadOnly(environ []string) []string {
	out := make([]string, 0, len(environ)+2*len(readOnlyGitConfig)+4)
	count := 0
	for _, kv := range environ {
		name, v, _ := strings.Cut(kv, "=")
		switch {
		case name == "GIT_CONFIG_COUNT":
			count, _ = strconv.Atoi(v)
			continue
		case contains(unsetForReadOnly, name):
			continue
		}
		out = append(out, kv)
	}
	for i, kv := range readOnlyGitConfig {
		out = append(out, fmt.Sprintf("GIT_CONFIG_KEY_%d=%s", count+i, kv[0]), fmt.Sprintf("GIT_CONFIG_VALUE_%d=%s", count+i, kv[1]))
	}
	return append(out, fmt.Sprintf("GIT_CONFIG_COUNT=%d", count+len(readOnlyGitConfig)),
		"GIT_PAGER=cat", "PAGER=cat", "GIT_TERMINAL_PROMPT=0", "GIT_OPTIONAL_LOCKS=0")
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
