package filesearch

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestGlobReadsPatternsAsRipgrep: Claude Code 2.1.328 runs rg --glob, so a pattern
// without a slash matches names at any depth, one with a slash the path from the
// searched directory, and what rg refuses is refused in its words
// (test/parity: TestParityGlob compares with Claude Code).
func TestGlobReadsPatternsAsRipgrep(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"a.go", "sub/b.go", "sub/deep/c.go", ".h/d.go", "x.txt"} {
		p := filepath.Join(dir, f)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte("x"), 0o644)
	}
	cases := map[string][]string{
		"*.go":      {".h/d.go", "a.go", "sub/b.go", "sub/deep/c.go"},
		"?.go":      {".h/d.go", "a.go", "sub/b.go", "sub/deep/c.go"},
		"c.go":      {"sub/deep/c.go"},
		"sub/*.go":  {"sub/b.go"},
		"deep/*.go": nil,
		"sub/":      nil,
		"a}.go":     {"a.go"}, // rg drops a '}' that closes nothing
		"**.go":     {".h/d.go", "a.go", "sub/b.go", "sub/deep/c.go"},
	}
	for pattern, want := range cases {
		res, err := Glob(context.Background(), GlobRequest{Workdir: dir, Base: dir, Pattern: pattern})
		if err != nil {
			t.Fatalf("%s: %v", pattern, err)
		}
		got := slices.Sorted(slices.Values(res.Files))
		if !slices.Equal(got, want) {
			t.Errorf("%s: %v, want %v", pattern, got, want)
		}
	}
	for pattern, want := range map[string]string{
		"[":            "error parsing glob '[': unclosed character class; missing ']'",
		"{a,b":         "error parsing glob '{a,b': unclosed alternate group; missing '}' (maybe escape '{' with '[{]'?)",
		"[z-a].go":     "error parsing glob '[z-a].go': invalid range; 'z' > 'a'",
		`a\`:           `error parsing glob 'a\': dangling '\'`,
		"{a,{b,c}}.go": "error parsing glob '{a,{b,c}}.go': nested alternate groups are not allowed",
	} {
		_, err := Glob(context.Background(), GlobRequest{Workdir: dir, Base: dir, Pattern: pattern})
		if err == nil || err.Error() != want {
			t.Errorf("%s: %v, want %q", pattern, err, want)
		}
	}
}
