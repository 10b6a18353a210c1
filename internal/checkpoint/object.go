package checkpoint

import (
	"bytes"
	"compress/zlib"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
)

// Objects move between the private repository and the store as git's loose object
// files: zlib("<type> <size>\x00<content>"), whose SHA-256 is the object id. They
// are checked against their id whenever they move, so a damaged file in a cache
// never reaches the store and a damaged object in the store never reaches a
// workspace.

// objType is "blob" or "tree" (checkpoints hold no commits or tags).
type objType string

const (
	typeBlob objType = "blob"
	typeTree objType = "tree"
)

// verify inflates a loose object and checks its id and type; it returns the content.
func verify(oid string, want objType, loose []byte) ([]byte, error) {
	zr, err := zlib.NewReader(bytes.NewReader(loose))
	if err != nil {
		return nil, fmt.Errorf("checkpoint: object %s is damaged: %w", oid, err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("checkpoint: object %s is damaged: %w", oid, err)
	}
	sum := sha256.Sum256(raw)
	if hex.EncodeToString(sum[:]) != oid {
		return nil, fmt.Errorf("checkpoint: object %s is damaged: its content hashes to %x", oid, sum)
	}
	nul := bytes.IndexByte(raw, 0)
	if nul < 0 {
		return nil, fmt.Errorf("checkpoint: object %s is damaged: no header", oid)
	}
	var typ string
	var size int
	if _, err := fmt.Sscanf(string(raw[:nul]), "%s %d", &typ, &size); err != nil || size != len(raw)-nul-1 {
		return nil, fmt.Errorf("checkpoint: object %s is damaged: header %q", oid, raw[:nul])
	}
	if objType(typ) != want {
		return nil, fmt.Errorf("checkpoint: object %s is a %s, a %s was expected", oid, typ, want)
	}
	return raw[nul+1:], nil
}

// readLoose returns object oid as a loose object file, from the private repository
// (or, for an object git keeps otherwise, rebuilt from git cat-file).
func (w *workspace) readLoose(ctx context.Context, oid string, typ objType) ([]byte, error) {
	data, err := os.ReadFile(w.looseObject(oid))
	if err == nil {
		return data, nil
	}
	if !isNotExist(err) {
		return nil, fmt.Errorf("checkpoint: %w", err)
	}
	content, err := w.run(ctx, nil, "cat-file", string(typ), oid)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	zw, _ := zlib.NewWriterLevel(&buf, zlib.BestSpeed)
	fmt.Fprintf(zw, "%s %d\x00", typ, len(content))
	zw.Write(content)
	zw.Close()
	return buf.Bytes(), nil
}

// writeLoose puts a verified loose object into the private repository: a temp file
// renamed into place, read-only as git makes them.
func (w *workspace) writeLoose(oid string, loose []byte) error {
	path := w.looseObject(oid)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("checkpoint: cache: %w", err)
	}
	f, err := os.CreateTemp(filepath.Dir(path), "tmp_obj_")
	if err != nil {
		return fmt.Errorf("checkpoint: cache: %w", err)
	}
	_, err = f.Write(loose)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), 0o444)
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("checkpoint: cache: %w", err)
	}
	return nil
}

// treeEntry is one entry of a tree object.
type treeEntry struct {
	mode string // 40000 (tree), 100644, 100755, 120000 (symlink); 160000 is refused
	name string
	oid  string
}

const oidLen = sha256.Size

// parseTree reads a tree object's content: entries of "<mode> <name>\x00<32-byte id>".
func parseTree(oid string, content []byte) ([]treeEntry, error) {
	var out []treeEntry
	for len(content) > 0 {
		sp := bytes.IndexByte(content, ' ')
		nul := bytes.IndexByte(content, 0)
		if sp < 0 || nul < sp || len(content) < nul+1+oidLen {
			return nil, fmt.Errorf("checkpoint: tree %s is damaged", oid)
		}
		e := treeEntry{mode: string(content[:sp]), name: string(content[sp+1 : nul]), oid: hex.EncodeToString(content[nul+1 : nul+1+oidLen])}
		if err := checkName(e.name); err != nil {
			return nil, err
		}
		switch e.mode {
		case "40000", "100644", "100755", "120000":
		default:
			return nil, fmt.Errorf("checkpoint: tree %s has an entry %q of mode %s, which checkpoints never hold", oid, e.name, strconv.Quote(e.mode))
		}
		out = append(out, e)
		content = content[nul+1+oidLen:]
	}
	return out, nil
}
