package claudesdk

import (
	"encoding/json"
	"strings"
	"testing"
)

// jsonResult runs one `-p PROMPT --output-format json` and decodes its result.
func (pl place) jsonResult(t *testing.T, exe string, env []string, prompt string, args ...string) map[string]any {
	t.Helper()
	var r map[string]any
	out := pl.run(t, exe, env, append([]string{"-p", prompt, "--output-format", "json"}, args...)...)
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("not one JSON result: %v\n%s", err, out)
	}
	return r
}

// TestResumeContinueAndFork: claude -p scripts continue a durable session as
// Claude Code's: --resume ID and --continue (the working directory's last
// session) keep the session id and send the model the earlier conversation;
// --fork-session answers under a new id, from the same conversation, and leaves
// the original as it was.
func TestResumeContinueAndFork(t *testing.T) {
	exe := toolpipeClaude(t)
	env := toolpipeEnv(t) // one state directory for every run
	pl := newPlace(t, [][]block{{text("Noted: apple.")}, {text("apple")}, {text("still apple")}, {text("forked apple")}, {text("original apple")}})
	first := pl.jsonResult(t, exe, env, "Remember the word apple.")
	id, _ := first["session_id"].(string)
	if id == "" || first["result"] != "Noted: apple." {
		t.Fatalf("first: %v", first)
	}
	resumed := pl.jsonResult(t, exe, env, "Which word?", "--resume", id)
	if resumed["session_id"] != id || resumed["result"] != "apple" {
		t.Errorf("--resume: %v", resumed)
	}
	continued := pl.jsonResult(t, exe, env, "And now?", "--continue")
	if continued["session_id"] != id || continued["result"] != "still apple" {
		t.Errorf("--continue: %v", continued)
	}
	forked := pl.jsonResult(t, exe, env, "Fork it.", "--resume", id, "--fork-session")
	if forked["session_id"] == id || forked["result"] != "forked apple" {
		t.Errorf("--fork-session: %v", forked)
	}
	again := pl.jsonResult(t, exe, env, "Back to the original.", "--resume", id)
	if again["session_id"] != id || again["result"] != "original apple" {
		t.Errorf("the original after the fork: %v", again)
	}
	reqs := pl.model.agentRequests()
	if len(reqs) != 5 {
		t.Fatalf("the model was asked %d times, want 5", len(reqs))
	}
	// Each request carries the conversation so far: the fork's starts from the
	// original's three prompts, and the original's goes on without the fork's.
	for i, want := range []int{1, 3, 5, 7, 7} {
		if got := len(reqs[i].Messages); got != want {
			t.Errorf("request %d has %d messages, want %d", i, got, want)
		}
	}
	if !strings.Contains(string(reqs[3].Messages[0].Content), "apple") {
		t.Errorf("the fork's first message: %s", reqs[3].Messages[0].Content)
	}
}

// TestSetModelAndPermissionMode: set_model and set_permission_mode over the
// control channel change what the next prompt runs with: the model the fake is
// asked for, the permission mode system/init reports.
func TestSetModelAndPermissionMode(t *testing.T) {
	x := startExchange(t, [][]block{{text("First.")}, {text("Second.")}})
	x.write(`{"request_id":"i","type":"control_request","request":{"subtype":"initialize"}}`)
	x.response("i")
	x.write(`{"type":"user","session_id":"","message":{"role":"user","content":"One."},"parent_tool_use_id":null}`)
	x.until("the first result", func(m map[string]any) bool { return m["type"] == "result" })
	x.write(`{"request_id":"m","type":"control_request","request":{"subtype":"set_model","model":"claude-sonnet-4-5"}}`)
	if r := x.response("m"); r["subtype"] != "success" {
		t.Fatalf("set_model: %v", r)
	}
	x.write(`{"request_id":"p","type":"control_request","request":{"subtype":"set_permission_mode","mode":"acceptEdits"}}`)
	if r := x.response("p"); r["subtype"] != "success" {
		t.Fatalf("set_permission_mode: %v", r)
	}
	x.write(`{"request_id":"bad","type":"control_request","request":{"subtype":"set_permission_mode","mode":"sometimes"}}`)
	if r := x.response("bad"); r["subtype"] != "error" {
		t.Errorf("an unknown mode: %v", r)
	}
	x.write(`{"type":"user","session_id":"","message":{"role":"user","content":"Two."},"parent_tool_use_id":null}`)
	init := x.until("the second init", func(m map[string]any) bool { return m["type"] == "system" && m["subtype"] == "init" })
	if init["permissionMode"] != "acceptEdits" || init["model"] != "claude-sonnet-4-5" {
		t.Errorf("the second prompt's init: permissionMode %v, model %v", init["permissionMode"], init["model"])
	}
	x.until("the second result", func(m map[string]any) bool { return m["type"] == "result" })
	x.stdin.Close()
	for range x.lines {
	}
	_ = x.cmd.Wait()
	reqs := x.model.agentRequests()
	if len(reqs) != 2 || reqs[1].Model != "claude-sonnet-4-5" {
		t.Fatalf("the model asked for: %+v", reqs)
	}
}
