package config

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/term"
)

// Trust is the one decision, per workspace directory and process, of whether the
// workspace's own files take effect: its toolpipe.yaml, .mcp.json (programs the
// worker starts, servers it connects to) and .claude/settings.json and
// settings.local.json (hooks, permission rules and mode, sandbox settings). A
// cloned repository must not configure its own agent: these files apply only when
// the user trusts the workspace, by --trust (or TOOLPIPE_TRUST, or trust: true in
// the user's own toolpipe.yaml), by listing it in trusted-workspaces, or by
// answering the question asked on a terminal. Every command asks Trust (Load for
// the current directory's toolpipe.yaml, the starter for the working
// directory's settings and .mcp.json) and gets the same answer.
type Trust struct {
	// given is --trust / TOOLPIPE_TRUST / trust: in the user's file; nil: not given.
	given   *bool
	givenBy string
	// entries are trusted-workspaces, resolved, with the file that lists each.
	entries []trustedEntry
	// userFile is where "always" adds a workspace.
	userFile string
	// ask asks a question on the terminal; nil when there is none to ask on.
	ask func(question string) string

	mu      sync.Mutex
	decided map[string]Decision
}

type trustedEntry struct{ dir, listed, from string }

// WorkspaceFile is a file of a workspace that takes effect only when it is
// trusted, with what it would do.
type WorkspaceFile struct {
	// Path is the file, absolute.
	Path string
	// Effects say what it would do ("run hooks on PreToolUse (1)", …).
	Effects []string
}

// Decision is Trust's answer for a workspace.
type Decision struct {
	Trusted bool
	// Why says what decided.
	Why string
	// Notice is, the first time an untrusted workspace's files are skipped, what
	// to tell the user on stderr: each skipped file, what it would have done, and
	// how to trust the workspace. Later decisions for the same directory have none.
	Notice string
}

// Decide decides for the workspace dir, whose own files are files (those that
// exist). With no file there is nothing to trust and nothing is asked.
func (t *Trust) Decide(dir string, files []WorkspaceFile) Decision {
	if t == nil {
		return Decision{Why: "no trust configuration"}
	}
	if len(files) == 0 {
		return Decision{Why: "the workspace has none of its own files"}
	}
	real := resolveDir(dir)
	t.mu.Lock()
	defer t.mu.Unlock()
	if d, ok := t.decided[real]; ok {
		d.Notice = ""
		return d
	}
	d := t.decide(real, files)
	if !d.Trusted {
		d.Notice = skippedNotice(real, files, d.Why, t.userFile)
	}
	if t.decided == nil {
		t.decided = map[string]Decision{}
	}
	t.decided[real] = d
	return d
}

func (t *Trust) decide(dir string, files []WorkspaceFile) Decision {
	if t.given != nil {
		return Decision{Trusted: *t.given, Why: t.givenBy}
	}
	for _, e := range t.entries {
		if dir == e.dir || strings.HasPrefix(dir, strings.TrimSuffix(e.dir, "/")+"/") {
			return Decision{Trusted: true, Why: fmt.Sprintf("%s lists %s in %s", e.from, e.listed, KeyTrustedWorkspaces)}
		}
	}
	if t.ask == nil {
		return Decision{Why: "it is not in " + KeyTrustedWorkspaces + " and there is no terminal to ask on"}
	}
	var q strings.Builder
	fmt.Fprintf(&q, "The workspace %s has files of its own that take effect only if you trust it:\n", dir)
	writeFiles(&q, dir, files)
	fmt.Fprintf(&q, "Trust this workspace? [y]es, this time / [a]lways (adds it to %s in %s) / [N]o: ", KeyTrustedWorkspaces, displayPath(t.userFile))
	switch strings.ToLower(strings.TrimSpace(t.ask(q.String()))) {
	case "y", "yes":
		return Decision{Trusted: true, Why: "you answered yes"}
	case "a", "always":
		if err := rememberWorkspace(t.userFile, dir); err != nil {
			return Decision{Trusted: true, Why: fmt.Sprintf("you answered always, but it could not be remembered: %v", err)}
		}
		return Decision{Trusted: true, Why: "you answered always: it is now in " + KeyTrustedWorkspaces + " in " + t.userFile}
	}
	return Decision{Why: "you answered no"}
}

