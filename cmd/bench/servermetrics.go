package main

import (
	"fmt"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"go.temporal.io/server/common/log"
	"go.temporal.io/server/common/metrics"
)

// serverTimers is a metrics handler for the embedded server that keeps the samples
// of every timer while recording is on, keyed by the timer's name and its
// operation (or task type) tag, so that the breakdown can say how long the
// server's own steps took: persistence calls, history's queue tasks, matching's
// hand-over to a poller.
type serverTimers struct {
	// on is read on every timer the server records: a load, not the lock, so
	// that the handler costs next to nothing while the other scenarios run.
	on      atomic.Bool
	mu      sync.Mutex
	samples map[string][]time.Duration
}

func newServerTimers() *serverTimers { return &serverTimers{samples: map[string][]time.Duration{}} }

// record starts recording; samples already taken are kept.
func (s *serverTimers) record(on bool) { s.on.Store(on) }

// pause stops recording until the next record(true).
func (s *serverTimers) pause() { s.record(false) }

// get returns the samples of the timer name whose tags include every one of tags
// (each "key=value").
func (s *serverTimers) get(name string, tags ...string) []time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []time.Duration
	for k, ds := range s.samples {
		if !strings.HasPrefix(k, name+" ") && k != name {
			continue
		}
		match := true
		for _, t := range tags {
			if !strings.Contains(k, " "+t) {
				match = false
			}
		}
		if match {
			out = append(out, ds...)
		}
	}
	return out
}

func (s *serverTimers) add(name string, tags []metrics.Tag, d time.Duration) {
	if !s.on.Load() {
		return
	}
	key := name
	for _, t := range tags {
		switch t.Key {
		case "operation", "task_type", "service_name":
			if t.Value != "" && t.Value != "_unknown_" {
				key += " " + t.Key + "=" + t.Value
			}
		}
	}
	s.mu.Lock()
	s.samples[key] = append(s.samples[key], d)
	s.mu.Unlock()
}

// report lists the timers whose names contain one of names, busiest first.
func (s *serverTimers) report(names ...string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	type line struct {
		key   string
		total time.Duration
		ds    []time.Duration
	}
	var lines []line
	for k, ds := range s.samples {
		for _, n := range names {
			if strings.HasPrefix(k, n+" ") || k == n {
				var tot time.Duration
				for _, d := range ds {
					tot += d
				}
				lines = append(lines, line{k, tot, ds})
				break
			}
		}
	}
	sort.Slice(lines, func(i, j int) bool { return lines[i].total > lines[j].total })
	var out []string
	for _, l := range lines {
		out = append(out, fmt.Sprintf("%s: n=%d p50 %s p99 %s total %s", l.key, len(l.ds), ms(pct(l.ds, 50)), ms(pct(l.ds, 99)), ms(l.total)))
	}
	return out
}

// handler is the metrics.Handler view of s, carrying tags added with WithTags.
type timersHandler struct {
	s    *serverTimers
	tags []metrics.Tag
}

func (s *serverTimers) handler() metrics.Handler { return timersHandler{s: s} }

func (h timersHandler) WithTags(tags ...metrics.Tag) metrics.Handler {
	return timersHandler{s: h.s, tags: append(append([]metrics.Tag(nil), h.tags...), tags...)}
}
func (h timersHandler) Counter(string) metrics.CounterIface { return metrics.NoopCounterMetricFunc }
func (h timersHandler) Gauge(string) metrics.GaugeIface     { return metrics.NoopGaugeMetricFunc }
func (h timersHandler) Histogram(string, metrics.MetricUnit) metrics.HistogramIface {
	return metrics.NoopHistogramMetricFunc
}
func (h timersHandler) Timer(name string) metrics.TimerIface {
	return metrics.TimerFunc(func(d time.Duration, tags ...metrics.Tag) {
		if h.s.on.Load() {
			h.s.add(name, append(append([]metrics.Tag(nil), h.tags...), tags...), d)
		}
	})
}
func (h timersHandler) Stop(log.Logger) {}
func (h timersHandler) StartBatch(string) metrics.BatchHandler {
	return batch{h}
}

type batch struct{ timersHandler }

func (batch) Close() error { return nil }
