package filesearch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// GrepHeadLimit is how many lines or entries Grep shows when head_limit is not
// given, as in Claude Code.
const GrepHeadLimit = 250

// maxColumns is ripgrep's --max-columns as Claude Code sets it: longer lines are
// replaced by a note.
const maxColumns = 500

// Output modes of Grep.
const (
	ModeFiles   = "files_with_matches"
	ModeContent = "content"
	ModeCount   = "count"
)

// vcsDirs are never searched, as in Claude Code.
var vcsDirs = []string{".git", ".svn", ".hg", ".bzr", ".jj", ".sl"}

// GrepRequest is one Grep search, Claude Code's parameters made explicit.
type GrepRequest struct {
	// Workdir is the working directory: paths inside it are shown relative to it.
	Workdir string
	// Path is the absolute file or directory searched.
	Path string
	// Pattern is the regular expression.
	Pattern string
	// Glob is the glob parameter: patterns separated by spaces or commas
	// (commas inside braces belong to the brace).
	Glob string
	// Type is a ripgrep file type (go, js, py, ...).
	Type string
	// Mode is ModeFiles (the default), ModeContent or ModeCount.
	Mode string
	// CaseInsensitive, LineNumbers (content mode), OnlyMatching (content mode)
	// and Multiline (. matches newlines, matches span lines) are rg's -i, -n,
	// -o and -U --multiline-dotall.
	CaseInsensitive, LineNumbers, OnlyMatching, Multiline bool
	// Before and After are context lines (content mode).
	Before, After int
	// HeadLimit is how many lines or entries to show, 0 for all; Offset how
	// many to skip first.
	HeadLimit, Offset int
	// Hide reports whether a path is hidden by a deny rule; nil hides nothing.
	Hide func(abs string) bool
	// Rg is the ripgrep binary; "" searches with the Go engine.
	Rg string
}

// RejectedError is a pattern, glob or file type the engine refused before
// searching. Its message is the engine's.
type RejectedError struct {
	Engine, Message string
}

// rejectedFirstLine is Claude Code 2.1.328's first line for a search ripgrep
// refused. Both engines give it, so that the model (and test/parity) sees the same
// answer whether or not the worker has rg; the engine's own words follow it.
const rejectedFirstLine = "Search failed — ripgrep rejected the pattern, glob, or file type without searching:"

func (e *RejectedError) Error() string {
	return rejectedFirstLine + "\n" + e.Message
}

// Grep searches and writes Claude Code's text for the result to w. Memory is
// bounded by head_limit and offset, not by the number of matches (except with
// head_limit 0, where what is shown is what is kept).
func Grep(ctx context.Context, req GrepRequest, w io.Writer) error {
	if req.Mode == "" {
		req.Mode = ModeFiles
	}
	if req.Mode != ModeContent {
		req.Before, req.After, req.OnlyMatching = 0, 0, false
	}
	st, err := os.Stat(req.Path)
	if err != nil {
		return err
	}
	c := newCollector(req, !st.IsDir(), w)
	if req.Rg != "" {
		err = runRg(ctx, req, !st.IsDir(), c)
	} else {
		err = runGo(ctx, req, !st.IsDir(), c)
	}
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return c.finish()
}

// splitGlobs reads the glob parameter as Claude Code does: space-separated
// patterns, each split on commas unless it holds a brace.
func splitGlobs(s string) []string {
	var out []string
	for _, f := range strings.Fields(s) {
		if strings.Contains(f, "{") {
			out = append(out, f)
			continue
		}
		for _, p := range strings.Split(f, ",") {
			if p != "" {
				out = append(out, p)
			}
		}
	}
	return out
}

// pagination is Claude Code's note on what head_limit and offset left out.
func pagination(limit, offset, total int) string {
	var parts []string
	if limit > 0 && total-offset > limit {
		parts = append(parts, fmt.Sprintf("limit: %d", limit))
	}
	if offset > 0 {
		parts = append(parts, fmt.Sprintf("offset: %d", offset))
	}
	return strings.Join(parts, ", ")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

var errStop = errors.New("search: stop")
