package main

import (
	"bytes"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/toolpipe/toolpipe/fakeanthropic"
	"github.com/toolpipe/toolpipe/wire"
)

// The model's question outlives the process that asked: `starter agent` shows it
// and is stopped with Ctrl-C; `agent status` lists it with the command; a new
// `starter agent --session` attaches; `starter agent answer` from another process
// answers it by number, and the attached process ends with the model's reply to
// the answer.
func TestAgentQuestionAnsweredAfterTheAskerExited(t *testing.T) {
	work, state := t.TempDir(), t.TempDir()
	fake, err := fakeanthropic.Start(fakeanthropic.Script{Responses: []fakeanthropic.Response{
		{Content: []wire.Block{toolUseBlock("q1", "AskUserQuestion", `{"questions":[{"question":"Which database?","header":"Database","multiSelect":false,"options":[{"label":"Postgres","description":"relational"},{"label":"SQLite","description":"a file"}]}]}`)}},
		{When: `"Which database?"="SQLite"`, Content: []wire.Block{{Type: "text", Text: "SQLite it is."}}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer fake.Close()
	env := []string{"ANTHROPIC_BASE_URL=" + fake.URL(), "ANTHROPIC_API_KEY=k-e2e"}
	asker := hermetic(t, starter(t, state, "agent", "--session", "asks-q", "--workdir", work, "set it up"))
	asker.Env = append(asker.Env, env...)
	out, err := asker.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := asker.Start(); err != nil {
		t.Fatal(err)
	}
	defer asker.Process.Kill()
	if shown := readUntil(t, out, "? question waiting (q1)"); !strings.Contains(shown, "starter agent answer asks-q") {
		t.Fatalf("the question does not say how to answer it:\n%s", shown)
	}
	_ = asker.Process.Signal(syscall.SIGINT)
	_ = asker.Wait() // the asker is gone; the session waits in the server

	attach := hermetic(t, starter(t, state, "agent", "--session", "asks-q", "--workdir", work))
	attach.Env = append(attach.Env, env...)
	var attached bytes.Buffer
	attach.Stdout = &attached
	if err := attach.Start(); err != nil {
		t.Fatal(err)
	}
	defer attach.Process.Kill()
	status := starterOK(t, state, "agent", "status", "asks-q")
	if !strings.Contains(status, "question q1 waits") || !strings.Contains(status, "(2) SQLite") || !strings.Contains(status, "starter agent answer asks-q --id q1") {
		t.Fatalf("agent status:\n%s", status)
	}
	if got := starterOK(t, state, "agent", "answer", "asks-q", "2"); !strings.Contains(got, `answered q1: the model reads: Your questions have been answered: "Which database?"="SQLite".`) {
		t.Fatalf("answer: %s", got)
	}
	done := make(chan error, 1)
	go func() { done <- attach.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("attached agent: %v\n%s", err, attached.String())
		}
	case <-time.After(2 * time.Minute):
		t.Fatal("the session did not end after the answer")
	}
	if !strings.Contains(attached.String(), "SQLite it is.") {
		t.Fatalf("stdout of the attached agent:\n%s", attached.String())
	}
}
