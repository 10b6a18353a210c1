package filesearch

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"

	"github.com/toolpipe/toolpipe/internal/safefile"
)

// ignoreFiles are read in every directory, later ones winning, as ripgrep does:
// .gitignore only inside a git repository, .ignore and .rgignore everywhere.
var ignoreFiles = []string{".gitignore", ".ignore", ".rgignore"}

// ignores is the stack of ignore patterns in force at one point of a walk. Paths
// are matched as components relative to root: the repository's top directory, or
// the search root outside a repository.
type ignores struct {
	root  string
	inGit bool
	ps    []gitignore.Pattern
}

// newIgnores finds the repository around dir and loads the ignore files of the
// directories from its top down to dir's parent (the walk loads dir's own).
func newIgnores(dir string) *ignores {
	ig := &ignores{root: dir}
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			ig.root, ig.inGit = d, true
			break
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	if ig.inGit {
		ig.ps = append(ig.ps, readPatterns(filepath.Join(ig.root, ".git", "info", "exclude"), nil)...)
		rel, _ := filepath.Rel(ig.root, dir)
		parts := ig.components(rel)
		for i := range parts {
			ig.load(filepath.Join(ig.root, filepath.Join(parts[:i]...)))
		}
	}
	return ig
}

func (ig *ignores) components(rel string) []string {
	rel = filepath.ToSlash(rel)
	if rel == "." || rel == "" {
		return nil
	}
	return strings.Split(rel, "/")
}

// load adds the ignore files of dir and returns the stack's previous height, to
// which the walk truncates when it leaves dir.
func (ig *ignores) load(dir string) int {
	n := len(ig.ps)
	rel, err := filepath.Rel(ig.root, dir)
	if err != nil {
		return n
	}
	domain := ig.components(rel)
	for _, name := range ignoreFiles {
		if name == ".gitignore" && !ig.inGit {
			continue
		}
		ig.ps = append(ig.ps, readPatterns(filepath.Join(dir, name), domain)...)
	}
	return n
}

func (ig *ignores) pop(n int) { ig.ps = ig.ps[:n] }

// ignored reports whether the absolute path is ignored.
func (ig *ignores) ignored(abs string, isDir bool) bool {
	if len(ig.ps) == 0 {
		return false
	}
	rel, err := filepath.Rel(ig.root, abs)
	if err != nil || strings.HasPrefix(rel, "..") {
		return false
	}
	return gitignore.NewMatcher(ig.ps).Match(ig.components(rel), isDir)
}

func readPatterns(path string, domain []string) []gitignore.Pattern {
	f, err := safefile.Open(path) // an ignore file that is a FIFO is skipped, not waited on
	if err != nil {
		return nil
	}
	defer f.Close()
	var ps []gitignore.Pattern
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		ps = append(ps, gitignore.ParsePattern(line, domain))
	}
	return ps
}
