package toolenv

import (
	"fmt"
	"os/exec"
	"slices"
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
func ReadOnly(environ []string) []string { return readOnly(environ, nil) }

// readOnly is ReadOnly with extra entries after readOnlyGitConfig.
func readOnly(environ []string, extra [][2]string) []string {
	entries := slices.Concat(readOnlyGitConfig, extra)
	out := make([]string, 0, len(environ)+2*len(entries)+4)
	count := 0
	for _, kv := range environ {
		name, v, _ := strings.Cut(kv, "=")
		switch {
		case name == "GIT_CONFIG_COUNT":
			count, _ = strconv.Atoi(v)
			continue
		case slices.Contains(unsetForReadOnly, name):
			continue
		}
		out = append(out, kv)
	}
	for i, kv := range entries {
		out = append(out, fmt.Sprintf("GIT_CONFIG_KEY_%d=%s", count+i, kv[0]), fmt.Sprintf("GIT_CONFIG_VALUE_%d=%s", count+i, kv[1]))
	}
	return append(out, fmt.Sprintf("GIT_CONFIG_COUNT=%d", count+len(entries)),
		"GIT_PAGER=cat", "PAGER=cat", "GIT_TERMINAL_PROMPT=0", "GIT_OPTIONAL_LOCKS=0")
}

// ReadOnlyIn is ReadOnly for a command run in dir, with the git drivers of the
// configuration that a git command there reads switched off (issue 40 item 3). A
// repository's own .git/config (a clone, a tarball, a checkout someone else
// prepared is written by its author, not approved by the user) can name a
// textconv, an external diff or a clean/smudge filter, and its .gitattributes
// apply them: "git diff", "git log -p", "git show", "git grep --textconv",
// "git blame" and "git cat-file --filters" then run them. Each driver found is
// overridden on the command line level, which wins over every config file: a
// filter by nothing (an empty command is no filter), a textconv by cat (the
// text as it is), a diff command and diff.external by true (that file's diff is
// left out). The drivers are listed by `git config --get-regexp`, which reads the
// files and runs nothing, under the same read-only settings.
func ReadOnlyIn(environ []string, dir string) []string {
	extra := gitDriverOverrides(ReadOnly(environ), dir)
	env := readOnly(environ, extra)
	if slices.Contains(extra, [2]string{"diff.external", "true"}) {
		env = append(env, "GIT_EXTERNAL_DIFF=true") // the variable wins over diff.external
	}
	return env
}

// gitDriverOverrides lists the overrides of the drivers git would find in dir.
func gitDriverOverrides(env []string, dir string) [][2]string {
	git, err := exec.LookPath("git")
	if err != nil || dir == "" {
		return nil
	}
	cmd := exec.Command(git, "config", "--null", "--get-regexp", `^(diff|filter)\.`)
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.Output() // exit 1: none; 128: not a repository and no global one
	if err != nil && len(out) == 0 {
		return nil
	}
	var extra [][2]string
	seen := map[string]bool{}
	for _, entry := range strings.Split(string(out), "\x00") {
		key, _, _ := strings.Cut(entry, "\n")
		key = strings.ToLower(key)
		var v string
		switch {
		case key == "diff.external":
			v = "true"
		case strings.HasPrefix(key, "diff.") && strings.HasSuffix(key, ".textconv"):
			v = "cat"
		case strings.HasPrefix(key, "diff.") && strings.HasSuffix(key, ".command"):
			v = "true"
		case strings.HasPrefix(key, "filter.") && (strings.HasSuffix(key, ".clean") || strings.HasSuffix(key, ".smudge") || strings.HasSuffix(key, ".process")):
			v = ""
		default:
			continue
		}
		if !seen[key] {
			seen[key] = true
			extra = append(extra, [2]string{key, v})
		}
	}
	return extra
}
