package plugin

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/toolpipe/toolpipe/toolenv"
)

// secretsProbeEnv makes the test binary a process that hides its secrets and
// reports what it then sees (TestMain).
const secretsProbeEnv = "TOOLPIPE_TEST_SECRETS_PROBE"

func TestMain(m *testing.M) {
	if os.Getenv(secretsProbeEnv) != "" {
		HideSecrets()
		environ, _ := os.ReadFile("/proc/self/environ")
		fmt.Printf("pid=%d\nenviron=%q\nheld=%d\nplain=%s\nfd-left=%v\n", os.Getpid(), environ,
			len(toolenv.Getenv("BIG_SECRET_TOKEN")), toolenv.Getenv("ANTHROPIC_API_KEY")+"|"+os.Getenv("TOOLPIPE_TEST_PLAIN"), os.Getenv(secretsFDEnv) != "")
		os.Exit(3)
	}
	os.Exit(m.Run())
}

// HideSecrets re-executes the process in place (same pid, same exit status) and
// hands the secrets over a pipe, even one larger than a pipe's default 64 KiB and
// with standard input closed: /proc/self/environ then holds none of them, the
// lookup finds them all, and the descriptor's variable is gone for children.
func TestHideSecretsReexecutesWithoutThem(t *testing.T) {
	big := strings.Repeat("s", 100_000)
	// Standard input closed: the pipe must not take its number.
	cmd := exec.Command("/bin/sh", "-c", `exec "$0" -test.run='^$' 0<&-`, os.Args[0])
	cmd.Env = append(os.Environ(), secretsProbeEnv+"=1", "BIG_SECRET_TOKEN="+big, "ANTHROPIC_API_KEY=sk-ant-probe", "TOOLPIPE_TEST_PLAIN=plain")
	out, err := cmd.Output()
	var ee *exec.ExitError
	if !errorsAs(err, &ee) || ee.ExitCode() != 3 {
		t.Fatalf("probe: %v (want its own exit status 3)\n%s", err, out)
	}
	s := string(out)
	if !strings.Contains(s, fmt.Sprintf("pid=%d\n", cmd.Process.Pid)) {
		t.Errorf("not the same process: %s", s)
	}
	_, environ, _ := strings.Cut(s, "environ=")
	environ, _, _ = strings.Cut(environ, "\n")
	if strings.Contains(environ, "ANTHROPIC_API_KEY") || strings.Contains(environ, "BIG_SECRET_TOKEN") || !strings.Contains(environ, "TOOLPIPE_TEST_PLAIN=plain") {
		t.Errorf("/proc/self/environ: %.300s", environ)
	}
	if !strings.Contains(s, "held=100000\n") || !strings.Contains(s, "plain=sk-ant-probe|plain\n") || !strings.Contains(s, "fd-left=false") {
		t.Errorf("after the re-exec: %.300s", s)
	}
}

func errorsAs(err error, target **exec.ExitError) bool {
	ee, ok := err.(*exec.ExitError)
	if ok {
		*target = ee
	}
	return ok
}
