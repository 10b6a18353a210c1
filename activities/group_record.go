package activities

import "context"

// GroupRecorder is told of every process group a tool starts, for as long as it
// may run. The worker records the groups beside its running attempts, so that if
// the worker dies, the next worker's sweep kills what the tool started: Pdeathsig
// reaches only the group's leader, and its children (a dev server, npm) would run
// on while the model, told the call was interrupted, starts it again.
type GroupRecorder interface {
	// GroupStarted records the group pgid (its leader's pid); ended forgets it
	// once the group is gone.
	GroupStarted(pgid int) (ended func())
}

type groupRecorderKey struct{}

// WithGroupRecorder returns ctx carrying r, for the tools run under ctx.
func WithGroupRecorder(ctx context.Context, r GroupRecorder) context.Context {
	return context.WithValue(ctx, groupRecorderKey{}, r)
}

// groupStarted tells ctx's recorder, if any, that group pgid started.
func groupStarted(ctx context.Context, pgid int) (ended func()) {
	if r, ok := ctx.Value(groupRecorderKey{}).(GroupRecorder); ok && r != nil {
		return r.GroupStarted(pgid)
	}
	return func() {}
}
