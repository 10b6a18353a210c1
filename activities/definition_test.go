package activities

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolpipe/toolpipe/tool"
)

func TestValidateInput(t *testing.T) {
	for _, c := range []struct {
		tool, input string
		// want is the error (a prefix of it); empty means the input is valid.
		want string
	}{
		{tool.BashName, `{"command":"ls"}`, ""},
		// Claude Code runs these: an empty command, a timeout over the maximum
		// (capped), the background and sandbox fields, relative paths, offset 0.
		{tool.BashName, `{"command":""}`, ""},
		{tool.BashName, `{"command":"ls","timeout":600001}`, ""},
		{tool.BashName, `{"command":"ls","extra":1}`, "InputValidationError: Bash failed due to the following issue:\nAn unexpected parameter `extra` was provided"},
		{tool.BashName, `{"command":"echo a\u0000b"}`, "InputValidationError: the input contains a NUL"},
		{tool.BashName, `{"command":"echo \\u0000 is text"}`, ""},
		{tool.ReadName, `{"file_path":"relative.txt"}`, ""},
		{tool.ReadName, `{"file_path":"/abs.txt","offset":0}`, ""},
		{tool.ReadName, `{"file_path":"/abs.txt","offset":-3,"limit":0,"pages":"1-2","allow_large":true}`, ""},
		{tool.ReadName, `{"file_path":7}`, "InputValidationError: Read failed due to the following issue:\nThe parameter `file_path` type is expected as `string` but provided as `number`"},
		{tool.ReadName, `{"file_path":"/a","limit":1.5}`, "InputValidationError: Read failed due to the following issue:\nThe parameter `limit` type is expected as `int` but provided as `number`"},
		{tool.ReadName, `{"file_path":"/a","limit":"ten"}`, "InputValidationError: Read failed due to the following issue:\nThe parameter `limit` type is expected as `number` but provided as `string`"},
		{tool.ReadName, `[1,2]`, "InputValidationError: Read failed due to the following issue:\nThe input type is expected as `object` but provided as `array`"},
		{tool.ReadName, `{"path":"/a"}`, "InputValidationError: Read failed due to the following issues:\nThe required parameter `file_path` is missing\nAn unexpected parameter `path` was provided"},
		{tool.EditName, `{"file_path":"/f","old_string":"a","new_string":"a"}`, "No changes to make: old_string and new_string are exactly the same."},
		{tool.EditName, `{"file_path":"/f","old_string":"a","new_string":"b"}`, ""},
		{tool.GrepName, `{"pattern":"x","output_mode":"lines"}`, "InputValidationError: Grep failed due to the following issue:\nThe parameter `output_mode` is invalid: "},
		{tool.GrepName, `{"pattern":"x","-i":true,"-C":2}`, ""},
		{tool.WebFetchName, `{"url":"ftp://x","prompt":"p"}`, `url "ftp://x" is not an absolute http or https URL`},
		{tool.WebFetchName, `{"url":"https://example.com","prompt":"p"}`, ""},
	} {
		def := builtin(t, c.tool)
		err := def.ValidateInput(json.RawMessage(c.input))
		switch {
		case err == nil && c.want != "":
			t.Errorf("%s %s: valid, want %q", c.tool, c.input, c.want)
		case err != nil && (c.want == "" || !strings.HasPrefix(err.Error(), c.want)):
			t.Errorf("%s %s:\n got %q\nwant %q", c.tool, c.input, err, c.want)
		}
	}
}

// Oversized inputs fail fast with a clear error instead of being parsed (workflow
// code must stay quick), and a command too long for bash -c is refused up front.
func TestValidateInputSizeBounds(t *testing.T) {
	bash := builtin(t, tool.BashName)
	huge, _ := json.Marshal(map[string]string{"command": "echo " + strings.Repeat("x", 2<<20)})
	if err := bash.ValidateInput(huge); err == nil || !strings.Contains(err.Error(), "Bash takes at most 1048576") {
		t.Errorf("huge input: %v", err)
	}
	if bash.IsConcurrencySafe(huge) || bash.Retryable(huge) {
		t.Error("a huge command must not be safe")
	}
	long, _ := json.Marshal(map[string]string{"command": "echo " + strings.Repeat("x", MaxArgBytes)})
	if err := bash.ValidateInput(long); err == nil || !strings.Contains(err.Error(), "bash -c takes at most 131071") {
		t.Errorf("long command: %v", err)
	}
	ok, _ := json.Marshal(map[string]string{"command": "echo " + strings.Repeat("x", MaxArgBytes-5)})
	if err := bash.ValidateInput(ok); err != nil {
		t.Errorf("a command of exactly MaxArgBytes: %v", err)
	}
	write := builtin(t, tool.WriteName)
	big, _ := json.Marshal(map[string]string{"file_path": "/tmp/x", "content": strings.Repeat("x", 2<<20)})
	if err := write.ValidateInput(big); err != nil {
		t.Errorf("a 2 MiB Write: %v", err)
	}
	huge, _ = json.Marshal(map[string]string{"file_path": "/tmp/x", "content": strings.Repeat("x", 17<<20)})
	if err := write.ValidateInput(huge); err == nil || !strings.Contains(err.Error(), "Write takes at most 16777216") {
		t.Errorf("a 17 MiB Write: %v", err)
	}
}

// Several issues of one kind are listed in the order the schema declares its
// parameters, as Claude Code lists them, and the same way on every run: the
// validator visits properties in Go's random map order.
func TestIssuesInDeclaredOrder(t *testing.T) {
	def := builtin(t, tool.EditName)
	want := "InputValidationError: Edit failed due to the following issues:\n" +
		"The parameter `old_string` type is expected as `string` but provided as `number`\n" +
		"The parameter `replace_all` type is expected as `boolean` but provided as `string`"
	for range 50 {
		err := def.ValidateInput([]byte(`{"file_path":"/a","old_string":1,"new_string":"b","replace_all":"yes"}`))
		if err == nil || err.Error() != want {
			t.Fatalf("got %v\nwant %s", err, want)
		}
	}
	// Declared order, not alphabetical: Write declares file_path before content.
	w := builtin(t, tool.WriteName)
	err := w.ValidateInput([]byte(`{"file_path":1,"content":2}`))
	if err == nil || !strings.Contains(err.Error(), "`file_path` type is expected as `string` but provided as `number`\nThe parameter `content`") {
		t.Fatalf("Write: %v", err)
	}
}

// A background Bash call is never concurrency-safe, even for a read-only command:
// turns recorded before background shells refused its input, which made the call
// unsafe, and must replay with that schedule.
func TestBackgroundBashIsNotConcurrencySafe(t *testing.T) {
	bash := builtin(t, tool.BashName)
	if !bash.IsConcurrencySafe(json.RawMessage(`{"command":"tail -n 5 app.log"}`)) {
		t.Fatal("a read-only foreground command is not safe")
	}
	if bash.IsConcurrencySafe(json.RawMessage(`{"command":"tail -n 5 app.log","run_in_background":true}`)) {
		t.Fatal("a background call is safe")
	}
}
