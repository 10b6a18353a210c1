package main

import (
	"bufio"
	"bytes"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// `starter agent --fake-model` beside a running `starter dev` on the same state
// directory works: the session, its model calls and its turns run on the agent
// process's own task queue, so dev's worker (which has no fake) never takes the
// model call; the agent prints the fake's answers.
func TestFakeModelBesideDev(t *testing.T) {
	root, state := repoRoot(t), t.TempDir()
	dev := starter(t, state, "dev", "--port", "0")
	out, err := dev.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var devErr bytes.Buffer
	dev.Stderr = &devErr
	if err := dev.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = dev.Process.Signal(syscall.SIGINT)
		done := make(chan struct{})
		go func() { _ = dev.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			_ = dev.Process.Kill()
		}
	})
	ready := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "Worker on task queue") {
				ready <- true
			}
		}
		ready <- false
	}()
	select {
	case ok := <-ready:
		if !ok {
			t.Fatalf("starter dev exited:\n%s", devErr.String())
		}
	case <-time.After(2 * time.Minute):
		t.Fatalf("starter dev did not start:\n%s", devErr.String())
	}

	cmd := starter(t, state, "agent", "--workdir", root, "--session", "beside-dev",
		"--fake-model", filepath.Join(root, "examples", "agent-script.json"), "What is left to do in examples/project?")
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	agentOut, err := cmd.Output()
	if err != nil {
		t.Fatalf("agent beside dev: %v\n%s\n%s", err, agentOut, stderr.String())
	}
	for _, want := range []string{"examples/project/main.go has 9 lines and one TODO", "(session ended: end_turn)"} {
		if !strings.Contains(string(agentOut), want) {
			t.Errorf("output lacks %q:\n%s\n%s", want, agentOut, stderr.String())
		}
	}
}
