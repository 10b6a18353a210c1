package contract

// Placement (issue 26, DESIGN §11): on a fleet whose hosts share no disk, a
// session's workspace lives on one host at a time, and its tool activities go to
// that host's own task queue (HostQueue), which every worker polls beside the shared
// one (Temporal's worker-specific task queue pattern). Model calls, the conversation
// store, hooks that need no workspace and compaction stay on the shared queue.

const (
	// PlaceSessionActivityName picks a host for a new session: it runs on the shared
	// queue, and the worker that takes it answers with its own host when it has room
	// (max-sessions), else fails with ErrHostFull so that another worker's poll
	// takes the retry.
	PlaceSessionActivityName = "toolpipe.PlaceSession"
	// ReleaseSessionActivityName gives a session's room back to its host when the
	// session ends; it runs on the host's queue.
	ReleaseSessionActivityName = "toolpipe.ReleaseSession"
	// ErrHostFull: the worker that took PlaceSession has max-sessions sessions.
	ErrHostFull = "HostFull"
	// ProbeHostActivityName asks a session's host whether it is there (it runs on
	// the host's queue, with a schedule-to-start timeout: a host that is gone never
	// takes it) and whether it still has the session's workspace.
	ProbeHostActivityName = "toolpipe.ProbeHost"
	// ErrFenced: the session has moved to a newer placement (another host, or this
	// one again); this host's call of the older one was refused before it ran.
	ErrFenced = "Fenced"
)

// hostQueueSep separates the shared queue's name from a host's in HostQueue.
const hostQueueSep = "#host:"

// HostQueue is the task queue of host's workers beside the shared queue base.
func HostQueue(base, host string) string { return base + hostQueueSep + host }

// PlaceRequest asks for a host for a session.
type PlaceRequest struct {
	SessionID string `json:"session_id"`
	// Generation is the placement asked for: 0 or 1 for the first, one more than
	// the lost one's for a move. A host that takes a move records it in the blob
	// store (PlacementRecord), which fences the older generations.
	Generation int `json:"generation,omitempty"`
	// Lost is the host the session is moving from: it does not take it back.
	Lost string `json:"lost,omitempty"`
}

// PlacementRecord is what blobstore.PlacementKey holds: the host that took
// generation Generation of the session.
type PlacementRecord struct {
	Host       string `json:"host"`
	Queue      string `json:"queue"`
	Generation int    `json:"generation"`
	Time       string `json:"time"`
}

// ProbeRequest asks a session's host whether it holds the session's workspace.
type ProbeRequest struct {
	SessionID  string `json:"session_id"`
	Workdir    string `json:"workdir"`
	Generation int    `json:"generation,omitempty"`
}

// ProbeReply is the host's answer.
type ProbeReply struct {
	Host string `json:"host"`
	// Workspace says the working directory exists and is not empty there.
	Workspace bool `json:"workspace"`
}

// Placement is where a session's tools run: the host, its task queue, and the
// generation of the placement (1 for the first host; each move adds one), which
// fences a host the session has left.
type Placement struct {
	Host       string `json:"host"`
	Queue      string `json:"queue"`
	Generation int    `json:"generation"`
}

// ReleaseRequest gives a session's room on its host back.
type ReleaseRequest struct {
	SessionID string `json:"session_id"`
}
