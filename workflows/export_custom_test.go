package workflows

import (
	"testing"

	"github.com/toolpipe/toolpipe/tool"
)

// UseCustomTools makes the turns of this test process see the given custom tools
// instead of the process's registry: a worker with another registry.
func UseCustomTools(t testing.TB, defs ...*tool.Definition) {
	known := map[string]*tool.Definition{}
	for _, d := range defs {
		known[d.Name] = d
	}
	old := customLookup
	customLookup = func(name string) (*tool.Definition, bool) { d, ok := known[name]; return d, ok }
	t.Cleanup(func() { customLookup = old })
}
