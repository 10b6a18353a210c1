package activities

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolpipe/toolpipe/tool"
)

// TestRepair checks each repair and coercion against the input Claude Code 2.1.328
// runs for it (test/parity compares the results with Claude Code itself).
func TestRepair(t *testing.T) {
	cases := []struct {
		tool, in, want, note string
	}{
		// Numbers and booleans as strings, integers written 2.0.
		{tool.ReadName, `{"file_path":"/a","limit":"2"}`, `{"file_path":"/a","limit":2}`, ""},
		{tool.ReadName, `{"file_path":"/a","limit":" +007 "}`, `{"file_path":"/a","limit":7}`, ""},
		{tool.ReadName, `{"file_path":"/a","offset":2.0}`, `{"file_path":"/a","offset":2}`, ""},
		{tool.ReadName, `{"file_path":"/a","offset":"2.0"}`, `{"file_path":"/a","offset":2}`, ""},
		{tool.ReadName, `{"file_path":"/a","offset":1e2}`, `{"file_path":"/a","offset":100}`, ""},
		{tool.ReadName, `{"file_path":"/a","limit":"1.5"}`, `{"file_path":"/a","limit":1.5}`, ""},
		{tool.ReadName, `{"file_path":"/a","allow_large":"true"}`, `{"file_path":"/a","allow_large":true}`, ""},
		// Not coerced: left for the schema to refuse.
		{tool.ReadName, `{"file_path":"/a","limit":"1e1"}`, `{"file_path":"/a","limit":"1e1"}`, ""},
		{tool.ReadName, `{"file_path":"/a","allow_large":"TRUE"}`, `{"file_path":"/a","allow_large":"TRUE"}`, ""},
		{tool.ReadName, `{"file_path":"/a","allow_large":1}`, `{"file_path":"/a","allow_large":1}`, ""},
		// Read's repairs.
		{tool.ReadName, `{"file_path":"/a","offset":[3],"limit":[1]}`, `{"file_path":"/a","offset":3,"limit":1}`, ""},
		{tool.ReadName, `{"file_path":"/a","offset":-2,"limit":0}`, `{"file_path":"/a"}`, ""},
		{tool.ReadName, `{"file_path":"/a","offset":"-2"}`, `{"file_path":"/a"}`, ""},
		{tool.ReadName, `{"file_path":"/a","length":"2"}`, `{"file_path":"/a","limit":2}`, ""},
		{tool.ReadName, `{"file_path":"/a","length":2,"limit":3}`, `{"file_path":"/a","limit":3}`, ""},
		{tool.ReadName, `{"file_path":"/a","description":"x","pages":" "}`, `{"file_path":"/a"}`, ""},
		// Edit's.
		{tool.EditName, `{"path":"/a","old_str":"x","new_str":"y","replace_name":"true"}`,
			`{"file_path":"/a","new_string":"y","old_string":"x","replace_all":true}`, ""},
		{tool.EditName, `{"file_path":"/a","old_string":"x","new_string":"y","replace_all":"false"}`,
			`{"file_path":"/a","old_string":"x","new_string":"y","replace_all":false}`, ""},
		// Bash's: a fractional timeout is rounded up to whole milliseconds.
		{tool.BashName, `{"command":"c","timeout":"5000"}`, `{"command":"c","timeout":5000}`, ""},
		{tool.BashName, `{"command":"c","timeout":1500.5}`, `{"command":"c","timeout":1501}`, ""},
		{tool.BashName, `{"command":"c","timeout_ms":"4000","command_description":"d"}`, `{"command":"c","description":"d","timeout":4000}`, ""},
		{tool.BashName, `{"command":"c","timeout_ms":"soon"}`, `{"command":"c","timeout_ms":"soon"}`, ""},
		{tool.BashName, `{"command":"c","run_in_background":"false"}`, `{"command":"c","run_in_background":false}`, ""},
		{tool.BashName, `{"command":"find . -exec echo {} \\\\;"}`, `{"command":"find . -exec echo {} \\;"}`, ""},
		// Write's, with the note; a repair that leaves the input invalid is not made.
		{tool.WriteName, `{"path":"/w","file_text":"hi"}`, `{"content":"hi","file_path":"/w"}`,
			"Note: Write's parameters are named `file_path` and `content`. `path` was read as `file_path`. `file_text` was read as `content`."},
		{tool.WriteName, `{"file_path":"/w","content":"c","description":"d","command":"create"}`, `{"file_path":"/w","content":"c"}`,
			"Note: Write's parameters are named `file_path` and `content`. `description` was ignored. `command` was ignored."},
		{tool.WriteName, `{"file_path":"/w","path":"/w","content":"c","text":"c"}`, `{"file_path":"/w","content":"c"}`,
			"Note: Write's parameters are named `file_path` and `content`. `path` repeated `file_path` and was ignored. `text` repeated `content` and was ignored."},
		{tool.WriteName, `{"path":"/w","bogus":1}`, `{"path":"/w","bogus":1}`, ""},
		// Grep's.
		{tool.GrepName, `{"pattern":"p","file_path":"/b"}`, `{"pattern":"p","path":"/b"}`,
			"Note: Grep's parameter for where to search is named `path`. `file_path` was read as `path`."},
		{tool.GrepName, `{"pattern":"p","-l":true,"-r":"true"}`, `{"pattern":"p","output_mode":"files_with_matches"}`,
			"Note: `-l` is not a Grep parameter and was read as `output_mode: \"files_with_matches\"`. `-r` was ignored: Grep always searches a directory recursively."},
		{tool.GrepName, `{"pattern":"p","-c":true,"output_mode":"count"}`, `{"pattern":"p","output_mode":"count"}`,
			"Note: `-c` repeated `output_mode` and was ignored."},
		{tool.GrepName, `{"pattern":"p","-i":"true","head_limit":"1","-n":"false"}`, `{"pattern":"p","-i":true,"head_limit":1,"-n":false}`, ""},
		{tool.WebFetchName, `{"url":"https://x.test","prompt":"p","html_extraction_method":"auto"}`, `{"url":"https://x.test","prompt":"p"}`, ""},
		{tool.WebFetchName, `{"url":"https://x.test","html_extraction_method":"auto"}`, `{"url":"https://x.test","html_extraction_method":"auto"}`, ""},
		{tool.GlobName, `{"pattern":""}`, `{"pattern":"**"}`, ""},
		{tool.GrepName, `{"pattern":""}`, `{"pattern":"^"}`, ""},
		// The model's order is kept (new names go last), so that parameters the
		// schema lacks are listed as the model wrote them.
		{tool.ReadName, `{"zz":1,"file_path":"/a","limit":"2","aa":2}`, `{"zz":1,"file_path":"/a","limit":2,"aa":2}`, ""},
		// Nothing to do: the input as sent, byte for byte.
		{tool.ReadName, `{"file_path": "/a", "limit": 2}`, `{"file_path": "/a", "limit": 2}`, ""},
		{tool.ReadName, `[1]`, `[1]`, ""},
	}
	for _, c := range cases {
		d := builtin(t, c.tool)
		got, note := d.Repair(json.RawMessage(c.in))
		if string(got) != c.want || note != c.note {
			t.Errorf("%s %s:\n got  %s %q\n want %s %q", c.tool, c.in, got, note, c.want, c.note)
		}
	}
}

