package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/toolpipe/toolpipe/internal/fakeanthropic"
	"github.com/toolpipe/toolpipe/wire"
)

// failingAgent runs `starter agent` against fake and checks that it ends with exit
// status 1, well within 10 s, with want on stderr.
func failingAgent(t *testing.T, fake *fakeanthropic.Server, state string, env []string, args []string, want ...string) string {
	t.Helper()
	cmd := starter(t, state, append([]string{"agent", "--workdir", t.TempDir()}, args...)...)
	cmd.Env = append(withoutKey(cmd.Env), "ANTHROPIC_BASE_URL="+fake.URL())
	cmd.Env = append(cmd.Env, env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	begin := time.Now()
	err := cmd.Run()
	took := time.Since(begin)
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Fatalf("agent: %v, want exit status 1\nstdout:\n%s\nstderr:\n%s", err, stdout.String(), stderr.String())
	}
	for _, w := range want {
		if !strings.Contains(stderr.String(), w) {
			t.Errorf("stderr lacks %q:\n%s", w, stderr.String())
		}
	}
	if took > time.Minute { // a retried failure takes minutes; a loaded machine takes seconds
		t.Errorf("the failed session took %s to report", took)
	}
	return stdout.String()
}

// withoutKey drops the caller's ANTHROPIC_API_KEY, so that the tests say which key
// the worker has.
func withoutKey(env []string) []string {
	var out []string
	for _, kv := range env {
		if !strings.HasPrefix(kv, "ANTHROPIC_API_KEY=") {
			out = append(out, kv)
		}
	}
	return out
}

func startFake(t *testing.T, sc fakeanthropic.Script) *fakeanthropic.Server {
	t.Helper()
	fake, err := fakeanthropic.Start(sc)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(fake.Close)
	return fake
}

// A wrong key: the API's 401 is printed and the CLI exits 1 at once; the session
// keeps its conversation and takes the next prompt, which carries the first one.
func TestAgent401EndsPromptAndSessionContinues(t *testing.T) {
	fake := startFake(t, fakeanthropic.Script{APIKey: "sk-right", Responses: []fakeanthropic.Response{
		{Content: []wire.Block{{Type: "text", Text: "both seen"}}},
	}})
	state := t.TempDir()
	out := failingAgent(t, fake, state, []string{"ANTHROPIC_API_KEY=sk-wrong"}, []string{"--session", "auth", "first prompt"},
		"401 authentication_error: invalid x-api-key", "starter agent --session auth PROMPT")
	if !strings.Contains(out, "(session ended: model_error)") {
		t.Errorf("stdout lacks the end of the prompt:\n%s", out)
	}
	if reqs := fake.Requests(); len(reqs) != 1 {
		t.Fatalf("%d requests, want 1: a 401 is not retried", len(reqs))
	}
	cmd := starter(t, state, "agent", "--session", "auth", "second prompt")
	cmd.Env = append(withoutKey(cmd.Env), "ANTHROPIC_BASE_URL="+fake.URL(), "ANTHROPIC_API_KEY=sk-right")
	got, err := cmd.Output()
	if err != nil {
		t.Fatalf("the next prompt: %v\n%s", err, got)
	}
	reqs := fake.Requests()
	last := reqs[len(reqs)-1]
	if !strings.Contains(string(got), "both seen") || len(last.Messages) != 2 ||
		last.Messages[0].Content[0].Text != "first prompt" || last.Messages[1].Content[0].Text != "second prompt" {
		t.Fatalf("the next prompt's request: %+v\n%s", last.Messages, got)
	}
	st := starter(t, state, "agent", "status", "auth")
	st.Env = append(st.Env, "ANTHROPIC_API_KEY=sk-right")
	if b, err := st.Output(); err != nil || !strings.Contains(string(b), "done end_turn") || strings.Contains(string(b), "last error") {
		t.Fatalf("status after the next prompt: %v\n%s", err, b)
	}
}

// No key in the worker's environment: said at once, exit 1.
func TestAgentMissingKey(t *testing.T) {
	fake := startFake(t, fakeanthropic.Script{})
	failingAgent(t, fake, t.TempDir(), nil, []string{"hello"}, "no API key: set ANTHROPIC_API_KEY")
	if n := len(fake.Requests()); n != 0 {
		t.Fatalf("%d requests without a key", n)
	}
}

// A 400 (here the real API's context overflow) ends the prompt with its message;
// `agent status` shows it afterwards.
func TestAgentBadRequest(t *testing.T) {
	fake := startFake(t, fakeanthropic.Script{ContextWindow: 10})
	state := t.TempDir()
	failingAgent(t, fake, state, []string{"ANTHROPIC_API_KEY=k"}, []string{"--session", "big", strings.Repeat("a long prompt ", 20)},
		"400 invalid_request_error: prompt is too long: ", " tokens > 10 maximum")
	st := starter(t, state, "agent", "status", "big")
	b, err := st.Output()
	if err != nil || !strings.Contains(string(b), "done model_error") || !strings.Contains(string(b), "last error") ||
		!strings.Contains(string(b), "prompt is too long") {
		t.Fatalf("status: %v\n%s", err, b)
	}
}

// Overloaded on every try: the retries are used up and said so.
func TestAgentRetriesUsedUp(t *testing.T) {
	fake := startFake(t, fakeanthropic.Script{Responses: []fakeanthropic.Response{{Status: 529}, {Status: 529}}})
	failingAgent(t, fake, t.TempDir(), []string{"ANTHROPIC_API_KEY=k"}, []string{"--model-attempts", "2", "hello"},
		"529 overloaded_error: Overloaded (retries used up)")
	if n := len(fake.Requests()); n != 2 {
		t.Fatalf("%d requests, want 2", n)
	}
}

// A stream that stops sending events is abandoned after the idle timeout, and the
// prompt ends with why.
func TestAgentStalledStream(t *testing.T) {
	fake := startFake(t, fakeanthropic.Script{Responses: []fakeanthropic.Response{
		{Content: []wire.Block{{Type: "text", Text: "never"}}, DelayMS: 60_000},
	}})
	failingAgent(t, fake, t.TempDir(), []string{"ANTHROPIC_API_KEY=k", "TOOLPIPE_MODEL_IDLE_TIMEOUT=1s"},
		[]string{"--model-attempts", "1", "hello"}, "no event for 1s")
}

// The first request carries the default system prompt, the working directory and
// the project's CLAUDE.md, and --append-system-prompt's text.
func TestAgentSystemPromptReachesModel(t *testing.T) {
	fake := startFake(t, fakeanthropic.Script{Responses: []fakeanthropic.Response{
		{Content: []wire.Block{{Type: "text", Text: "ok"}}},
	}})
	work := t.TempDir()
	if err := os.WriteFile(filepath.Join(work, "CLAUDE.md"), []byte("Always answer in haiku."), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := starter(t, t.TempDir(), "agent", "--workdir", work, "--append-system-prompt", "Appended words.", "hello")
	cmd.Env = append(withoutKey(cmd.Env), "ANTHROPIC_BASE_URL="+fake.URL(), "ANTHROPIC_API_KEY=k", "HOME="+t.TempDir())
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("agent: %v\n%s", err, out)
	}
	sys := fake.Requests()[0].System
	for _, want := range []string{"You are a coding agent", "Working directory: " + work, "Always answer in haiku.",
		"Contents of " + filepath.Join(work, "CLAUDE.md"), "Appended words."} {
		if !strings.Contains(sys, want) {
			t.Errorf("the system prompt lacks %q:\n%s", want, sys)
		}
	}
}
