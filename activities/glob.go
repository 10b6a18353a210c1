package activities

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/toolpipe/toolpipe/tool"
)

// globMaxResults caps Glob's list, as Claude Code does, to keep the result useful.
const globMaxResults = 100

// Glob lists the files matching a doublestar pattern under path (default: the
// working directory), newest first.
func (a *Activities) Glob(ctx context.Context, call tool.Call) (tool.Output, error) {
	var in tool.GlobInput
	if err := json.Unmarshal(call.Input, &in); err != nil {
		return tool.Output{}, badCall(call, err)
	}
	stop := keepAlive(ctx, call.ToolUseID, nil)
	defer stop()
	base, pattern := resolve(call.Workdir, in.Path), in.Pattern
	if filepath.IsAbs(pattern) {
		base, pattern = doublestar.SplitPattern(filepath.ToSlash(pattern))
	}
	if !doublestar.ValidatePattern(pattern) {
		return errorOutput("Invalid glob pattern %q", in.Pattern)
	}
	if st, err := os.Stat(base); err != nil || !st.IsDir() {
		return errorOutput("Directory does not exist: %s", base)
	}
	type hit struct {
		path  string
		mtime int64
	}
	var hits []hit
	err := doublestar.GlobWalk(os.DirFS(base), pattern, func(p string, d fs.DirEntry) error {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		info, err := d.Info()
		if err != nil {
			return nil // vanished while walking
		}
		hits = append(hits, hit{filepath.Join(base, p), info.ModTime().UnixNano()})
		return nil
	}, doublestar.WithFilesOnly(), doublestar.WithFailOnIOErrors())
	if ctx.Err() != nil {
		return tool.Output{}, ctx.Err()
	}
	if err != nil {
		return errorOutput("Glob failed: %v", err)
	}
	if len(hits) == 0 {
		return tool.Output{Content: "No files found"}, nil
	}
	sort.Slice(hits, func(i, j int) bool {
		if hits[i].mtime != hits[j].mtime {
			return hits[i].mtime > hits[j].mtime
		}
		return hits[i].path < hits[j].path
	})
	var b strings.Builder
	for i, h := range hits {
		if i == globMaxResults {
			fmt.Fprintf(&b, "(Results are truncated: %d more files. Consider a more specific path or pattern.)\n", len(hits)-globMaxResults)
			break
		}
		b.WriteString(h.path + "\n")
	}
	return tool.Output{Content: strings.TrimRight(b.String(), "\n")}, nil
}
