package activities

import (
	"context"
	"slices"

	"github.com/toolpipe/toolpipe/contract"
	"github.com/toolpipe/toolpipe/settings"
)

// ResolvePaths resolves the paths of a call for the permission check. It is an
// activity because it reads the filesystem, which workflow code must not; its
// answer is recorded, so a replay decides on the same paths.
func (a *Activities) ResolvePaths(ctx context.Context, req contract.ResolveRequest) (contract.ResolveResult, error) {
	var out []string
	add := func(p string) {
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	for _, p := range req.Paths {
		add(p)
		r, err := settings.Resolve(p)
		if err != nil {
			// A link loop or an unreadable link: the path as given is still
			// checked, and the tool itself will fail on it.
			a.log.Warn("resolve path for a permission check", "tool_use_id", req.ToolUseID, "path", p, "error", err)
			continue
		}
		add(r)
	}
	return contract.ResolveResult{Paths: out}, nil
}
