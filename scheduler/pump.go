package scheduler

// Pump is the scheduling loop both drivers run after every change (a tool added, a
// result in): the Turn workflow, which starts activities, and the in-process
// executor, which starts goroutines. Keeping it here means the two cannot drift.
//
// It hands finished results over in order (yield, once per result, in the order
// the model must see them) before it scans: a non-safe tool starts only when all
// before it have completed, and it must see their context modifiers. It starts every tool the rule now allows (start), and
// repeats while a start finished its tool at once (an input rejected before it
// ran): that frees the queue for the tools behind it. It returns when every
// startable tool waits on work in flight, after a last yield.
func (t *Tracker) Pump(start func(x *Tracked) (finishedNow bool), yield func(x *Tracked)) {
	for {
		t.yieldTo(yield)
		started := t.Scan()
		if len(started) == 0 {
			break
		}
		immediate := false
		for _, x := range started {
			if start(x) {
				immediate = true
			}
		}
		if !immediate {
			break
		}
	}
	t.yieldTo(yield)
}

func (t *Tracker) yieldTo(yield func(*Tracked)) {
	for _, x := range t.Yield() {
		yield(x)
	}
}
