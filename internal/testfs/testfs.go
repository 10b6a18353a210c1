// Package testfs writes the files a test sets up and reads the JSON logs its hooks
// and transcripts leave. It imports only the standard
// library, so that the tests of any package, even a leaf that internal/testenv
// (which links the Temporal server and the worker) depends on, can use it without
// an import cycle.
package testfs

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// Write writes content to path (mode 0644), making its missing parent directories
// (0755) first, or fails the test.
func Write(t testing.TB, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// ReadJSONValues returns the JSON objects in the file at path, in order, or fails the
// test. It reads the file as a stream of values, not as lines: hooks of parallel tool
// calls append to one log at the same time, so an object's newline may follow the
// next object.
func ReadJSONValues(t testing.TB, path string) []map[string]any {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []map[string]any
	dec := json.NewDecoder(f)
	for {
		var m map[string]any
		err := dec.Decode(&m)
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out = append(out, m)
	}
}
