package testfs_test

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/toolpipe/toolpipe/internal/testfs"
)

// Write makes the missing directories and replaces what the file held.
func TestWrite(t *testing.T) {
	p := filepath.Join(t.TempDir(), "a", "b", "f.txt")
	testfs.Write(t, p, "one")
	testfs.Write(t, p, "two")
	b, err := os.ReadFile(p)
	if err != nil || string(b) != "two" {
		t.Fatalf("read %q, %v; want %q", b, err, "two")
	}
}

// ReadJSONValues reads objects written one after another, with or without a newline
// between them.
func TestReadJSONValues(t *testing.T) {
	p := filepath.Join(t.TempDir(), "log.jsonl")
	testfs.Write(t, p, `{"a":1}{"b":"x"}`+"\n"+`{"c":[true]}`+"\n")
	got := testfs.ReadJSONValues(t, p)
	want := []map[string]any{{"a": 1.0}, {"b": "x"}, {"c": []any{true}}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("read %v, want %v", got, want)
	}
}
