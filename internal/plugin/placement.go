package plugin

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/temporal"
	sdkworker "go.temporal.io/sdk/worker"

	"github.com/toolpipe/toolpipe/activities"
	"github.com/toolpipe/toolpipe/contract"
	"github.com/toolpipe/toolpipe/internal/blobstore"
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
	// store keeps the placement records of moves (the fence); nil: none.
	store *blobstore.Store

	mu       sync.Mutex
	sessions map[string]bool
}

func newPlacer(base, host string, max int, store *blobstore.Store) *placer {
	if max <= 0 {
		max = DefaultMaxSessions
	}
	return &placer{host: host, queue: contract.HostQueue(base, host), max: max, store: store, sessions: map[string]bool{}}
}

// Place takes the session on this host if it has room (a session it holds already
// is placed again: a retried activity), else fails with ErrHostFull, retryable: the
// retry goes back to the shared queue, where another host's worker may take it.
//
// A move (Generation above 1) is not taken by the host it moves from (Lost), and
// the host that takes it records the generation in the blob store first
// (PlacementKey, Exclusive): from then on the older generations' calls are refused
// on every host (activities/fence.go).
func (p *placer) Place(ctx context.Context, req contract.PlaceRequest) (contract.Placement, error) {
	if req.Lost != "" && req.Lost == p.host {
		return contract.Placement{}, temporal.NewApplicationError(
			fmt.Sprintf("session %s is moving off host %s: another host takes it", req.SessionID, p.host), contract.ErrHostFull)
	}
	gen := req.Generation
	if gen == 0 {
		// A new run of the session (a prompt after it ended): placed past every
		// generation recorded, so a session that moved once is not fenced off as
		// its lost placement was, and that placement stays fenced.
		latest, err := p.latestGeneration(ctx, req.SessionID)
		if err != nil {
			return contract.Placement{}, err
		}
		gen = latest + 1
	}
	p.mu.Lock()
	full := !p.sessions[req.SessionID] && len(p.sessions) >= p.max
	p.mu.Unlock()
	if full {
		return contract.Placement{}, temporal.NewApplicationError(
			fmt.Sprintf("host %s has %d sessions, its max-sessions", p.host, p.Sessions()), contract.ErrHostFull)
	}
	pl := contract.Placement{Host: p.host, Queue: p.queue, Generation: gen}
	if gen > 1 {
		if err := p.record(ctx, req.SessionID, pl); err != nil {
			return contract.Placement{}, err
		}
	}
	p.mu.Lock()
	p.sessions[req.SessionID] = true
	n := len(p.sessions)
	p.mu.Unlock()
	activity.GetLogger(ctx).Info("placement: session placed on this host", "session", req.SessionID, "host", p.host, "generation", gen, "sessions", n)
	return pl, nil
}

// record writes generation pl.Generation of the session's placement, Exclusive. A
// record of this generation there already is this host's from an earlier attempt,
// or another host's whose attempt timed out: either way the generation is fenced
// off its predecessors, which is what the record is for.
func (p *placer) record(ctx context.Context, session string, pl contract.Placement) error {
	if p.store == nil {
		return nil
	}
	k, err := blobstore.PlacementKey(session, pl.Generation)
	if err != nil {
		return temporal.NewNonRetryableApplicationError(err.Error(), contract.ErrBadCall, err)
	}
	data, _ := json.Marshal(contract.PlacementRecord{Host: pl.Host, Queue: pl.Queue, Generation: pl.Generation, Time: time.Now().UTC().Format(time.RFC3339Nano)})
	if err := p.store.Put(ctx, k, data, blobstore.Exclusive); err != nil && !errors.Is(err, blobstore.ErrExist) {
		return fmt.Errorf("placement: record %s: %w", k, err)
	}
	return nil
}

// latestGeneration is the newest placement generation recorded for the session (0:
// none, the session never moved).
func (p *placer) latestGeneration(ctx context.Context, session string) (int, error) {
	if p.store == nil {
		return 0, nil
	}
	prefix, err := blobstore.PlacementPrefix(session)
	if err != nil {
		return 0, temporal.NewNonRetryableApplicationError(err.Error(), contract.ErrBadCall, err)
	}
	latest := 0
	for e, err := range p.store.List(ctx, prefix) {
		if err != nil {
			return 0, fmt.Errorf("placement: list %s: %w", prefix, err)
		}
		if g, ok := blobstore.PlacementGeneration(e.Key); ok {
			latest = max(latest, g)
		}
	}
	return latest, nil
}

// Probe answers on the host's own queue that the host is there, and whether the
// session's workspace is (a host that lost its disk and came back has none).
func (p *placer) Probe(_ context.Context, req contract.ProbeRequest) (contract.ProbeReply, error) {
	entries, err := os.ReadDir(req.Workdir)
	return contract.ProbeReply{Host: p.host, Workspace: err == nil && len(entries) > 0}, nil
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
	activities.RegisterNamed(r, p.Probe, contract.ProbeHostActivityName, legacy)
}
