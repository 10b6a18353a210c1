package filesearch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// GlobLimit is how many files Glob lists, as in Claude Code.
const GlobLimit = 100

// GlobRequest is one Glob search.
type GlobRequest struct {
	// Workdir is the working directory: results inside it are shown relative to it.
	Workdir string
	// Base is the absolute directory searched, and Pattern the doublestar
	// pattern matched against paths relative to it.
	Base, Pattern string
	// Dirs are the permitted directories (the working directory and
	// additionalDirectories): a symbolic link is followed only into them. Base
	// is permitted too, since the permission check let the call search it.
	Dirs []string
	// Hide reports whether a path is hidden by a deny rule; nil hides nothing.
	Hide func(abs string) bool
	// Limit is how many files to list; 0 means GlobLimit.
	Limit int
}

// GlobResult is what a Glob found: the oldest Limit files, oldest first, and
// how many matched in all.
type GlobResult struct {
	Files []string // as shown: see Display
	Total int
}

// ErrBadPattern is returned for a pattern doublestar cannot read.
var ErrBadPattern = errors.New("invalid glob pattern")

// Glob walks req.Base and returns the files matching req.Pattern, which it reads
// as ripgrep's --glob does (glob_syntax.go): hidden and ignored files included. Its memory is
// bounded by req.Limit (plus the depth of the tree), not by the number of files.
func Glob(ctx context.Context, req GlobRequest) (GlobResult, error) {
	pattern := filepath.ToSlash(req.Pattern)
	for strings.HasPrefix(pattern, "./") {
		pattern = strings.TrimLeft(pattern[2:], "/") // "./src/*.go" means "src/*.go"
	}
	m, err := parseGlob(pattern) // glob_syntax.go: ripgrep's reading of it
	if err != nil {
		return GlobResult{}, err
	}
	if m.dirsOnly {
		return GlobResult{}, nil // it names directories; Glob lists files
	}
	pattern = m.pattern
	if !doublestar.ValidatePattern(pattern) {
		return GlobResult{}, ErrBadPattern
	}
	limit := req.Limit
	if limit <= 0 {
		limit = GlobLimit
	}
	base := filepath.Clean(req.Base)
	permitted := realDirs(append([]string{base}, req.Dirs...))
	// A fixed prefix ("src/cmd/**/*.go") is where the walk starts: nothing
	// outside it can match.
	if dir, rest := doublestar.SplitPattern(pattern); !m.basename && dir != "." && rest != "" && !strings.Contains(dir, "..") {
		base, pattern = filepath.Join(base, filepath.FromSlash(dir)), rest
	}
	real, err := filepath.EvalSymlinks(base)
	if err != nil || !withinAny(permitted, real) {
		// A fixed prefix that does not exist matches nothing, and one that is a
		// link out of the permitted directories is not followed.
		return GlobResult{}, nil
	}
	if st, err := os.Stat(real); err != nil || !st.IsDir() {
		return GlobResult{}, nil
	}
	hide := req.Hide
	if hide == nil {
		hide = func(string) bool { return false }
	}
	depth := patternDepth(pattern)
	if m.basename {
		depth = -1 // a name matches at any depth
	}
	w := &globWalk{
		ctx: ctx, workdir: req.Workdir, pattern: pattern, basename: m.basename, maxDepth: depth,
		permitted: permitted, walked: []string{real},
		hide: hide, top: newOldest(limit),
	}
	if err := w.dir(base, real, "", 0); err != nil {
		return GlobResult{}, err
	}
	return GlobResult{Files: w.top.sorted(), Total: w.total}, nil
}

// Text is the result as Claude Code's Glob prints it.
func (r GlobResult) Text() string {
	if r.Total == 0 {
		return "No files found"
	}
	s := strings.Join(r.Files, "\n")
	if more := r.Total - len(r.Files); more > 0 {
		s += fmt.Sprintf("\n(Showing %d of %d matching files; %d more are not listed. Narrow the pattern or path to see the rest.)", len(r.Files), r.Total, more)
	}
	return s
}

// patternDepth is how many path segments a match can have, or -1 when "**"
// makes it unbounded: the walk goes no deeper.
func patternDepth(pattern string) int {
	if strings.Contains(pattern, "**") || strings.ContainsAny(pattern, "{") {
		return -1
	}
	return strings.Count(pattern, "/") + 1
}

// globWalk is the state of one Glob walk.
type globWalk struct {
	ctx       context.Context
	workdir   string
	pattern   string
	basename  bool // the pattern matches a file's name, not its path
	maxDepth  int
	permitted []string // real paths a link may lead into
	walked    []string // real roots walked: the base and each link followed
	hide      func(string) bool
	top       *oldest
	total     int
}

// dir lists the directory abs (whose real path is real, and which is rel below
// the base, depth segments deep), reading it in batches so that a directory of a
// million entries is never held whole.
func (w *globWalk) dir(abs, real, rel string, depth int) error {
	f, err := os.Open(abs)
	if err != nil {
		return nil // unreadable: searched as far as permitted, like find
	}
	defer f.Close()
	for {
		ents, rerr := f.ReadDir(512)
		for _, e := range ents {
			if err := w.entry(e, abs, real, rel, depth+1); err != nil {
				return err
			}
		}
		if rerr != nil {
			if errors.Is(rerr, io.EOF) {
				return nil
			}
			return nil // a directory that fails mid-read keeps what was read
		}
	}
}

func (w *globWalk) entry(e fs.DirEntry, parentAbs, parentReal, parentRel string, depth int) error {
	if err := w.ctx.Err(); err != nil {
		return err
	}
	name := e.Name()
	abs, real, rel := parentAbs+"/"+name, parentReal+"/"+name, name
	if parentRel != "" {
		rel = parentRel + "/" + name
	}
	descend := w.maxDepth < 0 || depth < w.maxDepth
	switch {
	case e.Type()&fs.ModeSymlink != 0:
		target, err := filepath.EvalSymlinks(abs)
		if err != nil || !withinAny(w.permitted, target) {
			return nil // dangling, a loop, or leading out of the permitted directories
		}
		st, err := os.Stat(target)
		if err != nil {
			return nil
		}
		if !st.IsDir() {
			return w.file(abs, target, rel, st)
		}
		if !descend || w.hide(abs) || w.hide(target) {
			return nil
		}
		for _, done := range w.walked {
			if within(done, target) || within(target, done) {
				return nil // already walked under its own name, or a loop
			}
		}
		w.walked = append(w.walked, target)
		return w.dir(abs, target, rel, depth)
	case e.IsDir():
		if !descend || w.hide(abs) || w.hide(real) {
			return nil
		}
		return w.dir(abs, real, rel, depth)
	}
	info, err := e.Info()
	if err != nil {
		return nil // vanished while walking
	}
	return w.file(abs, real, rel, info)
}

func (w *globWalk) file(abs, real, rel string, info fs.FileInfo) error {
	name := rel
	if w.basename {
		name = path.Base(rel)
	}
	if !doublestar.MatchUnvalidated(w.pattern, name) || w.hide(abs) || w.hide(real) {
		return nil
	}
	w.total++
	w.top.add(info.ModTime().UnixNano(), Display(w.workdir, abs))
	return nil
}
