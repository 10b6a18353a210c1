package workflows_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolpipe/toolpipe/hooks"
	"github.com/toolpipe/toolpipe/internal/testfs"
	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/workflows"
)

// The hook input of the tool events has Claude Code 2.1.328's fields and shapes
// (captured from the real binary with a logging hook: hooks/testdata/claude-code-2.1.328-hook-inputs.jsonl):
// a transcript path whose file holds the call, prompt_id, the effective
// permission_mode, duration_ms, and tool_response as sdk-tools.d.ts types it.
func TestHookInputAsClaudeCode(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("alpha\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "e.txt"), []byte("one\ntwo\nthree\n"), 0o644)
	rec := script(t, "record", "sh")
	s := withHooks(group("*", rec), group("*", rec), group("*", rec))
	s.ProjectDir = dir
	s.TranscriptPath = filepath.Join(t.TempDir(), "s", "transcript.jsonl")
	res := runGated(t, dir, s,
		tool.Block{ID: "r1", Name: tool.ReadName, Input: raw(map[string]any{"file_path": filepath.Join(dir, "a.txt")})},
		tool.Block{ID: "r2", Name: tool.ReadName, Input: raw(map[string]any{"file_path": filepath.Join(dir, "e.txt")})},
		bashB("b1", "echo hi; echo err >&2"),
		tool.Block{ID: "e1", Name: tool.EditName, Input: raw(map[string]any{"file_path": filepath.Join(dir, "e.txt"), "old_string": "two", "new_string": "TWO"})},
		tool.Block{ID: "w1", Name: tool.WriteName, Input: raw(map[string]any{"file_path": filepath.Join(dir, "new.txt"), "content": "x\n"})},
		bashB("b2", "echo out; exit 3"))
	for _, r := range res.Results[:5] {
		if r.IsError {
			t.Fatalf("%s: %s", r.ToolUseID, r.Content)
		}
	}
	seen := map[string]map[string]any{}
	for _, in := range testfs.ReadJSONValues(t, filepath.Join(dir, "hook-inputs.jsonl")) {
		seen[in["hook_event_name"].(string)+"/"+in["tool_use_id"].(string)] = in
	}
	prompt := ""
	for k, in := range seen {
		if in["transcript_path"] != s.TranscriptPath || in["permission_mode"] != "default" || in["session_id"] != "" && in["cwd"] != dir {
			t.Fatalf("%s: common fields %v", k, in)
		}
		p, _ := in["prompt_id"].(string)
		if len(p) != 36 || prompt != "" && p != prompt {
			t.Fatalf("%s: prompt_id %q (others %q)", k, p, prompt)
		}
		prompt = p
		if strings.HasPrefix(k, "Post") {
			if _, ok := in["duration_ms"].(float64); !ok {
				t.Fatalf("%s: no duration_ms: %v", k, in)
			}
		} else if _, ok := in["duration_ms"]; ok {
			t.Fatalf("%s: duration_ms before the call", k)
		}
	}
	response := func(k string) string {
		b, _ := json.Marshal(seen[k]["tool_response"])
		return string(b)
	}
	for k, want := range map[string]string{
		"PostToolUse/r1": `{"file":{"content":"alpha\n","filePath":"` + filepath.Join(dir, "a.txt") + `","numLines":2,"startLine":1,"totalLines":2},"type":"text"}`,
		"PostToolUse/b1": `{"interrupted":false,"isImage":false,"noOutputExpected":false,"stderr":"","stdout":"hi\nerr"}`,
		"PostToolUse/e1": `{"filePath":"` + filepath.Join(dir, "e.txt") + `","newString":"TWO","oldString":"two","originalFile":"one\ntwo\nthree\n","replaceAll":false,"structuredPatch":[{"lines":[" one","-two","+TWO"," three"],"newLines":3,"newStart":1,"oldLines":3,"oldStart":1}],"userModified":false}`,
		"PostToolUse/w1": `{"content":"x\n","filePath":"` + filepath.Join(dir, "new.txt") + `","originalFile":null,"structuredPatch":[],"type":"create","userModified":false}`,
	} {
		if got := response(k); got != want {
			t.Errorf("%s tool_response\n got %s\nwant %s", k, got, want)
		}
	}
	fail := seen["PostToolUseFailure/b2"]
	if e, _ := fail["error"].(string); !strings.Contains(e, "Exit code 3") || fail["is_interrupt"] != false {
		t.Fatalf("PostToolUseFailure: %v", fail)
	}

	// The transcript holds each call and its result, in Claude Code's entry format,
	// each once, the result pointing at its call.
	entries := testfs.ReadJSONValues(t, s.TranscriptPath)
	uses, results := map[string]string{}, map[string]map[string]any{}
	for _, e := range entries {
		if e["version"] != hooks.TranscriptVersion || e["promptId"] != prompt || e["cwd"] != dir {
			t.Fatalf("entry %v", e)
		}
		msg := e["message"].(map[string]any)
		block := msg["content"].([]any)[0].(map[string]any)
		switch e["type"] {
		case "assistant":
			uses[block["id"].(string)] = e["uuid"].(string)
		case "user":
			if _, dup := results[block["tool_use_id"].(string)]; dup {
				t.Fatalf("result written twice: %v", e)
			}
			results[block["tool_use_id"].(string)] = e
		}
	}
	if len(uses) != 6 || len(results) != 6 {
		t.Fatalf("transcript: %d tool_use, %d tool_result entries:\n%v", len(uses), len(results), entries)
	}
	for id, r := range results {
		if r["parentUuid"] != uses[id] || r["sourceToolAssistantUUID"] != uses[id] {
			t.Fatalf("%s: result not linked to its call: %v", id, r)
		}
	}
	if r := results["r1"]; r["toolUseResult"].(map[string]any)["type"] != "text" {
		t.Fatalf("r1 entry has no toolUseResult: %v", r)
	}
	_ = workflows.TurnInput{}
}
