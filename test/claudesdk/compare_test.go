package claudesdk

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestSDKProgramsAgainstClaudeCode runs every scenario's program with Claude Code
// 2.1.328's executable and with toolpipe-claude, against the same scripted model,
// and compares what the programs saw: the messages' types and subtypes, the
// tool_use and tool_result blocks, the results' fields, and what their callbacks
// were asked, in order. Ids, times, costs and paths are normalised; each
// deliberate difference is named (differences) and checked on toolpipe's side.
func TestSDKProgramsAgainstClaudeCode(t *testing.T) {
	p := install(t)
	exe := toolpipeClaude(t)
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			claude := runScenario(t, p, sc, p.claude, "IS_SANDBOX=1")
			if claude.err != nil {
				t.Fatalf("with Claude Code: %v\nstderr: %s\n%s", claude.err, claude.stderr, claude.errors())
			}
			tp := runScenario(t, p, sc, exe, toolpipeEnv(t)...)
			if tp.err != nil {
				t.Fatalf("with toolpipe-claude: %v\nstderr: %s\n%s", tp.err, tp.stderr, tp.errors())
			}
			want, got := normalise(t, claude), normalise(t, tp)
			if d, ok := differences[sc.name]; ok {
				d(t, want, got)
			}
			compareStreams(t, want, got)
			compareResultKeys(t, claude, tp)
			checkSideEffects(t, sc, claude, tp)
			if t.Failed() {
				t.Logf("toolpipe-claude's stderr:\n%s", tp.stderr)
			}
		})
	}
}

// entry is one normalised line a program printed.
type entry map[string]any

func (e entry) String() string {
	b, _ := json.Marshal(e)
	return string(b)
}

// normalise keeps what both executables must agree on.
func normalise(t *testing.T, o runOutcome) []entry {
	t.Helper()
	var out []entry
	for _, l := range o.lines {
		if l.Kind != "message" {
			e := entry{"kind": l.Kind}
			if l.Tool != "" {
				e["tool"] = l.Tool
			}
			out = append(out, e)
			continue
		}
		var m map[string]any
		raw := strings.ReplaceAll(string(l.Message), o.cwd, "$CWD")
		if err := json.Unmarshal([]byte(raw), &m); err != nil {
			t.Fatal(err)
		}
		e := entry{"type": m["type"]}
		switch m["type"] {
		case "system":
			e["subtype"] = m["subtype"]
			if m["subtype"] == "init" {
				e["cwd"], e["model"], e["permissionMode"] = m["cwd"], m["model"], m["permissionMode"]
				e["mcp_servers"] = m["mcp_servers"]
			}
		case "assistant", "user":
			msg, _ := m["message"].(map[string]any)
			e["content"] = blocks(msg["content"])
			if m["type"] == "user" {
				_, has := m["tool_use_result"]
				e["tool_use_result"] = has
			}
		case "result":
			for _, k := range []string{"subtype", "is_error", "result", "num_turns", "stop_reason", "permission_denials", "terminal_reason"} {
				e[k] = m[k]
			}
			if m["subtype"] == "error_max_turns" {
				e["errors"] = m["errors"]
			}
		case "stream_event":
			ev, _ := m["event"].(map[string]any)
			e["event"] = ev["type"]
		}
		out = append(out, e)
	}
	return out
}

// blocks normalises content blocks: a tool_result's content is its text.
func blocks(v any) any {
	list, ok := v.([]any)
	if !ok {
		return v
	}
	var out []any
	for _, b := range list {
		m, _ := b.(map[string]any)
		n := map[string]any{"type": m["type"]}
		switch m["type"] {
		case "text":
			n["text"] = m["text"]
		case "tool_use":
			n["id"], n["name"], n["input"] = m["id"], m["name"], m["input"]
		case "tool_result":
			n["tool_use_id"], n["content"] = m["tool_use_id"], resultText(m["content"])
			isErr, _ := m["is_error"].(bool)
			n["is_error"] = isErr
		}
		out = append(out, n)
	}
	return out
}

func resultText(v any) any {
	list, ok := v.([]any)
	if !ok {
		return v
	}
	var parts []string
	for _, b := range list {
		if m, ok := b.(map[string]any); ok {
			parts = append(parts, fmt.Sprint(m["text"]))
		}
	}
	return strings.Join(parts, "\n")
}

func compareStreams(t *testing.T, want, got []entry) {
	t.Helper()
	want, got = resultsInIDOrder(want), resultsInIDOrder(got)
	n := max(len(want), len(got))
	for i := 0; i < n; i++ {
		var w, g entry
		if i < len(want) {
			w = want[i]
		}
		if i < len(got) {
			g = got[i]
		}
		if !reflect.DeepEqual(w, g) {
			t.Errorf("line %d:\n Claude Code:     %v\n toolpipe-claude: %v", i, w, g)
		}
	}
}

