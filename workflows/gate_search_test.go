package workflows_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/toolpipe/toolpipe/permissions"
	"github.com/toolpipe/toolpipe/tool"
)

func searchB(id, name string, in map[string]any) tool.Block {
	return tool.Block{ID: id, Name: name, Input: raw(in)}
}

// Read deny rules cover Glob and Grep (issue 16): a search of the working
// directory runs, but the files the rules hide are left out of its results in
// every mode, through the real permission pipeline and tool activities. A link
// out of the working directory is not followed either.
func TestReadDenyRulesHideFilesFromGlobAndGrep(t *testing.T) {
	for _, mode := range []permissions.Mode{permissions.Default, permissions.BypassPermissions} {
		t.Run(mode.String(), func(t *testing.T) {
			work, outside := dirs(t)
			for p, text := range map[string]string{
				".env": "SECRET=TODO\n", "a.txt": "TODO here\n", "secrets/k.pem": "TODO key\n", "src/.env": "NESTED=TODO\n",
			} {
				os.MkdirAll(filepath.Dir(filepath.Join(work, p)), 0o755)
				os.WriteFile(filepath.Join(work, p), []byte(text), 0o600)
			}
			os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("TODO outside\n"), 0o600)
			os.Symlink(outside, filepath.Join(work, "out"))
			pol := policy(t, work, mode, nil, []string{"Read(./.env)", "Read(**/.env)", "Read(./secrets/**)"}, nil)
			res := runGated(t, work, pol,
				searchB("g1", tool.GlobName, map[string]any{"pattern": "**/*"}),
				searchB("g2", tool.GlobName, map[string]any{"pattern": "out/*"}),
				searchB("r1", tool.GrepName, map[string]any{"pattern": "TODO", "output_mode": "content"}),
				searchB("r2", tool.GrepName, map[string]any{"pattern": "TODO"}),
				searchB("r3", tool.GrepName, map[string]any{"pattern": "TODO", "output_mode": "count"}),
			)
			want := map[string]string{
				"g1": "a.txt\nnotes.txt", // lines sorted below: both were written within the test
				"g2": "No files found",
				"r1": "a.txt:1:TODO here",
				"r2": "Found 1 file\na.txt",
				"r3": "a.txt:1\n\nFound 1 total occurrence across 1 file.",
			}
			for id, w := range want {
				r := byID(res.Results, id)
				if id == "g1" {
					lines := strings.Split(r.Content, "\n")
					slices.Sort(lines)
					r.Content = strings.Join(lines, "\n")
				}
				if r.IsError || r.Content != w {
					t.Errorf("%s: %+v\nwant %q", id, r, w)
				}
			}
			if r := byID(res.Results, "r1"); strings.Contains(r.Content, "SECRET") {
				t.Errorf("Grep showed the denied .env: %s", r.Content)
			}
		})
	}
}
