package activities

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"golang.org/x/text/unicode/norm"
)

// Read's "Did you mean …?" for a path that does not exist, Claude Code 2.1.328's:
// the same path under the working directory when the model wrote it under the
// working directory's parent (a sibling's name for the project's directory), else
// a file in the same directory with the same name and another extension.

// sensibleExt is an extension Claude Code suggests a file by: none, or a dot and
// up to 32 letters, digits and _+~#-.
var sensibleExt = regexp.MustCompile(`^(\.[\p{L}\p{N}_+~#-]{1,32})?$`)

// didYouMean returns " Did you mean X?" for a missing path, or "".
func didYouMean(workdir, path string) string {
	if h := workdirHint(workdir, path); h != "" {
		return h
	}
	if name := similarFile(path); name != "" {
		return " Did you mean " + name + "?"
	}
	return ""
}

// workdirHint is " Did you mean X?" for a path under the working directory's
// parent that exists under the working directory (Read's, Glob's and Grep's), or "".
func workdirHint(workdir, path string) string {
	if p := underWorkdir(workdir, path); p != "" {
		return " Did you mean " + p + "?"
	}
	return ""
}

// underWorkdir: path is in the working directory's parent but not in the working
// directory, and the same relative path exists in the working directory.
func underWorkdir(workdir, path string) string {
	if real, err := filepath.EvalSymlinks(filepath.Dir(path)); err == nil {
		path = filepath.Join(real, filepath.Base(path))
	}
	parent := filepath.Dir(workdir)
	prefix := parent
	if prefix != "/" {
		prefix += "/"
	}
	if !strings.HasPrefix(path, prefix) || strings.HasPrefix(path, workdir+"/") || path == workdir {
		return ""
	}
	rel, err := filepath.Rel(parent, path)
	if err != nil {
		return ""
	}
	p := filepath.Join(workdir, rel)
	if _, err := os.Stat(p); err != nil {
		return ""
	}
	return p
}

// similarFile is the first file (by name) in path's directory with path's name
// but another extension.
func similarFile(path string) string {
	dir, base := filepath.Dir(path), filepath.Base(path)
	stem := strings.TrimSuffix(base, filepath.Ext(base))
	ents, err := os.ReadDir(dir)
	if err != nil {
		return ""
	}
	for _, e := range ents {
		n := e.Name()
		ext := filepath.Ext(n)
		if sensibleExt.MatchString(norm.NFC.String(ext)) && strings.TrimSuffix(n, ext) == stem && filepath.Join(dir, n) != path {
			return n
		}
	}
	return ""
}
