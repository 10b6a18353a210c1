package reliability

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
)

// Issue 24: cmd/worker and `starter dev` execute themselves again without their
// secrets in the environment, and stay the process they were: /proc/PID/environ of
// the very process that was started shows none of them (its ordinary variables
// stay), and SIGTERM or SIGINT (Ctrl-C) still stops it gracefully with status 0.
func TestWorkerProcessesHideTheirSecrets(t *testing.T) {
	secrets := map[string]string{"ANTHROPIC_API_KEY": "sk-ant-worker-secret-1", "TEMPORAL_TLS_CLIENT_KEY_DATA": "tls-worker-secret-2",
		"OTEL_EXPORTER_OTLP_HEADERS": "authorization=otel-worker-secret-3", "DEPLOY_TOKEN": "deploy-worker-secret-4"}
	for _, c := range []struct {
		name   string
		bin    string
		args   []string
		ready  string
		signal syscall.Signal
	}{
		{"worker --dev, SIGTERM", "worker", []string{"--dev", "--port", "0", "--ui=false"}, "worker: running", syscall.SIGTERM},
		{"starter dev, SIGINT", "starter", []string{"dev", "--port", "0", "--ui=false"}, "Ctrl-C stops", syscall.SIGINT},
	} {
		t.Run(c.name, func(t *testing.T) {
			cmd := exec.Command(binary(t, c.bin), append(c.args, "--state-dir", t.TempDir())...)
			cmd.Env = append(os.Environ(), "TEMPORAL_ADDRESS=", "TOOLPIPE_TEST_PLAIN=plain-visible")
			for k, v := range secrets {
				cmd.Env = append(cmd.Env, k+"="+v)
			}
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			cmd.Stderr = cmd.Stdout // both: the worker says it runs on stderr, dev on stdout
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer cmd.Process.Kill()
			sc := bufio.NewScanner(out)
			var seen []string
			for sc.Scan() {
				seen = append(seen, sc.Text())
				if strings.Contains(sc.Text(), c.ready) {
					break
				}
			}
			if len(seen) == 0 || !strings.Contains(seen[len(seen)-1], c.ready) {
				t.Fatalf("not ready: %q", seen)
			}
			go func() {
				for sc.Scan() {
				}
			}()
			env, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", cmd.Process.Pid))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(env), "TOOLPIPE_TEST_PLAIN=plain-visible") {
				t.Fatalf("/proc/%d/environ is not the process's environment: %q", cmd.Process.Pid, env)
			}
			for k, v := range secrets {
				if strings.Contains(string(env), v) || strings.Contains(string(env), k+"=") {
					t.Errorf("/proc/%d/environ shows %s", cmd.Process.Pid, k)
				}
			}
			cmd.Process.Signal(c.signal)
			err = cmd.Wait()
			var ee *exec.ExitError
			if errors.As(err, &ee) || err != nil {
				t.Fatalf("after %v: %v, want exit status 0", c.signal, err)
			}
		})
	}
}
