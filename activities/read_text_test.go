package activities

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolpipe/toolpipe/tool"
)

// Read's texts for other encodings, notebooks, long files and missing names, as
// Claude Code 2.1.328 shows them (test/parity: TestParityEncodings,
// TestParityReadDetails).
func TestReadLikeClaudeCode(t *testing.T) {
	a, dir := newActs(t), t.TempDir()
	files := map[string]string{
		"u16.txt":   "\xff\xfeh\x00\xe9\x00\r\x00\n\x00",
		"latin.txt": "caf\xe9\n",
		"be.txt":    "\xfe\xff\x00h",
		"long.txt":  strings.Repeat("x\n", 2100),
		"main.go":   "package main\n",
		"e.txt":     "",
		"n.ipynb":   `{"cells":[{"cell_type":"markdown","source":["# T"]},{"cell_type":"code","id":"c","source":"1+1","outputs":[{"output_type":"execute_result","data":{"text/plain":"2"}}]}],"metadata":{}}`,
	}
	for n, c := range files {
		os.WriteFile(filepath.Join(dir, n), []byte(c), 0o644)
	}
	cases := []struct {
		in   map[string]any
		want string
	}{
		{map[string]any{"file_path": "u16.txt"}, "1\thé\n2\t"},
		{map[string]any{"file_path": "latin.txt"}, "1\tcaf\uFFFD\n2\t" + notTextNote(notUTF8)},
		{map[string]any{"file_path": "be.txt"}, "1\t\uFFFD\uFFFD\x00h" + notTextNote(utf16BE)},
		{map[string]any{"file_path": "e.txt", "offset": 5}, "<system-reminder>Warning: the file exists but is shorter than the provided offset (5). The file has 1 lines.</system-reminder>"},
		{map[string]any{"file_path": "main.py"}, fmt.Sprintf("File does not exist. Note: your current working directory is %s. Did you mean main.go?", dir)},
		{map[string]any{"file_path": "main.go/x"}, fmt.Sprintf("ENOTDIR: not a directory, open '%s'", filepath.Join(dir, "main.go/x"))},
		{map[string]any{"file_path": "n.ipynb"}, "<cell id=\"cell-0\"><cell_type>markdown</cell_type># T</cell id=\"cell-0\">\n<cell id=\"c\">1+1</cell id=\"c\">\n\n2"},
	}
	for _, c := range cases {
		out, err := a.Read(context.Background(), call(t, tool.ReadName, dir, c.in))
		if err != nil || out.Content != c.want {
			t.Errorf("%v:\n got  %q (%v)\n want %q", c.in, out.Content, err, c.want)
		}
	}
	out, _ := a.Read(context.Background(), call(t, tool.ReadName, dir, map[string]any{"file_path": "long.txt"}))
	if !strings.HasSuffix(out.Content, "\n2100\tx\n2101\t") {
		t.Errorf("a file of 2,100 lines is read whole: ends %q", out.Content[len(out.Content)-30:])
	}
}
