package tool

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestValidateInput(t *testing.T) {
	for _, c := range []struct {
		tool, input string
		ok          bool
	}{
		{BashName, `{"command":"ls"}`, true},
		{BashName, `{"command":""}`, false},
		{BashName, `{"command":"ls","timeout":600001}`, false},
		{BashName, `{"command":"ls","extra":1}`, false},
		{BashName, `{"command":"echo a\u0000b"}`, false},
		{BashName, `{"command":"echo \\u0000 is text"}`, true},
		{ReadName, `{"file_path":"relative.txt"}`, false},
		{ReadName, `{"file_path":"/abs.txt","offset":0}`, false},
		{ReadName, `{"file_path":7}`, false},
		{EditName, `{"file_path":"/f","old_string":"a","new_string":"a"}`, false},
		{EditName, `{"file_path":"/f","old_string":"a","new_string":"b"}`, true},
		{GrepName, `{"pattern":"x","output_mode":"lines"}`, false},
		{GrepName, `{"pattern":"x","-i":true,"-C":2}`, true},
		{WebFetchName, `{"url":"ftp://x","prompt":"p"}`, false},
		{WebFetchName, `{"url":"https://example.com","prompt":"p"}`, true},
	} {
		def, _ := Lookup(c.tool)
		err := def.ValidateInput(json.RawMessage(c.input))
		if (err == nil) != c.ok {
			t.Errorf("%s %s: err=%v, want ok=%v", c.tool, c.input, err, c.ok)
		}
		if err != nil && !strings.HasPrefix(err.Error(), InputValidationError+": ") {
			t.Errorf("%s %s: %q lacks the InputValidationError prefix", c.tool, c.input, err)
		}
	}
}

// A check that panics makes the call unsafe instead of crashing the workflow.
func TestIsConcurrencySafeFailsClosedOnPanic(t *testing.T) {
	d := *registry[ReadName]
	d.ReadOnly = func(json.RawMessage) bool { panic("boom") }
	if d.IsConcurrencySafe(json.RawMessage(`{"file_path":"/x"}`)) {
		t.Fatal("a panicking check was taken as safe")
	}
}

// Oversized inputs fail fast with a clear error instead of being parsed (workflow
// code must stay quick), and a command too long for bash -c is refused up front.
func TestValidateInputSizeBounds(t *testing.T) {
	bash, _ := Lookup(BashName)
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
	write, _ := Lookup(WriteName)
	big, _ := json.Marshal(map[string]string{"file_path": "/tmp/x", "content": strings.Repeat("x", 2<<20)})
	if err := write.ValidateInput(big); err != nil {
		t.Errorf("a 2 MiB Write: %v", err)
	}
	huge, _ = json.Marshal(map[string]string{"file_path": "/tmp/x", "content": strings.Repeat("x", 17<<20)})
	if err := write.ValidateInput(huge); err == nil || !strings.Contains(err.Error(), "Write takes at most 16777216") {
		t.Errorf("a 17 MiB Write: %v", err)
	}
}
