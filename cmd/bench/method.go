package main

// method is BENCHMARKS.md's description of how each figure is measured.
const method = `## Method

Everything runs in one process except where a worker must be killed: the embedded
Temporal server (SQLite on a temporary directory), a client, and one worker with the
real tool activities. The in-process baseline is package executor: the same
scheduler (package scheduler) and the same tool functions, with goroutines instead
of activities.

0. **Breakdown.** The sequential turn (10 non-safe Writes) runs N times; each step
   from one tool's completion to the next tool's completion is split three ways:
   by the server's own event timestamps in the turn's history; by the times the
   worker's gRPC calls start and end (a client interceptor) and the tool function
   starts; and by the server's timers (a metrics handler: persistence latencies,
   history task-queue latencies, matching's hand-over). The CPU time of the whole
   process per tool call comes from getrusage, less what the idle process burns;
   ` + "`-cpuprofile`" + ` writes a pprof profile of whichever scenarios run, ` + "`-v`" + ` prints every timer.
1. **Overhead.** Each turn shape runs N times durably (a Turn workflow, started
   with eager start, awaited through its result) and N times in-process,
   interleaved so machine load hits both alike. The ratio is of the medians. The
   per-tool overhead of a run is (durable − in-process) / 10, reported as p50 / p99
   over the runs.
2. **Streaming.** One open turn; 60 Read blocks are handed over one at a time with
   the AddBlocks update; the latency is from just before the update call to the
   moment the tool's activity function starts (recorded inside the worker).
3. **Throughput.** 50 turns of 10 Reads each, started at once against one worker;
   tool calls divided by the wall time until every turn has returned; the second of
   two rounds is reported, with the whole process's CPU time per call (getrusage,
   idle burn subtracted) and the rate that CPU allows on this machine's cores.
4. **Recovery.** A worker process (` + "`cmd/worker`" + `, against the same server) runs a
   turn whose Bash has side effects; it is killed with SIGKILL while the tool runs; a
   new worker process is started and the time from its start to the turn's result
   (the tool reported as interrupted) is measured. The turn's heartbeat timeout is
   the default 20 s: the new worker finds the dead one's lock in the state
   directory free and declares its running tool lost at once.
5. **Cost.** History events and bytes of a 10-Read turn divided by 10; the resident
   memory of a worker process holding 200 open turns (each with one completed tool,
   its intake still open).
`

// choices is BENCHMARKS.md's account of the tuning and what it costs in durability.
const choices = `
## Choices and what they cost

- **All tools of a scan start in one workflow task.** The queue scan returns every
  tool that may start, and the workflow schedules them all before it yields, so ten
  safe tools cost one workflow task, not ten. No durability cost.
- **History reads its task queues up to 1,000 times a second** (dynamic config
  ` + "`history.transferProcessorMaxPollRPS`" + ` and the timer and visibility ones, 20 by
  default): the per-shard limit paced every sequential step at 50 ms with our one
  shard. No durability cost: only committed tasks are read, and only after a
  commit added some.
- **No gzip between the worker and the embedded server** (loopback): the SDK
  compresses every request by default, which costs CPU on both ends and saves
  nothing on loopback. A cluster connection keeps the SDK's default.
- **Heartbeat throttle at 500 ms** (worker option MaxHeartbeatThrottleInterval):
  cancellation reaches an activity only in a heartbeat response, so this bounds how
  fast a failing Bash kills its siblings. Cost: more heartbeat RPCs for long tools
  (two per second per running tool), no durability cost.
- **A dead worker is known for sure, a stalled one is not.** Every worker holds a
  lock in the state directory (` + "`workers/`" + `) and records its running tool
  attempts there; the kernel drops the lock of a dead process, so a worker that
  starts on the same machine fails a dead worker's attempts at once (typed
  ` + "`WorkerLost`" + `) and resets its turns' sticky queues. A worker that shuts down
  gracefully reports the tools its grace cut short (` + "`WorkerShutdown`" + `). Otherwise
  the heartbeat timeout is the detector (default 20 s, config
  ` + "`heartbeat-timeout`" + `): a stalled worker (GC pause, SIGSTOP, an overloaded
  machine) still holds its lock and is declared lost no sooner than that. No
  durability cost: a failure names one attempt by its task token.
- **Eager workflow start** for turns started by a client that also runs the worker
  (the embedded default): the first workflow task comes back with the start call.
  No durability cost: the task is recorded as usual.
- **Large payloads in a content-addressed file store** (over 128 KiB): history
  stays small; the cost is that the state directory must be shared by every
  worker and client.
- **Not used: local activities.** They would save the activity round trip, but a
  local activity's result is recorded only when the workflow task completes, so a
  worker crash re-runs it: acceptable only for read-only tools, and it would hide
  tool calls from the UI's activity list. Left out to keep every tool call a visible,
  exactly-once-recorded activity.
`