// TestRepairedInputsValidate: what Claude Code runs passes the checks, what it
// refuses is refused in its words, never as a decoding error.
func TestRepairedInputsValidate(t *testing.T) {
	cases := []struct{ tool, in, err string }{
		{tool.ReadName, `{"file_path":"/a","offset":"4","limit":2.0}`, ""},
		{tool.BashName, `{"command":"c","timeout":1500.5}`, ""},
		{tool.ReadName, `{"file_path":"/a","limit":"1.5"}`, "The parameter `limit` type is expected as `int` but provided as `number`"},
		{tool.ReadName, `{"file_path":"/a","limit":"1e1"}`, "The parameter `limit` type is expected as `number` but provided as `string`"},
		{tool.ReadName, `{"file_path":"/a","offset":1e20}`, "Read failed due to the following issue:\nThe parameter `offset` type is expected as `int` but provided as `number`"},
		{tool.BashName, `{"command":"c","timeout":"soon"}`, "The parameter `timeout` type is expected as `number` but provided as `string`"},
		{tool.GrepName, `{"pattern":"p","head_limit":2.5}`, "head_limit must be a whole number of 0 or more, got 2.5. Pass 0 for unlimited."},
		{tool.GrepName, `{"pattern":"p","offset":"-1"}`, "offset must be a whole number of 0 or more, got -1."},
		{tool.WriteName, `{"path":"/w","bogus":1}`, "The required parameter `content` is missing\nAn unexpected parameter `path` was provided\nAn unexpected parameter `bogus` was provided"},
	}
	for _, c := range cases {
		d := builtin(t, c.tool)
		in, _ := d.Repair(json.RawMessage(c.in))
		err := d.ValidateRepaired(in)
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%s %s: %v", c.tool, c.in, err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s %s: got %v, want %q", c.tool, c.in, err, c.err)
		}
	}
}
