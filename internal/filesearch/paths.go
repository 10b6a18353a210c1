package filesearch

import (
	"path/filepath"
	"strings"
)

// Display is how a result path is shown to the model: relative to the working
// directory when it is inside it, as Claude Code prints it, and absolute
// otherwise (a relative path climbing out with ".." would be harder to read and
// to pass back to Read).
func Display(workdir, abs string) string {
	if workdir == "" {
		return abs
	}
	rel, err := filepath.Rel(workdir, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return abs
	}
	return rel
}

// within reports whether path is dir or below it. Both are absolute and clean.
func within(dir, path string) bool {
	if dir == "/" {
		return true
	}
	return path == dir || strings.HasPrefix(path, dir+"/")
}

// withinAny reports whether path is within one of dirs.
func withinAny(dirs []string, path string) bool {
	for _, d := range dirs {
		if within(d, path) {
			return true
		}
	}
	return false
}

// realDirs resolves the symbolic links of dirs; a directory that cannot be
// resolved (it does not exist) is kept as given, since it can contain nothing.
func realDirs(dirs []string) []string {
	out := make([]string, 0, len(dirs))
	for _, d := range dirs {
		if d == "" {
			continue
		}
		if r, err := filepath.EvalSymlinks(d); err == nil {
			d = r
		}
		out = append(out, filepath.Clean(d))
	}
	return out
}
