package tool

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolpipe/toolpipe/internal/preview"
)

// CheckBlock refuses exactly the ids the state directory cannot store: one rule
// (preview.ValidateName) for the Turn, the starter and the files, so that no id
// passes the Turn only to fail when its output is persisted.
func TestCheckBlockIDsAreStorableNames(t *testing.T) {
	ids := []string{"toolu_1", "a.b", "a..b", "..", ".", "a/b", `a\b`, "a\x00b",
		strings.Repeat("x", preview.MaxNameBytes), strings.Repeat("x", preview.MaxNameBytes+1)}
	for _, id := range ids {
		err := CheckBlock(Block{ID: id, Name: "Bash", Input: json.RawMessage(`{}`)})
		if (err == nil) != (preview.ValidateName("tool_use id", id) == nil) {
			t.Errorf("CheckBlock(%q) = %v, but ValidateName disagrees", id, err)
		}
		if err != nil && !strings.Contains(err.Error(), "usable as a file name") {
			t.Errorf("CheckBlock(%q) = %v, want it to say what an id must be", id, err)
		}
	}
}
