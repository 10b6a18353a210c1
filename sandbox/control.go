package sandbox

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

// Control files steer what later runs outside the sandbox: Claude Code's
// settings (permission rules, hooks, the sandbox settings themselves),
// .mcp.json (servers the worker starts), toolpipe.yaml (the permission mode),
// git's config, hooks, info and commondir (which moves the config elsewhere),
// .gitmodules, and .git itself (a .git file or a new repository redirects git).
// A sandboxed command may read them and must not change or create them.
//
// Existing ones are bound read-only onto themselves, which also pins their name:
// a mount point cannot be renamed or removed. A missing one cannot be bound, so
// the worker first creates a placeholder there (an empty directory, or a file
// whose content means "nothing": {"mcpServers": {}}, a commondir of "."), binds
// it read-only and removes it when the last command using it ends. .git is bound
// onto itself so that it cannot be moved aside and made anew. A control file
// that is a symbolic link cannot be pinned (the mount would land on its target
// and the link could be replaced), so the sandbox refuses to start there.
type controlFile struct {
	rel string
	dir bool
	// placeholder is the content of a file made where none exists; it must mean
	// the same as no file to whatever reads it meanwhile.
	placeholder string
}

const placeholderNote = "# Made by the toolpipe sandbox while a command ran, so that the command could not create this file; safe to delete.\n"

// projectControl are the control files at the top of a project directory.
var projectControl = []controlFile{
	{rel: ".claude", dir: true},
	{rel: ".mcp.json", placeholder: "{\"mcpServers\": {}}\n"},
	{rel: ".gitmodules", placeholder: placeholderNote},
	{rel: "toolpipe.yaml", placeholder: placeholderNote},
}

// gitControl are the control files inside a .git directory.
var gitControl = []controlFile{
	{rel: "config"},
	{rel: "hooks", dir: true},
	{rel: "info", dir: true},
	{rel: "commondir", placeholder: ".\n"},
}

// ControlPaths lists the control files of a project directory (those that exist
// or not); the Landlock fallback withholds write access to them.
func ControlPaths(dir string) []string {
	var out []string
	for _, c := range projectControl {
		out = append(out, filepath.Join(dir, c.rel))
	}
	git := filepath.Join(dir, ".git")
	if fi, err := os.Lstat(git); err == nil && !fi.IsDir() {
		return append(out, git) // a .git file (worktree, submodule): it names the repository
	}
	for _, c := range gitControl {
		out = append(out, filepath.Join(git, c.rel))
	}
	return out
}

// guard adds to b the mounts that keep the control files of the project
// directory dir read-only, existing or not.
func (b *bwrapArgs) guard(dir string) error {
	git := filepath.Join(dir, ".git")
	switch fi, err := os.Lstat(git); {
	case err == nil && fi.Mode()&fs.ModeSymlink != 0:
		return symlinkControl(git)
	case err == nil && fi.IsDir():
		b.add("--bind", git, git) // pinned: it cannot be moved aside and made anew
		for _, c := range gitControl {
			if err := b.guardOne(filepath.Join(git, c.rel), c); err != nil {
				return err
			}
		}
	default: // a .git file, or none: a new repository would take over from the one above
		if err := b.guardOne(git, controlFile{dir: true}); err != nil {
			return err
		}
	}
	for _, c := range projectControl {
		if err := b.guardOne(filepath.Join(dir, c.rel), c); err != nil {
			return err
		}
	}
	return nil
}

func (b *bwrapArgs) guardOne(p string, c controlFile) error {
	fi, err := os.Lstat(p)
	switch {
	case err == nil && fi.Mode()&fs.ModeSymlink != 0:
		return symlinkControl(p)
	case err == nil:
	case !errors.Is(err, fs.ErrNotExist):
		return &Unavailable{fmt.Sprintf("%s cannot be checked: %v", p, err)}
	default:
		made, err := placeholders.acquire(p, c)
		if err != nil {
			// Not even the worker can create it there, so neither can the command.
			return nil
		}
		if made {
			b.release = append(b.release, func() { placeholders.release(p, c) })
		}
	}
	b.add("--ro-bind", p, p)
	return nil
}

func symlinkControl(p string) error {
	return &Unavailable{fmt.Sprintf("%s is a symbolic link, which the sandbox cannot keep from being replaced; make it a plain file or directory", p)}
}

// placeholders counts the commands of this process that use each placeholder,
// so that one ending does not remove it under another.
var placeholders = placeholderSet{n: map[string]int{}}

type placeholderSet struct {
	mu sync.Mutex
	n  map[string]int
}

// acquire makes the placeholder at p, or counts one more user of the one this
// process made. made is false when p exists and is not a placeholder of ours.
func (s *placeholderSet) acquire(p string, c controlFile) (made bool, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.n[p] > 0 {
		s.n[p]++
		return true, nil
	}
	if c.dir {
		err = os.Mkdir(p, 0o755)
	} else {
		var f *os.File
		if f, err = os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644); err == nil {
			_, err = f.WriteString(c.placeholder)
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				os.Remove(p)
			}
		}
	}
	if errors.Is(err, fs.ErrExist) {
		return false, nil // made meanwhile by someone else: bound as it is
	}
	if err != nil {
		return false, err
	}
	s.n[p] = 1
	return true, nil
}

// release removes the placeholder at p once its last user ended, if it is still
// what acquire made.
func (s *placeholderSet) release(p string, c controlFile) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.n[p]--; s.n[p] > 0 {
		return
	}
	delete(s.n, p)
	if c.dir {
		os.Remove(p) // only when empty
		return
	}
	if data, err := os.ReadFile(p); err == nil && bytes.Equal(data, []byte(c.placeholder)) {
		os.Remove(p)
	}
}
