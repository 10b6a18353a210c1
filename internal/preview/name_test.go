package preview

import (
	"errors"
	"strings"
	"testing"
)

func TestValidateName(t *testing.T) {
	good := []string{"toolu_01ABC", "a.b", "session-1", strings.Repeat("x", MaxNameBytes), "ü"}
	for _, s := range good {
		if err := ValidateName("tool_use id", s); err != nil {
			t.Errorf("ValidateName(%q) = %v, want nil", s, err)
		}
	}
	bad := map[string]string{
		"":                                  "empty",
		strings.Repeat("x", MaxNameBytes+1): "longer than 200 bytes",
		"a/b":                               "path separator",
		`a\b`:                               "path separator",
		"..":                                "dot path element",
		"a..b":                              "dot path element",
		".":                                 "dot path element",
		"a\x00b":                            "NUL byte",
	}
	for s, want := range bad {
		err := ValidateName("tool_use id", s)
		if !errors.Is(err, ErrInvalidName) || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "tool_use id") {
			t.Errorf("ValidateName(%q) = %v, want ErrInvalidName saying %q", s, err, want)
		}
	}
}

// A hostile id is cut in the error, on a rune boundary, so it cannot flood a log or
// the model's context.
func TestValidateNameCutsLongIDs(t *testing.T) {
	err := ValidateName("session id", strings.Repeat("é", 300))
	if err == nil || len(err.Error()) > 200 || !strings.Contains(err.Error(), "…") {
		t.Fatalf("err = %v (%d bytes), want a short error with the id cut", err, len(err.Error()))
	}
}