// skippedNotice is the notice of an untrusted workspace's skipped files.
func skippedNotice(dir string, files []WorkspaceFile, why, userFile string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "the workspace %s is not trusted (%s), so its own files were ignored:\n", dir, why)
	writeFiles(&b, dir, files)
	fmt.Fprintf(&b, "To use them, trust the workspace: --trust or TOOLPIPE_TRUST=1 for this run, or add it to %s in %s (%s: [%s])",
		KeyTrustedWorkspaces, displayPath(userFile), KeyTrustedWorkspaces, dir)
	return b.String()
}

func writeFiles(b *strings.Builder, dir string, files []WorkspaceFile) {
	for _, f := range files {
		name := f.Path
		if rel, err := filepath.Rel(dir, f.Path); err == nil && !strings.HasPrefix(rel, "..") {
			name = rel
		}
		fmt.Fprintf(b, "  %s would %s\n", name, strings.Join(f.Effects, "; "))
	}
}

// displayPath writes the home directory as ~.
func displayPath(p string) string {
	if home, err := os.UserHomeDir(); err == nil && home != "" && strings.HasPrefix(p, home+"/") {
		return "~" + p[len(home):]
	}
	return p
}

// resolveDir is dir absolute with its symbolic links resolved, as trusted
// entries are, so that a link into a trusted tree is trusted and a link out of
// one is not.
func resolveDir(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return filepath.Clean(dir)
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		return real
	}
	return abs
}

// newTrust reads the trust keys from the user's own places (userValue). ask says
// the command may ask (it runs tools in the workspace); it asks only when its
// standard input and error are a terminal.
func newTrust(l *layers, ask bool) (*Trust, error) {
	t := &Trust{userFile: UserFile()}
	if raw, from, ok := l.userValue(KeyTrust); ok {
		s, isScalar := scalar(raw)
		b, err := strconv.ParseBool(strings.TrimSpace(s))
		if !isScalar || err != nil {
			return nil, fmt.Errorf("%s %s (from %s) is not true or false", KeyTrust, quote(raw), from)
		}
		t.given, t.givenBy = &b, from
		if from == "--"+KeyTrust && !b {
			t.givenBy = "--trust=false"
		} else if !strings.HasPrefix(from, "--") && !strings.HasPrefix(from, "TOOLPIPE_") {
			t.givenBy = fmt.Sprintf("%s: %v in %s", KeyTrust, b, from)
		} else if strings.HasPrefix(from, "TOOLPIPE_") {
			t.givenBy = from + "=" + s
		}
	}
	type source struct {
		from string
		raw  any
	}
	var sources []source
	if v := os.Getenv(envName(KeyTrustedWorkspaces)); v != "" {
		sources = append(sources, source{envName(KeyTrustedWorkspaces), v})
	}
	for _, f := range []*fileLayer{l.explicit, l.user} {
		if f != nil && f.v.IsSet(KeyTrustedWorkspaces) {
			sources = append(sources, source{f.path, f.v.Get(KeyTrustedWorkspaces)})
		}
	}
	for _, src := range sources {
		dirs, ok := list(src.raw)
		if !ok {
			return nil, fmt.Errorf("%s: %s must be a list of directories, e.g. %s: [~/src]", src.from, KeyTrustedWorkspaces, KeyTrustedWorkspaces)
		}
		for _, d := range dirs {
			abs, err := expandHome(d)
			if err != nil || !filepath.IsAbs(abs) {
				return nil, fmt.Errorf("%s: %s entry %q must be an absolute directory (or start with ~/)", src.from, KeyTrustedWorkspaces, d)
			}
			t.entries = append(t.entries, trustedEntry{dir: resolveDir(abs), listed: d, from: src.from})
		}
	}
	if ask && term.IsTerminal(int(os.Stdin.Fd())) && term.IsTerminal(int(os.Stderr.Fd())) {
		t.ask = terminalQuestion(os.Stdin, os.Stderr)
	}
	return t, nil
}

// terminalQuestion writes a question and reads one line of answer.
func terminalQuestion(in io.Reader, out io.Writer) func(string) string {
	r := bufio.NewReader(in)
	return func(q string) string {
		fmt.Fprint(out, q)
		line, _ := r.ReadString('\n')
		return line
	}
}

func expandHome(p string) (string, error) {
	if p == "~" || strings.HasPrefix(p, "~/") {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", err
		}
		return filepath.Join(home, p[1:]), nil
	}
	return filepath.Clean(p), nil
}
