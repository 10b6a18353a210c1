package readonly

import (
	"fmt"
	"slices"
	"strings"
)

// roGitGlobalFlags are the git options before the subcommand that neither
// run programs nor write. Absent on purpose: -c and --config-env (-c
// core.pager=... runs anything), --exec-path=DIR (picks the programs git
// runs), -p/--paginate (starts a pager), and every option that picks another
// repository (-C, --git-dir, --work-tree): a directory in the working tree
// shaped like a repository, which a cloned project can contain as plain files,
// brings its own config, and core.fsmonitor, core.sshCommand, filter and diff
// drivers in a config run programs. Read-only git therefore only reads the
// repository found from the working directory, whose .git is protected.
var roGitGlobalFlags = []string{"--no-pager", "-P", "--bare", "--no-replace-objects",
	"--literal-pathspecs", "--glob-pathspecs", "--noglob-pathspecs", "--icase-pathspecs",
	"--no-optional-locks", "--no-advice"}

// roGitSubcommands are the read-only git subcommands, each with its check.
// They all deny --output, which log, show and diff use to write a file.
var roGitSubcommands = map[string]func(sub string, args []roArg) string{
	"status": roGitFlags, "log": roGitFlags, "diff": roGitFlags, "show": roGitFlags,
	"blame": roGitFlags, "rev-parse": roGitFlags, "ls-files": roGitFlags, "ls-tree": roGitFlags,
	"cat-file": roGitFlags, "describe": roGitFlags, "shortlog": roGitFlags, "rev-list": roGitFlags,
	"merge-base": roGitFlags, "show-ref": roGitFlags, "version": roGitFlags,
	"grep": func(sub string, args []roArg) string {
		return roFlagReason(sub, args, "O", "open-files-in-pager", "output") // -O runs a program on the matches
	},
	"branch": roGitListing("dDmMcCftu", "l", "delete", "move", "copy", "force", "track", "no-track",
		"set-upstream", "set-upstream-to", "unset-upstream", "edit-description", "create-reflog", "recurse-submodules"),
	"tag": roGitListing("adfsumFe", "ln", "annotate", "delete", "force", "sign", "local-user",
		"message", "file", "edit", "create-reflog", "cleanup", "trailer"),
	"remote":   roGitRemote,
	"config":   roGitConfig,
	"stash":    roGitSubcommand(false, "list", "show"),
	"worktree": roGitSubcommand(false, "list"),
	"reflog":   roGitSubcommand(true, "show"),
}

// roGit checks git's global options, then the subcommand.
func roGit(name string, args []roArg) (string, []roArg) {
	i := 0
	for ; i < len(args); i++ {
		v := args[i].val
		switch {
		case !args[i].known:
			return "git has an argument that is not a static word", nil
		case !strings.HasPrefix(v, "-"):
			sub := "git " + v
			check, ok := roGitSubcommands[v]
			if !ok {
				return sub + " is not read-only", nil
			}
			return check(sub, args[i+1:]), nil
		case v == "--version":
			return "", nil
		case v == "--namespace":
			i++ // a ref namespace, only read
		case strings.HasPrefix(v, "--namespace=") || slices.Contains(roGitGlobalFlags, v):
		case v == "-C" || v == "--git-dir" || v == "--work-tree" ||
			strings.HasPrefix(v, "--git-dir=") || strings.HasPrefix(v, "--work-tree=") || strings.HasPrefix(v, "-C"):
			return fmt.Sprintf("git %s picks another repository, whose config can run programs", strings.SplitN(v, "=", 2)[0]), nil
		default:
			return fmt.Sprintf("git option %s is not allowed", v), nil
		}
	}
	return "git without a subcommand is not read-only", nil
}

func roGitFlags(sub string, args []roArg) string {
	return roFlagReason(sub, args, "", "output")
}

// roGitListing allows branch and tag only in list mode: with no operands, or
// with an option that implies --list (then operands are patterns, not names
// of refs to create).
func roGitListing(denyShort, listShort string, denyLong ...string) func(string, []roArg) string {
	listLong := []string{"list", "contains", "no-contains", "merged", "no-merged", "points-at"}
	return func(sub string, args []roArg) string {
		if r := roFlagReason(sub, args, denyShort, denyLong...); r != "" {
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

// roGitRemote allows listing remotes, get-url, and show -n (without -n, show
// contacts the remote, which runs ssh or a remote helper).
func roGitRemote(sub string, args []roArg) string {
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

// roGitConfig allows git config only in a get or list mode.
func roGitConfig(sub string, args []roArg) string {
	if r := roFlagReason(sub, args, "e", "add", "unset", "unset-all", "replace-all",
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
	if ops := roOperands(args, ""); len(ops) == 1 && strings.Contains(ops[0].val, ".") && len(ops) == len(args) {
		return ""
	}
	return sub + " without --get or --list is not read-only"
}

// roGitSubcommand allows only the listed sub-subcommands (git worktree
// list). bare says whether the command is also read-only when its first
// argument is an option or absent: git reflog means git reflog show, but git
// stash alone saves a stash.
func roGitSubcommand(bare bool, allowed ...string) func(string, []roArg) string {
	return func(sub string, args []roArg) string {
		if bare && (len(args) == 0 || args[0].known && strings.HasPrefix(args[0].val, "-")) {
			return roGitFlags(sub, args)
		}
		if len(args) == 0 || !args[0].known || !slices.Contains(allowed, args[0].val) {
			return sub + " is not read-only unless it only lists"
		}
		return roGitFlags(sub, args[1:])
	}
}
