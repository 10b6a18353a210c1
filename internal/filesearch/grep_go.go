package filesearch

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/toolpipe/toolpipe/internal/safefile"
)

// goGrep is the Go engine: ripgrep's walk (hidden files searched, ignore files
// respected, version-control directories and symbolic links skipped, names in
// order) and its matching, for workers without rg.
type goGrep struct {
	ctx     context.Context
	req     GrepRequest
	root    string
	re      *regexp.Regexp
	include []string
	exclude []string
	isType  func(string) bool
	ignores *ignores
	c       *collector
}

// runGo searches with the Go engine.
func runGo(ctx context.Context, req GrepRequest, explicit bool, c *collector) error {
	// rg's ^ and $ match at line ends; with -U --multiline-dotall . also
	// matches a newline.
	expr := req.Pattern
	if req.Multiline {
		expr = "(?ms)" + expr
	}
	if req.CaseInsensitive {
		expr = "(?i)" + expr
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return &RejectedError{Engine: "go", Message: regexRejection(req.Pattern, err)}
	}
	g := &goGrep{ctx: ctx, req: req, root: req.Path, re: re, c: c}
	for _, p := range splitGlobs(req.Glob) {
		neg := strings.HasPrefix(p, "!")
		p = strings.TrimPrefix(strings.TrimPrefix(p, "!"), "/")
		if !doublestar.ValidatePattern(p) {
			return &RejectedError{Engine: "go", Message: "error parsing glob '" + p + "': invalid pattern"}
		}
		if neg {
			g.exclude = append(g.exclude, p)
		} else {
			g.include = append(g.include, p)
		}
	}
	if req.Type != "" {
		var ok bool
		if g.isType, ok = typeMatcher(req.Type); !ok {
			return &RejectedError{Engine: "go", Message: "unrecognized file type: " + req.Type + " (known: " + knownTypes() + ")"}
		}
	}
	if explicit {
		// A file named explicitly is searched whatever the filters say, as rg does.
		err = g.file(req.Path, true)
	} else {
		g.ignores = newIgnores(req.Path)
		err = g.dir(req.Path)
	}
	if errors.Is(err, errStop) {
		return nil
	}
	return err
}

// regexRejection words a pattern RE2 refused as ripgrep does ("regex parse
// error:", the pattern indented, then "error: …"), with RE2's reason: what the
// engines refuse differs (RE2 has no look-around), the shape does not.
func regexRejection(pattern string, err error) string {
	reason := strings.TrimPrefix(err.Error(), "error parsing regexp: ")
	var perr *syntax.Error
	if errors.As(err, &perr) {
		reason = string(perr.Code)
	}
	return "regex parse error:\n    " + strings.Join(strings.Fields(pattern), " ") + "\nerror: " + reason
}

// globHit matches a --glob pattern as rg does: against the name when the pattern
// has no slash, else against the path below the search root.
func (g *goGrep) globHit(patterns []string, abs string) bool {
	rel, _ := filepath.Rel(g.root, abs)
	rel = filepath.ToSlash(rel)
	for _, p := range patterns {
		target := rel
		if !strings.Contains(p, "/") {
			target = filepath.Base(abs)
		}
		if doublestar.MatchUnvalidated(p, target) {
			return true
		}
	}
	return false
}

func (g *goGrep) dir(dir string) error {
	mark := g.ignores.load(dir)
	defer g.ignores.pop(mark)
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil // unreadable: rg reports it on stderr and goes on
	}
	for _, e := range ents {
		if err := g.ctx.Err(); err != nil {
			return err
		}
		abs := filepath.Join(dir, e.Name())
		switch {
		case e.Type()&os.ModeSymlink != 0:
			continue // rg does not follow links without -L
		case e.IsDir():
			if slices.Contains(vcsDirs, e.Name()) || g.ignores.ignored(abs, true) ||
				g.globHit(g.exclude, abs) || g.c.hidden(abs) {
				continue
			}
			if err := g.dir(abs); err != nil {
				return err
			}
		case e.Type().IsRegular():
			if g.ignores.ignored(abs, false) || g.globHit(g.exclude, abs) ||
				len(g.include) > 0 && !g.globHit(g.include, abs) ||
				g.isType != nil && !g.isType(e.Name()) || g.c.hidden(abs) {
				continue
			}
			if err := g.file(abs, false); err != nil {
				return err
			}
		}
	}
	return nil
}

