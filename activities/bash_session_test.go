package activities

import (
	"context"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/toolpipe/toolpipe/tool"
)

// A Bash command runs in a session of its own (issue 24): not in the worker's
// session or process group, with no controlling terminal to reach the user's.
func TestBashRunsInItsOwnSession(t *testing.T) {
	a := newActs(t)
	out, err := a.Bash(context.Background(), call(t, tool.BashName, t.TempDir(), map[string]any{
		"command": "echo $(ps -o sid= -p $$) $(ps -o pgid= -p $$) $$; ps -o tty= -p $$"}))
	if err != nil || out.IsError {
		t.Fatalf("%+v %v", out, err)
	}
	f := strings.Fields(out.Content)
	if len(f) < 4 {
		t.Fatalf("output %q", out.Content)
	}
	sid, _, _ := syscall.RawSyscall(syscall.SYS_GETSID, 0, 0, 0)
	mine := int(sid)
	if f[0] == strconv.Itoa(mine) || f[0] != f[2] || f[1] != f[2] {
		t.Errorf("session %s, group %s, pid %s; the worker's session is %d: the command must lead a session of its own", f[0], f[1], f[2], mine)
	}
	if f[3] != "?" {
		t.Errorf("the command has the terminal %s", f[3])
	}
}
