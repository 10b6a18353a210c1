package devserver

import (
	"go.temporal.io/server/common/dynamicconfig"
)

// queueReadsPerSecond caps how often history reads one of its task queues from
// the database: far above what a sequential turn needs (one read per tool), so
// that it never paces one, and still a bound if something loops.
const queueReadsPerSecond = 1000

// dynamicConfig returns the server's dynamic configuration. The keys come
// from the server's own setting definitions rather than strings, so a key a
// server upgrade renames or removes fails the build instead of being
// silently ignored.
func dynamicConfig() dynamicconfig.StaticClient {
	return dynamicconfig.StaticClient{
		// A search attribute registered at start-up must be usable at once,
		// not after the cache's eventual refresh. Registering one is rare,
		// so skipping the cache costs little on a one-user server.
		dynamicconfig.ForceSearchAttributesCacheRefreshOnRead.Key(): true,
		// Reading search attributes uncached multiplies persistence calls;
		// raise the rate limits in the same proportion as the CLI does.
		dynamicconfig.FrontendPersistenceMaxQPS.Key(): 10000,
		dynamicconfig.HistoryPersistenceMaxQPS.Key():  45000,
		// The UI and `toolpipe` listings query visibility freely; the
		// default of 10 per second throttles a single busy browser tab.
		dynamicconfig.FrontendMaxNamespaceVisibilityRPSPerInstance.Key(): 100,
		// The default mutable-state cache (128k entries) is sized for a
		// production host; a laptop needs far less memory held.
		dynamicconfig.HistoryCacheHostLevelMaxSize.Key(): 8096,

		// History reads its task queues (transfer: dispatching workflow and
		// activity tasks; timer: timeouts and retry back-offs; visibility:
		// the UI's lists) from the database at most this often per shard,
		// 20 times a second by default, a limit meant to keep thousands of
		// shards from flooding a shared database. With our single shard it
		// paced every sequential step of a turn: a tool's completion creates
		// the workflow task that starts the next tool, and that task waited
		// for the reader's next token, a flat 50 ms per step once the burst
		// was spent (BENCHMARKS.md, "Where a sequential step's time goes").
		// A read happens only when a commit has added tasks, so a higher
		// limit adds no idle polling; what is read was committed before, so
		// durability is untouched.
		dynamicconfig.TransferProcessorMaxPollRPS.Key():   queueReadsPerSecond,
		dynamicconfig.TimerProcessorMaxPollRPS.Key():      queueReadsPerSecond,
		dynamicconfig.VisibilityProcessorMaxPollRPS.Key(): queueReadsPerSecond,

		// The server never stops the SDK workers behind the scanners and
		// the parent-close-policy processor (upstream marks it TODO): after
		// Stop they keep polling the dead frontend for the life of the
		// process, and would latch onto the next server started on the same
		// port with their dead predecessor's dependencies. Off instead.
		// With the processor off, history applies parent close policies
		// itself, for any number of children. The scanners only sweep up
		// expired task-queue rows and orphaned history branches, which
		// retention deletes anyway on a single-user database.
		dynamicconfig.EnableParentClosePolicyWorker.Key(): false,
		dynamicconfig.TaskQueueScannerEnabled.Key():       false,
		dynamicconfig.HistoryScannerEnabled.Key():         false,

		// Workflow updates are how a caller waits for a tool call's
		// result synchronously; they are on by default in this server
		// version, and stated here so a different default cannot turn
		// them off under us.
		dynamicconfig.FrontendEnableUpdateWorkflowExecution.Key():              true,
		dynamicconfig.FrontendEnableUpdateWorkflowExecutionAsyncAccepted.Key(): true,
		// Worker versioning APIs, so workers built with versioning options
		// are not refused by a dev server that a production one would accept.
		dynamicconfig.FrontendEnableWorkerVersioningDataAPIs.Key():     true,
		dynamicconfig.FrontendEnableWorkerVersioningWorkflowAPIs.Key(): true,
		dynamicconfig.FrontendEnableWorkerVersioningRuleAPIs.Key():     true,
	}
}
