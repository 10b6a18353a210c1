package checkpoint

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
)

// plan is what a scan decided: paths to drop from the index (gone, or present but
// no longer captured), run first; paths to (re)hash; and what was left out.
type plan struct {
	update      []string
	forceRemove []string
	skipped     []Skipped
	stat        map[string]statKey // of each path of update, as the scan saw it
}

// scan asks git what changed against the private index (its stat cache makes this
// cost a stat per file, not a read) and decides, path by path, what to capture.
func (w *workspace) scan(ctx context.Context) (plan, error) {
	// What changed in tracked files (a stat per index entry) and what is new (a walk
	// with the ignore rules) are two independent passes: run at once, on two cores
	// they cost the longer one.
	var changed, others []byte
	var otherErr error
	done := make(chan struct{})
	go func() {
		defer close(done)
		others, otherErr = w.run(ctx, nil, "ls-files", "-z", "-o", "--exclude-standard")
	}()
	changed, err := w.run(ctx, nil, "ls-files", "-z", "-m", "-d")
	<-done
	if err == nil {
		err = otherErr
	}
	if err != nil {
		return plan{}, err
	}
	p := plan{stat: map[string]statKey{}}
	tracked := map[string]bool{}
	var paths []string
	rulesChanged := false
	add := func(out []byte, isTracked bool) {
		for entry := range bytes.SplitSeq(out, []byte{0}) {
			if len(entry) == 0 {
				continue
			}
			name := string(entry)
			if _, seen := tracked[name]; !seen {
				paths = append(paths, name)
				tracked[name] = isTracked
			}
			if path.Base(strings.TrimSuffix(name, "/")) == ".gitignore" {
				rulesChanged = true
			}
		}
	}
	add(changed, true)
	add(others, false)
	drop := map[string]bool{}
	if rulesChanged && w.state.Index != "" {
		// A .gitignore changed: files captured before may be ignored now.
		ign, err := w.run(ctx, nil, "ls-files", "-z", "-c", "-i", "--exclude-standard")
		if err != nil {
			return plan{}, err
		}
		for name := range bytes.SplitSeq(ign, []byte{0}) {
			if len(name) > 0 {
				drop[string(name)] = true
			}
		}
	}
	type candidate struct {
		path string
		size int64
	}
	var files []candidate
	leaveOut := func(name string, size int64, reason string) {
		p.skipped = append(p.skipped, Skipped{Path: name, Size: size, Reason: reason})
		if tracked[name] {
			drop[name] = true
		}
	}
	for _, name := range paths {
		if drop[name] {
			continue
		}
		if dir, ok := strings.CutSuffix(name, "/"); ok {
			// git lists a directory with its own .git as one entry and never looks in.
			p.skipped = append(p.skipped, Skipped{Path: dir, Reason: "nested git repository"})
			continue
		}
		full := filepath.Join(w.workdir, filepath.FromSlash(name))
		info, err := os.Lstat(full)
		switch {
		case isNotExist(err):
			if tracked[name] {
				// Dropped before anything is added: a file that replaces its old
				// directory ("a" for "a/x") could not be added while "a/x" is there.
				drop[name] = true
			}
		case err != nil:
			leaveOut(name, 0, "cannot be read: "+err.Error())
		case info.Mode()&os.ModeSymlink != 0:
			p.update = append(p.update, name)
			if k, ok := keyOf(info); ok {
				p.stat[name] = k
			}
		case info.Mode().IsRegular():
			switch max := w.c.cfg.MaxFileBytes; {
			case max >= 0 && info.Size() > max:
				leaveOut(name, info.Size(), fmt.Sprintf("over the %s per-file cap", humanBytes(max)))
			case !readable(full):
				leaveOut(name, info.Size(), "cannot be read")
			default:
				files = append(files, candidate{name, info.Size()})
				if k, ok := keyOf(info); ok {
					p.stat[name] = k
				}
			}
		case info.IsDir():
			drop[name] = true // a tracked file that became a directory; git lists its files
		default:
			leaveOut(name, 0, "not a regular file or symbolic link")
		}
	}
	// The checkpoint's cap on new content: the smallest files first, so that one
	// huge output does not push out a turn's source edits.
	slices.SortFunc(files, func(a, b candidate) int { return cmp.Or(cmp.Compare(a.size, b.size), strings.Compare(a.path, b.path)) })
	var total int64
	for _, f := range files {
		if max := w.c.cfg.MaxCheckpointBytes; max >= 0 && total+f.size > max {
			leaveOut(f.path, f.size, fmt.Sprintf("over the %s cap on one checkpoint's new content; tried again next time", humanBytes(max)))
			continue
		}
		total += f.size
		p.update = append(p.update, f.path)
	}
	for name := range drop {
		p.forceRemove = append(p.forceRemove, name)
	}
	slices.Sort(p.forceRemove)
	slices.Sort(p.update)
	slices.SortFunc(p.skipped, func(a, b Skipped) int { return strings.Compare(a.Path, b.Path) })
	return p, nil
}

// readable reports whether a regular file can be opened for reading (git would
// otherwise stop the whole update at it). O_NONBLOCK: never wait on a file that
// turned into a FIFO since the Lstat.
func readable(path string) bool {
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
	if err != nil {
		return false
	}
	syscall.Close(fd)
	return true
}

func nulList(paths []string) []byte {
	var b bytes.Buffer
	for _, p := range paths {
		b.WriteString(p)
		b.WriteByte(0)
	}
	return b.Bytes()
}
