package sandbox

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A command in either sandbox has no capability and cannot mount, whoever the
// worker runs as (issue 40 item 1): as root, bubblewrap used to leave it
// CAP_SYS_ADMIN, and `mount -o remount,bind,rw /` made the host's / writable;
// `umount` of a control file's placeholder let it create .mcp.json. A user
// namespace of the command's own (unshare -U, where it gets capabilities back)
// cannot mount either: the seccomp filter refuses every mount call.
func TestSandboxedCommandsCannotMount(t *testing.T) {
	needBwrap(t)
	root, _ := filepath.EvalSymlinks(t.TempDir())
	work := filepath.Join(root, "work")
	if err := os.MkdirAll(work, 0o755); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(root, "outside-marker")
	probe := strings.Join([]string{
		`grep '^CapEff:' /proc/self/status`,
		`mount -o remount,bind,rw / 2>/dev/null && echo "ESCAPED remount-root"`,
		`touch ` + outside + ` 2>/dev/null`, // the read-only sandbox's /tmp is its own: the host's is checked below
		`umount .mcp.json 2>/dev/null && echo "ESCAPED umount-placeholder"`,
		`echo '{}' > .mcp.json 2>/dev/null && echo "ESCAPED control-file"`,
		`mount -t tmpfs none "$TMPDIR" 2>/dev/null && echo "ESCAPED mount-tmpfs"`,
		// unshare(1) is util-linux's; -r maps this user to root in a new namespace.
		`command -v unshare >/dev/null && unshare -Urm sh -c 'mount -o remount,bind,rw / || mount -t tmpfs none /mnt' 2>/dev/null && echo "ESCAPED userns-mount"`,
		`echo done`,
	}, "\n")
	for _, readOnly := range []bool{false, true} {
		name := map[bool]string{false: "write", true: "read-only"}[readOnly]
		t.Run(name, func(t *testing.T) {
			l := &Launcher{}
			c, err := l.Wrap(Request{Settings: &Settings{Enabled: ptr(true)}, ReadOnly: readOnly,
				Cmd: Command{Path: "/bin/sh", Args: []string{"-c", probe}, Dir: work}, Tmp: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			out := runConfined(t, c)
			if !strings.Contains(out, "CapEff:\t0000000000000000") || !strings.Contains(out, "done") {
				t.Errorf("the command kept capabilities (or did not run):\n%s", out)
			}
			if strings.Contains(out, "ESCAPED") {
				t.Errorf("escaped:\n%s", out)
			}
			if _, err := os.Stat(outside); err == nil {
				t.Error("the command wrote outside the working directory")
			}
			if _, err := os.Stat(filepath.Join(work, ".mcp.json")); err == nil {
				t.Error("the command created .mcp.json")
			}
		})
	}
}
