package main

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toolpipe/toolpipe/fakeanthropic"
	"github.com/toolpipe/toolpipe/wire"
)

// A call that asks, inside `starter agent`: its stderr says which call waits, why,
// until when, and the exact `starter approve`/`starter deny` commands, as `starter
// run` does; `agent status` gives the same; the command it printed answers it and
// the session goes on (issue 32 item 4: only "awaiting_approval" was shown).
func TestAgentShowsApprovalsAndTheirCommands(t *testing.T) {
	work, state := t.TempDir(), t.TempDir()
	settings := writeJSON(t, filepath.Join(t.TempDir(), "settings.json"), map[string]any{
		"permissions": map[string]any{"ask": []string{"Bash(touch:*)"}, "defaultMode": "bypassPermissions"}})
	fake, err := fakeanthropic.Start(fakeanthropic.Script{Responses: []fakeanthropic.Response{
		{Content: []wire.Block{toolUseBlock("a1", "Bash", `{"command":"touch approved"}`)}},
		{Content: []wire.Block{{Type: "text", Text: "made it"}}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer fake.Close()
	cmd := hermetic(t, starter(t, state, "agent", "--session", "asks", "--workdir", work, "--settings", settings,
		"--ask-timeout", "1h", "make a file"))
	cmd.Env = append(cmd.Env, "ANTHROPIC_BASE_URL="+fake.URL(), "ANTHROPIC_API_KEY=k-e2e")
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	prompt := readUntil(t, stderr, "answer: ")
	var answer string
	for _, want := range []string{"a1 waiting for approval: Bash(touch approved)", "why: ", "until: ", "(then denied)", "answer: starter approve session-asks/turn-"} {
		if !strings.Contains(prompt, want) {
			t.Errorf("the prompt lacks %q:\n%s", want, prompt)
		}
	}
	for _, l := range strings.Split(prompt, "\n") {
		if _, after, ok := strings.Cut(l, "answer: "); ok {
			answer, _, _ = strings.Cut(after, "  |  ")
		}
	}
	// The deadline is --ask-timeout's: an hour away, not the default day.
	if !strings.Contains(prompt, time.Now().Add(time.Hour).Local().Format("2006-01-02T15")) &&
		!strings.Contains(prompt, time.Now().Add(time.Hour+time.Minute).Local().Format("2006-01-02T15")) {
		t.Errorf("the deadline is not an hour away:\n%s", prompt)
	}
	status := starterOK(t, state, "agent", "status", "asks")
	if !strings.Contains(status, "a1 waiting for approval") || !strings.Contains(status, answer) || !strings.Contains(status, "starter deny ") {
		t.Fatalf("agent status does not give the commands (%q):\n%s", answer, status)
	}
	fields := strings.Fields(answer) // starter approve TURN a1
	if len(fields) != 4 {
		t.Fatalf("answer %q", answer)
	}
	if out := starterOK(t, state, fields[1:]...); !strings.Contains(out, "approved a1") {
		t.Fatalf("approve: %s", out)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("agent: %v\n%s", err, stdout.String())
		}
	case <-time.After(2 * time.Minute):
		t.Fatal("the session did not end after the approval")
	}
	if _, err := os.Stat(filepath.Join(work, "approved")); err != nil {
		t.Fatal("the approved call did not run")
	}
	if !strings.Contains(stdout.String(), "made it") {
		t.Fatalf("stdout:\n%s", stdout.String())
	}
}

// readUntil reads r's lines until one contains marker and returns them all; the
// rest of r is drained in the background so the writer never blocks.
func readUntil(t *testing.T, r interface{ Read([]byte) (int, error) }, marker string) string {
	t.Helper()
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	var got []string
	timeout := time.After(90 * time.Second)
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("the output ended before %q:\n%s", marker, strings.Join(got, "\n"))
			}
			got = append(got, l)
			if strings.Contains(l, marker) {
				go func() {
					for range lines {
					}
				}()
				return strings.Join(got, "\n")
			}
		case <-timeout:
			t.Fatalf("no %q in:\n%s", marker, strings.Join(got, "\n"))
		}
	}
}