// file searches one file. A file with a NUL byte is binary: skipped when the walk
// found it, searched when named explicitly (rg's two binary modes).
func (g *goGrep) file(abs string, explicit bool) error {
	data, err := safefile.ReadFile(abs) // a FIFO swapped in since the walk is not waited on
	if err != nil {
		return nil
	}
	binaryAt := int64(bytes.IndexByte(data, 0))
	if binaryAt >= 0 && !explicit {
		return nil
	}
	text := string(data)
	lines := strings.SplitAfter(text, "\n")
	if n := len(lines); n > 0 && lines[n-1] == "" {
		lines = lines[:n-1]
	}
	matched, subs := g.match(text, lines)
	switch g.req.Mode {
	case ModeFiles:
		if len(matched) > 0 {
			g.c.file(abs)
		}
		return nil
	case ModeCount:
		g.c.count(abs, len(matched))
		return nil
	}
	g.emitContent(abs, lines, matched, subs)
	g.c.end(abs, binaryAt)
	if g.c.full() {
		return errStop // the page is full: no need to search further
	}
	return nil
}

// match returns the indexes of the matching lines, ascending, and the matched
// texts that start on each (for -o).
func (g *goGrep) match(text string, lines []string) ([]int, map[int][]string) {
	var matched []int
	subs := map[int][]string{}
	if !g.req.Multiline {
		for i, l := range lines {
			l = strings.TrimSuffix(l, "\n")
			if g.req.Mode != ModeContent || !g.req.OnlyMatching {
				if g.re.MatchString(l) {
					matched = append(matched, i)
				}
				continue
			}
			if ms := g.re.FindAllString(l, -1); len(ms) > 0 {
				matched = append(matched, i)
				subs[i] = ms
			}
		}
		return matched, subs
	}
	starts := make([]int, len(lines)) // byte offset where each line starts
	for i, off := 0, 0; i < len(lines); i++ {
		starts[i], off = off, off+len(lines[i])
	}
	lineOf := func(off int) int {
		i, found := slices.BinarySearch(starts, off)
		if !found {
			i--
		}
		return max(i, 0)
	}
	seen := map[int]bool{}
	for _, m := range g.re.FindAllStringIndex(text, -1) {
		if m[1] == m[0] {
			continue
		}
		first, last := lineOf(m[0]), lineOf(max(m[1]-1, m[0]))
		subs[first] = append(subs[first], text[m[0]:m[1]])
		for i := first; i <= last; i++ {
			if !seen[i] {
				seen[i] = true
				matched = append(matched, i)
			}
		}
	}
	slices.Sort(matched)
	return matched, subs
}

// emitContent reports the matching lines with their context, in order.
func (g *goGrep) emitContent(abs string, lines []string, matched []int, subs map[int][]string) {
	isMatch := make(map[int]bool, len(matched))
	for _, i := range matched {
		isMatch[i] = true
	}
	next := 0 // first line not yet reported
	for _, m := range matched {
		from := max(m-g.req.Before, next)
		for i := from; i <= min(m+g.req.After, len(lines)-1); i++ {
			if i < next {
				continue
			}
			l := outLine{num: i + 1, text: strings.TrimSuffix(lines[i], "\n"), match: isMatch[i]}
			if g.req.OnlyMatching {
				l.subs = subs[i]
				if l.match && len(l.subs) == 0 {
					continue // a line inside a multiline match, printed with its start
				}
			}
			g.c.line(abs, l)
			next = i + 1
		}
	}
}
