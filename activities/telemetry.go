package activities

import (
	"context"
	"fmt"
	"sync"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
	"go.temporal.io/sdk/activity"

	"github.com/toolpipe/toolpipe/contract"
	"github.com/toolpipe/toolpipe/hooks"
	"github.com/toolpipe/toolpipe/persistence"
	"github.com/toolpipe/toolpipe/tool"
)

// instrumentationName names toolpipe's tracer.
const instrumentationName = "github.com/toolpipe/toolpipe/activities"

// Metric names, reported through the Temporal SDK's metrics handler (so they carry
// its activity_type, task_queue, namespace and workflow_type tags).
const (
	MetricToolCalls      = "toolpipe_tool_calls"
	MetricToolErrors     = "toolpipe_tool_errors"
	MetricToolDuration   = "toolpipe_tool_duration"
	MetricPersistedBytes = "toolpipe_persisted_bytes"
	MetricHookDuration   = "toolpipe_hook_duration"
)

// callStats is what only the code deep inside a call learns (size control), kept
// for the call's span and metrics.
type callStats struct {
	mu         sync.Mutex
	outputSize int64 // the whole output's size, before size control
	persisted  bool
	persistedN int64
	exitCode   *int // the command's exit status, for tools that run a process
}

// statsKey finds a call's stats: tool_use ids are unique within a session, and size
// control, which has no context, knows the call.
func statsKey(call tool.Call) string { return call.SessionID + "\x00" + call.ToolUseID }

func (a *Activities) stats(call tool.Call) *callStats {
	if v, ok := a.calls.Load(statsKey(call)); ok {
		return v.(*callStats)
	}
	return nil
}