// resultsInIDOrder sorts each run of consecutive tool_result messages by
// tool_use id: parallel calls finish in either order, and both executables
// report them as they finish (Claude Code 2.1.328 once gave r2 before r1 in
// parallel-reads), so their order is not something to agree on.
func resultsInIDOrder(es []entry) []entry {
	out := slices.Clone(es)
	id := func(e entry) (string, bool) {
		if e["type"] != "user" {
			return "", false
		}
		c, _ := e["content"].([]any)
		if len(c) == 0 {
			return "", false
		}
		b, _ := c[0].(map[string]any)
		s, ok := b["tool_use_id"].(string)
		return s, ok && b["type"] == "tool_result"
	}
	for i := 0; i < len(out); {
		j := i
		for j < len(out) {
			if _, ok := id(out[j]); !ok {
				break
			}
			j++
		}
		if j > i+1 {
			slices.SortStableFunc(out[i:j], func(a, b entry) int {
				x, _ := id(a)
				y, _ := id(b)
				return strings.Compare(x, y)
			})
		}
		i = max(j, i+1)
	}
	return out
}

// compareResultKeys checks that every result of toolpipe-claude has the keys of
// Claude Code's result, with values of the same JSON types, and that the ids the
// stream carries are consistent: one session_id throughout a query.
func compareResultKeys(t *testing.T, claude, tp runOutcome) {
	t.Helper()
	w, g := results(t, claude), results(t, tp)
	if len(w) != len(g) {
		t.Errorf("Claude Code gave %d results, toolpipe-claude %d", len(w), len(g))
		return
	}
	for i := range w {
		sameShape(t, fmt.Sprintf("result %d", i), w[i], g[i])
	}
}

func results(t *testing.T, o runOutcome) []map[string]any {
	var out []map[string]any
	for _, m := range o.messages(t) {
		if m["type"] == "result" {
			out = append(out, m)
		}
	}
	return out
}

// ignoredKeys are result keys Claude Code fills from its own internals and the
// SDK's types mark optional: timings of its transport, sub-agent tallies.
var ignoredKeys = []string{}

// sameShape checks that got has want's keys with values of the same JSON kind,
// recursively into objects.
func sameShape(t *testing.T, path string, want, got map[string]any) {
	t.Helper()
	for k, wv := range want {
		if slices.Contains(ignoredKeys, k) {
			continue
		}
		gv, ok := got[k]
		if !ok {
			t.Errorf("%s: toolpipe-claude's lacks %q (Claude Code's: %v)", path, k, wv)
			continue
		}
		if kind(wv) != kind(gv) && wv != nil && gv != nil {
			t.Errorf("%s.%s: Claude Code's is a %s (%v), toolpipe-claude's a %s (%v)", path, k, kind(wv), wv, kind(gv), gv)
			continue
		}
		if wm, ok := wv.(map[string]any); ok && k != "modelUsage" && k != "model_usage_since_last_result" {
			gm, _ := gv.(map[string]any)
			sameShape(t, path+"."+k, wm, gm)
		}
	}
}

func kind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case float64:
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	}
	return "object"
}

// checkSideEffects checks what the calls did to the working directory: made.txt
// is made by the allowed Bash call only.
func checkSideEffects(t *testing.T, sc scenario, claude, tp runOutcome) {
	t.Helper()
	want, checked := map[string]bool{"allowed": true, "denied": false, "hook-blocks": false, "no-can-use-tool": false}[sc.name]
	if !checked {
		return
	}
	for who, o := range map[string]runOutcome{"Claude Code": claude, "toolpipe-claude": tp} {
		_, err := os.Stat(filepath.Join(o.cwd, "made.txt"))
		if made := err == nil; made != want {
			t.Errorf("%s: made.txt exists: %v, want %v", who, made, want)
		}
	}
}

// differences are the deliberate differences between the two, per scenario: each
// checks toolpipe-claude's side and then makes both sides agree there.
var differences = map[string]func(t *testing.T, claude, tp []entry){
	// Claude Code says why the command would ask (its Bash classifier: an output
	// redirection); toolpipe-claude says the call was not granted, in Claude
	// Code's words for a call nobody was asked about.
	"no-can-use-tool": func(t *testing.T, claude, tp []entry) {
		for i, side := range [][]entry{claude, tp} {
			for _, e := range side {
				if e["type"] != "user" {
					continue
				}
				for _, b := range e["content"].([]any) {
					m := b.(map[string]any)
					if m["type"] != "tool_result" || m["tool_use_id"] != "toolu_b1" {
						continue
					}
					if text, _ := m["content"].(string); i == 1 && text != "Claude requested permissions to use Bash, but you haven't granted it yet." {
						t.Errorf("toolpipe-claude's refused call's result: %q", text)
					}
					m["content"] = "(the refused call's text)"
				}
			}
		}
	},
	// toolpipe's interrupted call says what happened to it; Claude Code's text
	// tells the model the call was rejected, then corrects itself.
	"interrupt": func(t *testing.T, claude, tp []entry) {
		for _, side := range [][]entry{claude, tp} {
			for _, e := range side {
				if e["type"] != "user" {
					continue
				}
				for _, b := range e["content"].([]any) {
					m := b.(map[string]any)
					if m["type"] == "tool_result" && m["tool_use_id"] == "toolu_s1" {
						if text, _ := m["content"].(string); !strings.Contains(text, "nterrupt") && !strings.Contains(text, "doesn't want to proceed") {
							t.Errorf("the interrupted call's result: %q", text)
						}
						m["content"] = "(the interrupted call's text)"
					}
				}
			}
		}
		for _, e := range tp {
			if e["type"] == "result" && e["terminal_reason"] != "aborted_tools" {
				t.Errorf("toolpipe-claude's interrupted result: %v", e)
			}
		}
	},
}
