package activities

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/toolpipe/toolpipe/tool"
)

// sandbox.filesystem.denyRead hides paths from every tool, not only from
// sandboxed Bash: Read, Edit and Write refuse a path inside one, Glob and Grep
// refuse to search inside one and leave its files out of what they find. It
// applies whether sandbox.enabled is on or not: a path the user listed as
// unreadable stays unreadable. Symbolic links are resolved first, so a link in
// the working directory to a denied file is denied too.

// deniedRead is the refusal for a call whose path (absolute) lies in a denyRead
// path, "" when none covers it. verb says what the tool would do (read, write,
// search).
func deniedRead(call tool.Call, verb, path string) string {
	if d := deniedBy(call, path); d != "" {
		return fmt.Sprintf("Permission to %s %s was denied: it is inside %s, which sandbox.filesystem.denyRead hides from every tool.", verb, path, d)
	}
	return ""
}

// deniedBy returns the denyRead entry covering path or its resolved form, "".
func deniedBy(call tool.Call, path string) string {
	if call.Sandbox == nil || len(call.Sandbox.Filesystem.DenyRead) == 0 {
		return ""
	}
	for _, p := range []string{filepath.Clean(path), resolvedPath(path)} {
		for _, d := range call.Sandbox.Filesystem.DenyRead {
			if p != "" && within(p, d) {
				return d
			}
		}
	}
	return ""
}

// resolvedPath is path with its symbolic links resolved; for a path that does
// not exist yet (a new file), its nearest existing parent's, with the rest
// appended.
func resolvedPath(path string) string {
	rest := ""
	for p := filepath.Clean(path); ; p = filepath.Dir(p) {
		r, err := filepath.EvalSymlinks(p)
		if err == nil {
			return filepath.Join(r, rest)
		}
		if !errors.Is(err, fs.ErrNotExist) || p == filepath.Dir(p) {
			return ""
		}
		if _, lerr := os.Lstat(p); lerr == nil {
			return "" // a dangling link: its target does not exist, nothing to read
		}
		rest = filepath.Join(filepath.Base(p), rest)
	}
}

// within reports whether p is dir or inside it.
func within(p, dir string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && (len(rel) < 3 || rel[:3] != "../")
}
