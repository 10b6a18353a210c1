package devserver

import (
	"testing"

	"go.temporal.io/server/common/dynamicconfig"
)

// History's per-shard task-queue read limit (20 a second by default) paced every
// sequential tool step at 50 ms on our one shard (BENCHMARKS.md); the embedded
// server must keep it far above what a turn needs.
func TestDynamicConfigLiftsTaskQueueReadLimits(t *testing.T) {
	cfg := dynamicConfig()
	for _, s := range []dynamicconfig.GlobalIntSetting{
		dynamicconfig.TransferProcessorMaxPollRPS,
		dynamicconfig.TimerProcessorMaxPollRPS,
		dynamicconfig.VisibilityProcessorMaxPollRPS,
	} {
		v, ok := cfg[s.Key()].(int)
		if !ok || v < 1000 {
			t.Errorf("%s = %v, want at least 1000 (the default is 20)", s.Key(), cfg[s.Key()])
		}
	}
}
