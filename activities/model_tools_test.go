package activities

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/toolpipe/toolpipe/search"
	"github.com/toolpipe/toolpipe/tool"
	"github.com/toolpipe/toolpipe/webfetch"
)

// The tool descriptions the model is sent state the limits the activities enforce,
// as their constants say: changing a limit without its description fails here.
func TestToolDescriptionsStateActivityLimits(t *testing.T) {
	descs := map[string]string{}
	for _, at := range Builtins().APITools() {
		descs[at.Name] = at.Description
	}
	for _, c := range []struct{ tool, want string }{
		{tool.ReadName, "Without offset and limit it returns every line"},
		{tool.ReadName, fmt.Sprintf("A file over %d KB is refused unless offset or limit is given", readMaxFileBytes>>10)},
		{tool.ReadName, fmt.Sprintf("any result over %s tokens is refused", thousands(readMaxTokens))},
		{tool.ReadName, fmt.Sprintf("up to %s characters", thousands(readLargeMaxChars))},
		{tool.GlobName, fmt.Sprintf("at most %s", thousands(search.GlobLimit))},
		{tool.GrepName, fmt.Sprintf("the first %s lines or entries", thousands(search.GrepHeadLimit))},
		{tool.WebFetchName, fmt.Sprintf("(the first %s characters)", thousands(webFetchMaxPageChars))},
		{tool.WebFetchName, fmt.Sprintf("at most %s characters", thousands(webfetch.MaxURLLength))},
		{tool.WebFetchName, fmt.Sprintf("cached for %d minutes", int(webfetch.DefaultCacheTTL.Minutes()))},
	} {
		if d := descs[c.tool]; !strings.Contains(d, c.want) {
			t.Errorf("%s's description does not say %q:\n%s", c.tool, c.want, d)
		}
	}
}

func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
