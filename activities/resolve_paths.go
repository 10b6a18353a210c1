package activities

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"go.temporal.io/sdk/temporal"

	"github.com/toolpipe/toolpipe/contract"
	"github.com/toolpipe/toolpipe/settings"
)

// maxGlobMatches bounds the files a read-only Bash command's patterns may
// match for the permission check to resolve them all.
const maxGlobMatches = 10000

// ResolvePaths resolves the paths of a call for the permission check. It is an
// activity because it reads the filesystem, which workflow code must not; its
// answer is recorded, so a replay decides on the same paths. The files a
// read-only command's patterns match are resolved as well: "cat l*" reads
// through a link l that points out of the working directory.
func (a *Activities) ResolvePaths(ctx context.Context, req contract.ResolveRequest) (contract.ResolveResult, error) {
	var out []string
	add := func(p string) {
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	resolve := func(p string) {
		add(p)
		r, err := settings.Resolve(p)
		if err != nil {
			// A link loop or an unreadable link: the path as given is still
			// checked, and the tool itself will fail on it.
			a.log.Warn("resolve path for a permission check", "tool_use_id", req.ToolUseID, "path", p, "error", err)
			return
		}
		add(r)
	}
	for _, p := range req.Paths {
		resolve(p)
	}
	matched := 0
	for _, g := range req.Globs {
		matches, err := shellGlob(g)
		if err != nil {
			a.log.Warn("expand a pattern for a permission check", "tool_use_id", req.ToolUseID, "pattern", g, "error", err)
			continue
		}
		if matched += len(matches); matched > maxGlobMatches {
			return contract.ResolveResult{}, temporal.NewNonRetryableApplicationError(
				fmt.Sprintf("the command's patterns match more than %d files; name the files or a narrower pattern", maxGlobMatches), "TooManyMatches", nil)
		}
		for _, m := range matches {
			resolve(m)
		}
	}
	return contract.ResolveResult{Paths: out}, nil
}

// shellGlob lists what a bash pattern may match, or more: Go's matcher lets *
// match dot files, and a class it cannot read ([[:alpha:]]) counts as any
// character. A backslash is an ordinary character after the shell removed
// quotes, so it is matched literally.
func shellGlob(pattern string) ([]string, error) {
	var b strings.Builder
	for i := 0; i < len(pattern); i++ {
		switch c := pattern[i]; {
		case c == '\\':
			b.WriteString(`\\`)
		case c == '[' && i+1 < len(pattern) && pattern[i+1] == '!':
			b.WriteString("[^")
			i++
		default:
			b.WriteByte(c)
		}
	}
	matches, err := filepath.Glob(b.String())
	if err == filepath.ErrBadPattern {
		// Replace every bracket expression by ?, which matches at least as much.
		var loose strings.Builder
		depth := 0
		for _, c := range []byte(pattern) {
			switch {
			case c == '[' && depth == 0:
				depth = 1
				loose.WriteByte('?')
			case c == ']' && depth > 0:
				depth = 0
			case depth == 0 && c == '\\':
				loose.WriteString(`\\`)
			case depth == 0:
				loose.WriteByte(c)
			}
		}
		matches, err = filepath.Glob(loose.String())
	}
	return matches, err
}