// notePersist records what size control did; a truncation for want of a disk is
// logged, since the model then sees less than the tool printed.
func (a *Activities) notePersist(call tool.Call, res persistence.Result) {
	if res.PersistErr != nil {
		a.log.Warn("tool output truncated: could not persist it", "tool", call.Name, "tool_use_id", call.ToolUseID, "size", res.Size, "error", res.PersistErr)
	}
	st := a.stats(call)
	if st == nil {
		return
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	st.outputSize = res.Size
	if res.Persisted != nil {
		st.persisted = true
		st.persistedN = res.Persisted.Size
	}
}

// noteExit records the exit status of the process a call ran.
func (a *Activities) noteExit(call tool.Call, code int) {
	st := a.stats(call)
	if st == nil {
		return
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	st.exitCode = &code
}

// observed wraps a tool activity with a span per call and the tool metrics. The
// span's tracer is the one behind the SDK's RunActivity span in ctx, so tracing is
// on exactly when the client has the tracing interceptor, with nothing to pass
// down; without it the span is a no-op.
func (a *Activities) observed(name string, fn ToolFunc) ToolFunc {
	return func(ctx context.Context, call tool.Call) (tool.Output, error) {
		safe := false // as the turn scheduled it; an older workflow's call says nothing
		summary := tool.Describe(tool.Block{ID: call.ToolUseID, Name: name, Input: call.Input})
		def, known := a.reg.Lookup(name)
		if known {
			summary = def.Describe(call.Input)
		}
		if call.Declared != nil {
			safe = call.Declared.Safe
		} else if known {
			safe = def.IsConcurrencySafe(call.Input)
		}
		attrs := []attribute.KeyValue{
			contract.AttrOperation.String("execute_tool"), contract.AttrToolName.String(name), contract.AttrToolCallID.String(call.ToolUseID),
			contract.AttrSessionID.String(call.SessionID), contract.AttrConcurrentSafe.Bool(safe),
			contract.AttrSummary.String(summary),
		}
		if activity.IsActivity(ctx) {
			attrs = append(attrs, contract.AttrAttempt.Int(int(activity.GetInfo(ctx).Attempt)))
		}
		tracer := trace.SpanFromContext(ctx).TracerProvider().Tracer(instrumentationName)
		ctx, span := tracer.Start(ctx, "execute_tool "+name, trace.WithAttributes(attrs...))
		defer span.End()

		st := &callStats{}
		key := statsKey(call)
		a.calls.Store(key, st)
		defer a.calls.Delete(key)
		start := time.Now()
		out, err := fn(ctx, call)
		elapsed := time.Since(start)

		st.mu.Lock()
		span.SetAttributes(contract.AttrIsError.Bool(out.IsError || err != nil), contract.AttrResultSize.Int(len(out.Content)), contract.AttrPersisted.Bool(st.persisted))
		if st.outputSize > 0 {
			span.SetAttributes(contract.AttrOutputSize.Int64(st.outputSize))
		}
		exitCode := st.exitCode
		if exitCode != nil {
			span.SetAttributes(contract.AttrExitCode.Int(*exitCode))
		}
		persistedN := st.persistedN
		st.mu.Unlock()
		switch {
		case err != nil:
			span.RecordError(err)
			span.SetStatus(codes.Error, err.Error())
			span.SetAttributes(contract.AttrErrorType.String("infrastructure"))
		case out.IsError:
			// The model gets the error as a result and goes on, but the call did
			// fail: back ends filter and colour failed operations by the span's
			// status, as the GenAI conventions say for a tool call that errored.
			line := firstLine(out.Content)
			desc := line
			if exitCode != nil && *exitCode != 0 {
				// A command's output comes first and may be a persisted preview;
				// its exit status is what failed.
				desc = fmt.Sprintf("Exit code %d", *exitCode)
			}
			span.SetStatus(codes.Error, desc)
			span.SetAttributes(contract.AttrErrorLine.String(line), contract.AttrErrorType.String("tool_error"))
		}
		record(ctx, out, err, elapsed, persistedN)
		return out, err
	}
}

// observedHook wraps the hook activity with a span per hook command. Hooks run as
// activities of their own, so in a turn's trace a call's hooks are the siblings of
// its tool span, each with its duration.
func observedHook(fn func(context.Context, hooks.Invocation) (hooks.Run, error)) func(context.Context, hooks.Invocation) (hooks.Run, error) {
	return func(ctx context.Context, inv hooks.Invocation) (hooks.Run, error) {
		tracer := trace.SpanFromContext(ctx).TracerProvider().Tracer(instrumentationName)
		ctx, span := tracer.Start(ctx, "execute_hook "+string(inv.Event), trace.WithAttributes(
			contract.AttrHookEvent.String(string(inv.Event)), contract.AttrToolCallID.String(inv.ToolUseID),
			contract.AttrSessionID.String(inv.SessionID), contract.AttrHookCommand.String(firstLine(inv.Command))))
		defer span.End()
		run, err := fn(ctx, inv)
		span.SetAttributes(contract.AttrHookExitCode.Int(run.ExitCode), contract.AttrHookTimedOut.Bool(run.TimedOut), contract.AttrHookDurationMs.Int64(run.Duration.Milliseconds()))
		switch {
		case err != nil:
			span.RecordError(err)
			span.SetStatus(codes.Error, err.Error())
		case run.Failure != "":
			span.SetStatus(codes.Error, run.Failure)
		}
		if activity.IsActivity(ctx) && err == nil {
			activity.GetMetricsHandler(ctx).WithTags(map[string]string{"event": string(inv.Event)}).
				Timer(MetricHookDuration).Record(run.Duration)
		}
		return run, err
	}
}

// record reports a call's metrics through the SDK's handler (a no-op unless the
// client was given one).
func record(ctx context.Context, out tool.Output, err error, elapsed time.Duration, persisted int64) {
	if !activity.IsActivity(ctx) {
		return
	}
	outcome := "ok"
	switch {
	case err != nil:
		outcome = "failure"
	case out.IsError:
		outcome = "tool_error"
	}
	h := activity.GetMetricsHandler(ctx).WithTags(map[string]string{"outcome": outcome})
	h.Counter(MetricToolCalls).Inc(1)
	if outcome != "ok" {
		h.Counter(MetricToolErrors).Inc(1)
	}
	h.Timer(MetricToolDuration).Record(elapsed)
	if persisted > 0 {
		h.Counter(MetricPersistedBytes).Inc(persisted)
	}
}

// firstLine keeps a span attribute short: the full output may be megabytes.
func firstLine(s string) string {
	for i, r := range s {
		if r == '\n' || i >= 200 {
			return s[:i]
		}
	}
	return s
}
