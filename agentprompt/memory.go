package agentprompt

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// MaxMemoryFile bounds what one memory file adds to the prompt, in bytes; a longer
// file is cut and says so.
const MaxMemoryFile = 40_000

// MemoryFiles lists the project memory files that exist, in the order Claude Code
// loads them: the user's ~/.claude/CLAUDE.md, then from the filesystem root down to
// the working directory each directory's CLAUDE.md, .claude/CLAUDE.md and
// CLAUDE.local.md. Later files are nearer the work and take precedence.
func MemoryFiles(workdir, home string) []string {
	var out []string
	add := func(p string) {
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			out = append(out, p)
		}
	}
	if home != "" {
		add(filepath.Join(home, ".claude", "CLAUDE.md"))
	}
	var dirs []string
	for d := filepath.Clean(workdir); ; d = filepath.Dir(d) {
		dirs = append(dirs, d)
		if filepath.Dir(d) == d {
			break
		}
	}
	for i := len(dirs) - 1; i >= 0; i-- {
		d := dirs[i]
		add(filepath.Join(d, "CLAUDE.md"))
		add(filepath.Join(d, ".claude", "CLAUDE.md"))
		add(filepath.Join(d, "CLAUDE.local.md"))
	}
	return dedupe(out)
}

// Memory is the memory files' contents as a prompt section, or "" when there are none.
func Memory(workdir, home string) string {
	files := MemoryFiles(workdir, home)
	if len(files) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("Project memory: instructions from the user and the project (CLAUDE.md files). Follow them; nearer files override farther ones.\n")
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		text := string(data)
		if len(text) > MaxMemoryFile {
			cut := MaxMemoryFile
			for cut > 0 && !utf8.RuneStart(text[cut]) {
				cut--
			}
			text = text[:cut] + fmt.Sprintf("\n[cut: the file has %d bytes]", len(data))
		}
		fmt.Fprintf(&b, "\nContents of %s:\n\n%s\n", f, strings.TrimSpace(text))
	}
	return strings.TrimRight(b.String(), "\n")
}

func dedupe(paths []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, p := range paths {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}
