// Package testfs writes the files a test sets up. It imports only the standard
// library, so that the tests of any package, even a leaf that internal/testenv
// (which links the Temporal server and the worker) depends on, can use it without
// an import cycle.
package testfs

import (
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
