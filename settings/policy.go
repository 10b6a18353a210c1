package settings

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/toolpipe/toolpipe/permissions"
	"github.com/toolpipe/toolpipe/tool/readonly"
)

// PolicyOptions say where a turn runs and which mode the command line asked for.
type PolicyOptions struct {
	// WorkDir is the tools' working directory, absolute.
	WorkDir string
	// Mode is --permission-mode; it wins over permissions.defaultMode. "" means
	// not given.
	Mode string
	// PrivateDirs are directories no call reads without approval, even inside
	// the working directory: the state directory (permissions.Policy.PrivateDirs).
	PrivateDirs []string
}

// Policy builds the permission policy a turn enforces, or nil when neither the
// settings nor the command line say anything about permissions: a turn without
// permission settings runs every call, as toolpipe did before it knew permissions,
// instead of asking for each one with nobody configured to answer.
//
// Directories are made absolute with symbolic links resolved, because the paths
// of calls are resolved the same way before Decide sees them. When resolving
// changes a directory, its spelling as given is kept as an additional directory
// too: a call names a file through the link (/tmp/w/f when /tmp is a link), and
// each spelling of a path must be inside for the call to be inside.
func (s Settings) Policy(o PolicyOptions) (*permissions.Policy, error) {
	if !s.Permissions.Set && o.Mode == "" {
		return nil, nil
	}
	p := s.Permissions
	pol := &permissions.Policy{
		Allow: slices.Clone(p.Allow), Deny: slices.Clone(p.Deny), Ask: slices.Clone(p.Ask),
		Mode:            p.DefaultMode,
		ReadOnlyCommand: readonly.IsReadOnly,
	}
	if o.Mode != "" {
		m, err := permissions.ParseMode(o.Mode)
		if err != nil {
			return nil, fmt.Errorf("settings: %w", err)
		}
		pol.Mode = m
	}
	if !filepath.IsAbs(o.WorkDir) {
		return nil, fmt.Errorf("settings: the working directory %q is not absolute", o.WorkDir)
	}
	work, err := Resolve(o.WorkDir)
	if err != nil {
		return nil, fmt.Errorf("settings: working directory: %w", err)
	}
	pol.WorkDir, pol.ProjectDir = work, work
	var extra []string
	add := func(d string) {
		if d != work && !slices.Contains(extra, d) {
			extra = append(extra, d)
		}
	}
	add(filepath.Clean(o.WorkDir))
	for _, d := range p.AdditionalDirectories {
		r, err := Resolve(d)
		if err != nil {
			return nil, fmt.Errorf("settings: additional directory: %w", err)
		}
		add(r)
		add(d)
	}
	pol.AdditionalDirs = extra
	for _, d := range o.PrivateDirs {
		if d == "" {
			continue
		}
		// Both spellings, as for additional directories; one that does not
		// exist yet keeps its own.
		pol.PrivateDirs = append(pol.PrivateDirs, filepath.Clean(d))
		if r, err := Resolve(d); err == nil && r != filepath.Clean(d) {
			pol.PrivateDirs = append(pol.PrivateDirs, r)
		}
	}
	if home, err := os.UserHomeDir(); err == nil {
		if pol.HomeDir, err = Resolve(home); err != nil {
			pol.HomeDir = home
		}
	}
	return pol, nil
}

// Resolve makes an absolute path canonical: every symbolic link in it resolved, and
// "." and ".." taken physically (after a link, ".." is the parent of the link's
// target, as the kernel does). A path that does not exist yet (a file Write will
// create) has its existing prefix resolved and the rest appended. A dangling link is
// followed to where its target would be: writing through it creates the target, so
// that is the path that must be allowed.
func Resolve(path string) (string, error) {
	if !filepath.IsAbs(path) {
		return "", fmt.Errorf("resolve %q: not an absolute path", path)
	}
	links := 0
	return resolveFrom("/", path, &links)
}

// maxLinks bounds the links followed for one path, as the kernel's ELOOP does.
const maxLinks = 40

// resolveFrom resolves rel (or an absolute path) starting in the physical
// directory cur.
func resolveFrom(cur, rel string, links *int) (string, error) {
	if filepath.IsAbs(rel) {
		cur = "/"
	}
	parts := strings.Split(rel, "/")
	for i, name := range parts {
		switch name {
		case "", ".":
			continue
		case "..":
			cur = filepath.Dir(cur)
			continue
		}
		next := filepath.Join(cur, name)
		fi, err := os.Lstat(next)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.ENOTDIR) {
				// Nothing below can be a link we could read: keep the rest as written.
				return filepath.Join(append([]string{cur}, parts[i:]...)...), nil
			}
			return "", fmt.Errorf("resolve %s: %w", next, err)
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			cur = next
			continue
		}
		if *links++; *links > maxLinks {
			return "", fmt.Errorf("resolve %s: too many levels of symbolic links", next)
		}
		target, err := os.Readlink(next)
		if err != nil {
			return "", fmt.Errorf("resolve %s: %w", next, err)
		}
		if cur, err = resolveFrom(cur, target, links); err != nil {
			return "", err
		}
	}
	return cur, nil
}
