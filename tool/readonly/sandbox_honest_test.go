package readonly

import (
	"runtime"
	"strings"
	"sync"
	"testing"
)

// TestDifferentialSandboxHonest keeps the differential fuzzer honest: its
// sandbox sees each kind of harm a misclassified command could do, and none
// in the commands the classifier rightly calls read-only.
func TestDifferentialSandboxHonest(t *testing.T) {
	ft := sandboxTree(t)
	for cmd, want := range map[string]string{
		"touch pwned":                     "pwned",
		"canary":                          "ran /tmp/bin/canary",
		"./x.sh":                          "ran ./x.sh",
		"rg --pre=sh a x.sh":              "ran /usr/bin/sh",
		"find . -name f -delete":          "unlink",
		"echo x > /etc/pwned":             "opened for writing /etc/pwned",
		"sort -o pwned f":                 "opened for writing pwned",
		"sh -c 'exit 0'":                  "ran /usr/bin/sh",
		"mkdir /tmp/x":                    "mkdir /tmp/x",
		"git -c alias.x=!canary x":        "ran /tmp/bin/canary",
		"find . -name f -exec canary \\;": "ran /tmp/bin/canary",
		"echo x >> .git/index":            "opened for writing .git/index",
	} {
		if got := ft.run(t, cmd); !strings.Contains(got, want) {
			t.Errorf("%q: the sandbox saw %q, want it to mention %q", cmd, got, want)
		}
	}
	cmds := make(chan string)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) * 2 { // mostly waiting for processes
		wg.Add(1)
		go func() {
			defer wg.Done()
			for cmd := range cmds {
				if !IsReadOnly(cmd) {
					t.Errorf("seed %q is not read-only", cmd)
				} else if got := ft.run(t, cmd); got != "" {
					t.Errorf("read-only %q: %s", cmd, got)
				}
			}
		}()
	}
	for _, cmd := range append(append([]string{}, readOnlyBashCommands...), fuzzReadOnlySeeds...) {
		cmds <- cmd
	}
	close(cmds)
	wg.Wait()
}
