// Package agentprompt builds what an agent session's model is told before the
// conversation: toolpipe's default system prompt, the environment it works in
// (working directory, platform, date, git repository and branch) and the project's
// memory, the CLAUDE.md files Claude Code loads. The starter builds it once, when a
// session starts, so that the workflow gets it as input and stays deterministic.
package agentprompt

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

// Default is the default system prompt, in toolpipe's own words.
const Default = `You are a coding agent working in a user's project through tools. Every tool call you make runs durably: if a machine fails, the call is resumed or reported, never silently repeated.

Work carefully and finish what you were asked:
- Use absolute paths in every tool call; the working directory is given below.
- Read a file before you Edit or overwrite it, and keep edits minimal and exact.
- Search with Grep (contents) and Glob (file names) rather than running grep or find through Bash.
- When several reads or searches do not depend on each other, make them all in one message: they run in parallel.
- Run commands that change things (installs, writes, git commits) only when the task needs them, and one at a time.
- A long output is saved to a file and you get its start: read the file in ranges or search it when you need more.
- When something fails, read the error, fix the cause, and say what you changed. Do not claim success you have not checked.
- Answer concisely; say what you did and what is left.`

// Options say how to build the prompt.
type Options struct {
	// System replaces Default when set (--system).
	System string
	// Append is added at the end (--append-system-prompt).
	Append string
	// Workdir is the session's working directory, absolute.
	Workdir string
	// Home is the user's home directory, for ~/.claude/CLAUDE.md; "" skips it.
	Home string
	// Now is today's date.
	Now time.Time
}

// Build assembles the system prompt: the default (or System), the environment, the
// project memory and Append.
func Build(o Options) string {
	var b strings.Builder
	if o.System != "" {
		b.WriteString(strings.TrimSpace(o.System))
	} else {
		b.WriteString(Default)
	}
	b.WriteString("\n\n")
	b.WriteString(Environment(o.Workdir, o.Now))
	if mem := Memory(o.Workdir, o.Home); mem != "" {
		b.WriteString("\n\n")
		b.WriteString(mem)
	}
	if s := strings.TrimSpace(o.Append); s != "" {
		b.WriteString("\n\n")
		b.WriteString(s)
	}
	return b.String()
}

// Environment describes where the agent works.
func Environment(workdir string, now time.Time) string {
	var b strings.Builder
	b.WriteString("<env>\n")
	fmt.Fprintf(&b, "Working directory: %s\n", workdir)
	fmt.Fprintf(&b, "Platform: %s/%s\n", runtime.GOOS, runtime.GOARCH)
	fmt.Fprintf(&b, "Today's date: %s\n", now.Format("2006-01-02"))
	if root, branch, ok := GitInfo(workdir); ok {
		fmt.Fprintf(&b, "Git repository: yes, at %s", root)
		if branch != "" {
			fmt.Fprintf(&b, ", on branch %s", branch)
		}
		b.WriteString("\n")
	} else {
		b.WriteString("Git repository: no\n")
	}
	b.WriteString("</env>")
	return b.String()
}

// GitInfo finds the git repository holding dir and its current branch ("" when HEAD
// is detached), by reading .git as git does, without running git.
func GitInfo(dir string) (root, branch string, ok bool) {
	for d := dir; ; d = filepath.Dir(d) {
		gitPath := filepath.Join(d, ".git")
		if fi, err := os.Stat(gitPath); err == nil {
			gitDir := gitPath
			if !fi.IsDir() { // a worktree or submodule: "gitdir: PATH"
				b, err := os.ReadFile(gitPath)
				if err != nil {
					return d, "", true
				}
				p := strings.TrimSpace(strings.TrimPrefix(string(b), "gitdir:"))
				if !filepath.IsAbs(p) {
					p = filepath.Join(d, p)
				}
				gitDir = p
			}
			head, err := os.ReadFile(filepath.Join(gitDir, "HEAD"))
			if err == nil {
				if ref, ok := strings.CutPrefix(strings.TrimSpace(string(head)), "ref: refs/heads/"); ok {
					branch = ref
				}
			}
			return d, branch, true
		}
		if filepath.Dir(d) == d {
			return "", "", false
		}
	}
}
