package readonly

import (
	"fmt"
	"slices"
	"strings"
)

// gitGlobalFlags are the git options before the subcommand that neither
// run programs nor write. Absent on purpose: -c and --config-env (-c
// core.pager=... runs anything), --exec-path=DIR (picks the programs git
// runs), -p/--paginate (starts a pager), and every option that picks another
// repository (-C, --git-dir, --work-tree): a directory in the working tree
// shaped like a repository, which a cloned project can contain as plain files,
// brings its own config, and core.fsmonitor, core.sshCommand, filter and diff
// drivers in a config run programs. Read-only git therefore only reads the
// repository found from the working directory, whose .git is protected.
var gitGlobalFlags = []string{"--no-pager", "-P", "--bare", "--no-replace-objects",
	"--literal-pathspecs", "--glob-pathspecs", "--noglob-pathspecs", "--icase-pathspecs",
	"--no-optional-locks", "--no-advice"}

// gitSubcommands are the read-only git subcommands, each with its check.
// They all deny --output, which log, show and diff use to write a file.
var gitSubcommands = map[string]func(sub string, args []arg) string{
	"status": gitFlags, "log": gitFlags, "diff": gitFlags, "show": gitFlags,
	"blame": gitFlags, "rev-parse": gitFlags, "ls-files": gitFlags, "ls-tree": gitFlags,
	"cat-file": gitFlags, "describe": gitFlags, "shortlog": gitFlags, "rev-list": gitFlags,
	"merge-base": gitFlags, "show-ref": gitFlags, "version": gitFlags,
	"grep": func(sub string, args []arg) string {
		return flagReason(sub, args, "O", "open-files-in-pager", "output") // -O runs a program on the matches
	},
	"branch": gitListing("dDmMcCftu", "l", "delete", "move", "copy", "force", "track", "no-track",
		"set-upstream", "set-upstream-to", "unset-upstream", "edit-description", "create-reflog", "recurse-submodules"),
	"tag": gitListing("adfsumFe", "ln", "annotate", "delete", "force", "sign", "local-user",
		"message", "file", "edit", "create-reflog", "cleanup", "trailer"),
	"remote":   gitRemote,
	"config":   gitConfig,
	"stash":    gitSubcommand(false, "list", "show"),
	"worktree": gitSubcommand(false, "list"),
	"reflog":   gitSubcommand(true, "show"),
}

// gitCheck checks git's global options, then the subcommand.
func gitCheck(name string, args []arg) (string, []arg) {
	i := 0
	for ; i < len(args); i++ {
		v := args[i].val
		switch {
		case !args[i].known:
			return "git has an argument that is not a static word", nil
		case !strings.HasPrefix(v, "-"):
			sub := "git " + v
			check, ok := gitSubcommands[v]
			if !ok {
				return sub + " is not read-only", nil
			}
			return check(sub, args[i+1:]), nil
		case v == "--version":
			return "", nil
		case v == "--namespace":
			i++ // a ref namespace, only read
		case strings.HasPrefix(v, "--namespace=") || slices.Contains(gitGlobalFlags, v):
		case v == "-C" || v == "--git-dir" || v == "--work-tree" ||
			strings.HasPrefix(v, "--git-dir=") || strings.HasPrefix(v, "--work-tree=") || strings.HasPrefix(v, "-C"):
			return fmt.Sprintf("git %s picks another repository, whose config can run programs", strings.SplitN(v, "=", 2)[0]), nil
		default:
			return fmt.Sprintf("git option %s is not allowed", v), nil
		}
	}
	return "git without a subcommand is not read-only", nil
}

func gitFlags(sub string, args []arg) string {
	return flagReason(sub, args, "", "output")
}

// gitListing allows branch and tag only in list mode: with no operands, or
// with an option that implies --list (then operands are patterns, not names
// of refs to create).
func gitListing(denyShort, listShort string, denyLong ...string) func(string, []arg) string {
	listLong := []string{"list", "contains", "no-contains", "merged", "no-merged", "points-at"}
	return func(sub string, args []arg) string {
		if r := flagReason(sub, args, denyShort, denyLong...); r != "" {
			return r
		}
		list, operands := false, false
		for i, a := range args {
			v := a.val
			if v == "--" {
				operands = operands || i+1 < len(args)
				break
			}
			switch {
			case strings.HasPrefix(v, "--"):
				opt, _, _ := strings.Cut(v[2:], "=")
				list = list || slices.Contains(listLong, opt)
			case len(v) > 1 && v[0] == '-':
				list = list || strings.ContainsAny(v[1:], listShort)
			default:
				operands = true
			}
		}
		if operands && !list {
			return sub + " with a name is not read-only"
		}
		return ""
	}
}

// gitRemote allows listing remotes, get-url, and show -n (without -n, show
// contacts the remote, which runs ssh or a remote helper).
func gitRemote(sub string, args []arg) string {
	for i, a := range args {
		switch {
		case !a.known:
			return sub + " has an argument that is not a static word"
		case a.val == "-v" || a.val == "--verbose":
		case a.val == "get-url":
			return ""
		case a.val == "show":
			for _, b := range args[i+1:] {
				if b.known && b.val == "-n" {
					return ""
				}
			}
			return sub + " show contacts the remote unless given -n"
		default:
			return fmt.Sprintf("%s %s is not read-only", sub, a.val)
		}
	}
	return ""
}

// gitConfig allows git config only in a get or list mode.
func gitConfig(sub string, args []arg) string {
	if r := flagReason(sub, args, "e", "add", "unset", "unset-all", "replace-all",
		"rename-section", "remove-section", "edit"); r != "" {
		return r
	}
	for _, a := range args {
		switch a.val {
		case "--get", "--get-all", "--get-regexp", "--get-urlmatch", "--get-color", "--get-colorbool", "-l", "--list":
			return ""
		}
	}
	if len(args) > 0 && (args[0].val == "get" || args[0].val == "list") {
		return ""
	}
	// A lone section.key reads it; subcommands such as "edit" have no dot.
	if ops := operandsOf(args, ""); len(ops) == 1 && strings.Contains(ops[0].val, ".") && len(ops) == len(args) {
		return ""
	}
	return sub + " without --get or --list is not read-only"
}

// gitSubcommand allows only the listed sub-subcommands (git worktree
// list). bare says whether the command is also read-only when its first
// argument is an option or absent: git reflog means git reflog show, but git
// stash alone saves a stash.
func gitSubcommand(bare bool, allowed ...string) func(string, []arg) string {
	return func(sub string, args []arg) string {
		if bare && (len(args) == 0 || args[0].known && strings.HasPrefix(args[0].val, "-")) {
			return gitFlags(sub, args)
		}
		if len(args) == 0 || !args[0].known || !slices.Contains(allowed, args[0].val) {
			return sub + " is not read-only unless it only lists"
		}
		return gitFlags(sub, args[1:])
	}
}
