package main

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The example can be copied out of the repository, as the README invites: none of
// its files, tests included, imports a package of toolpipe's internal/ tree, which Go
// refuses outside the module (issue 32 item 9: it imported internal/fakeanthropic).
func TestExampleImportsNoInternalPackage(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no Go files: %v", err)
	}
	for _, f := range files {
		parsed, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range parsed.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if strings.HasPrefix(path, "github.com/toolpipe/toolpipe/") && strings.Contains(path+"/", "/internal/") {
				t.Errorf("%s imports %s, which a copy outside the module cannot", f, path)
			}
		}
	}
}
