package plugin

import (
	"context"
	"fmt"
	"sync"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"
	sdkworker "go.temporal.io/sdk/worker"

	"github.com/toolpipe/toolpipe/activities"
	"github.com/toolpipe/toolpipe/contract"
)

// Placement on a fleet (contract/placement.go). A worker started with a Host polls
// that host's queue beside the shared one and answers PlaceSession for its host
// while it holds fewer than MaxSessions sessions. The count is this process's: a
// restarted worker starts from none, and the sessions placed on it before go on
// (their tools still come to its queue) without being counted until they end.

// DefaultMaxSessions is how many sessions a worker takes when not told.
const DefaultMaxSessions = 32

// placer answers the placement activities of one host.
type placer struct {
	host, queue string
	max         int

	mu       sync.Mutex
	sessions map[string]bool
}

func newPlacer(base, host string, max int) *placer {
	if max <= 0 {
		max = DefaultMaxSessions
	}
	return &placer{host: host, queue: contract.HostQueue(base, host), max: max, sessions: map[string]bool{}}
}

// Place takes the session on this host if it has room (a session it holds already
// is placed again: a retried activity), else fails with ErrHostFull, retryable: the
// retry goes back to the shared queue, where another host's worker may take it.
func (p *placer) Place(ctx context.Context, req contract.PlaceRequest) (contract.Placement, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.sessions[req.SessionID] && len(p.sessions) >= p.max {
		return contract.Placement{}, temporal.NewApplicationError(
			fmt.Sprintf("host %s has %d sessions, its max-sessions", p.host, len(p.sessions)), contract.ErrHostFull)
	}
	p.sessions[req.SessionID] = true
	activity.GetLogger(ctx).Info("placement: session placed on this host", "session", req.SessionID, "host", p.host, "sessions", len(p.sessions))
	return contract.Placement{Host: p.host, Queue: p.queue, Generation: 1}, nil
}

// Release gives the session's room back.
func (p *placer) Release(_ context.Context, req contract.ReleaseRequest) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	delete(p.sessions, req.SessionID)
	return nil
}

// Sessions is how many sessions this host holds now.
func (p *placer) Sessions() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.sessions)
}

func (p *placer) register(r sdkworker.ActivityRegistry, legacy bool) {
	activities.RegisterNamed(r, p.Place, contract.PlaceSessionActivityName, legacy)
	activities.RegisterNamed(r, p.Release, contract.ReleaseSessionActivityName, legacy)
}
