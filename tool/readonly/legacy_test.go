package readonly

import (
	"slices"
	"testing"
)

// ReadPathsV1 must keep answering as ReadPaths did before Reads, for the
// histories the Turn workflow replays with it.
func TestReadPathsV1Unchanged(t *testing.T) {
	for _, c := range []struct {
		cmd     string
		paths   []string
		dynamic bool
	}{
		{"ls", nil, false},
		{"cat a b", []string{"a", "b"}, false},
		{"tr a b", []string{"a", "b"}, false},
		{"grep -r root /etc", []string{"root", "/etc"}, false},
		{"cat *.go", []string{"*.go"}, false},
		{"grep --file=/etc/x y -la", []string{"/etc/x", "y"}, false},
		{"cat $HOME/x", nil, true},
		{"echo /etc/passwd | xargs cat", []string{"cat"}, true},
		{"cat < in", []string{"in"}, false},
		{"ls |", nil, true},
	} {
		paths, dynamic := ReadPathsV1(c.cmd)
		if !slices.Equal(paths, c.paths) || dynamic != c.dynamic {
			t.Errorf("ReadPathsV1(%q) = %q, %v; want %q, %v", c.cmd, paths, dynamic, c.paths, c.dynamic)
		}
	}
}
