package workflows

import (
	"fmt"
	"testing"

	"github.com/toolpipe/toolpipe/scheduler"
)

// BenchmarkRenderTurnDetails measures what the current details cost a scheduling step
// of the largest turn (MaxToolsPerTurn tools).
func BenchmarkRenderTurnDetails(b *testing.B) {
	s := TurnState{IntakeClosed: true}
	for i := range MaxToolsPerTurn {
		st := scheduler.Yielded
		if i%100 == 0 {
			st = scheduler.Executing
		}
		s.Tools = append(s.Tools, ToolState{ID: fmt.Sprintf("toolu_%04d", i), Description: "Bash(go test ./...)", Status: st})
	}
	b.ReportAllocs()
	for b.Loop() {
		RenderTurnDetails(s)
	}
}
