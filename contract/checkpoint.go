package contract

import "strings"

// Workspace checkpoints (issue 26 item 4, DESIGN §11): after every turn that ran a
// call that may change files, the session captures its workspace into the blob
// store on its host (CaptureCheckpoint), and records the checkpoint per turn. A
// session that moves to another host, and a rewind (issue 30), restore one
// (RestoreCheckpoint).

const (
	// CaptureCheckpointActivityName captures a session's workspace; it runs on the
	// session's host (its tool queue), where the workspace is.
	CaptureCheckpointActivityName = "toolpipe.CaptureCheckpoint"
	// RestoreCheckpointActivityName writes a checkpoint into a workspace: a fresh
	// one (a session moving host) or in place (a rewind).
	RestoreCheckpointActivityName = "toolpipe.RestoreCheckpoint"
	// ErrCheckpointFailed: a capture or restore could not be done (no git, a
	// workspace that is not a directory, a store that refuses): not retried.
	ErrCheckpointFailed = "CheckpointFailed"
	// ErrCheckpointNotFound: the checkpoint to restore is not (wholly) in the store.
	ErrCheckpointNotFound = "CheckpointNotFound"
	// ErrCheckpointConflict: a rewind would overwrite files no checkpoint holds.
	ErrCheckpointConflict = "CheckpointConflict"
)

// CaptureRequest asks for a checkpoint of a session's workspace.
type CaptureRequest struct {
	SessionID string `json:"session_id"`
	Workdir   string `json:"workdir"`
	// Turn is the turn the capture follows (0: the workspace as the session found
	// it), for the activity's summary and logs.
	Turn int `json:"turn"`
	// Generation is the session's placement generation (0 when not placed).
	Generation int `json:"generation,omitempty"`
}

// CheckpointResult is what a capture stored.
type CheckpointResult struct {
	// ID is the checkpoint id (64 hex digits), what a restore takes.
	ID string `json:"id"`
	// Files is how many files (and symbolic links) it holds; Changed how many paths
	// were added, changed or removed since this host's previous capture of the
	// workspace (every file, the first time on a host).
	Files   int `json:"files"`
	Changed int `json:"changed"`
	// Uploaded and UploadedBytes are what this capture added to the store.
	Uploaded      int   `json:"uploaded"`
	UploadedBytes int64 `json:"uploaded_bytes"`
	// Notice says in one line what was left out (over a cap, special files); empty
	// when nothing was.
	Notice string `json:"notice,omitempty"`
	// Millis is the capture's wall time.
	Millis int64 `json:"millis"`
}

// RestoreRequest asks for a checkpoint to be written into a workspace.
type RestoreRequest struct {
	SessionID string `json:"session_id"`
	// Workdir is the workspace: for a fresh restore it must not exist or be empty.
	Workdir string `json:"workdir"`
	// ID is the checkpoint.
	ID string `json:"id"`
	// InPlace rewinds an existing workspace (captured first: RestoreResult.Before).
	InPlace bool `json:"in_place,omitempty"`
	// Overwrite lets an in-place rewind replace files no checkpoint holds.
	Overwrite bool `json:"overwrite,omitempty"`
	// Move is a session moving onto this host: a fresh restore, or, when a
	// directory is at Workdir already, an in-place one that overwrites.
	Move bool `json:"move,omitempty"`
	// CatchUp is a later run of a session placed on this host: the workspace is
	// left as it is when this host's own last capture or restore of it was ID (it
	// is where the session left it, with whatever a person changed since), and is
	// restored as for Move when not (another host had the session since, or this
	// one lost its disk). RestoreResult.Current says which.
	CatchUp bool `json:"catch_up,omitempty"`
	// Generation is the session's placement generation (0 when not placed).
	Generation int `json:"generation,omitempty"`
}

// RestoreResult is what a restore did.
type RestoreResult struct {
	ID string `json:"id"`
	// Before is, in place, the checkpoint of the workspace just before: restoring it
	// undoes the rewind.
	Before       string `json:"before,omitempty"`
	Files        int    `json:"files"`
	Written      int    `json:"written"`
	Removed      int    `json:"removed"`
	Fetched      int    `json:"fetched"`
	FetchedBytes int64  `json:"fetched_bytes"`
	Millis       int64  `json:"millis"`
	// Current says a CatchUp found the workspace at ID already and wrote nothing.
	Current bool `json:"current,omitempty"`
}

// Workspace source (issue 26 item 3): a session started with a repository has its
// host clone it into the working directory before the first turn.
const (
	// PrepareWorkspaceActivityName clones the session's repository into its working
	// directory on its host (a directory that is missing or empty; one that is a
	// clone of the same repository already is kept: a resumed session).
	PrepareWorkspaceActivityName = "toolpipe.PrepareWorkspace"
	// ErrWorkspaceSource: the repository cannot be cloned there (a bad URL or ref, a
	// directory holding something else): not retried.
	ErrWorkspaceSource = "WorkspaceSource"
)

// PrepareRequest asks for the session's repository in its working directory.
type PrepareRequest struct {
	SessionID string `json:"session_id"`
	Workdir   string `json:"workdir"`
	// Repo is the repository's URL (anything git clone takes; file:// and local
	// paths too), Ref a branch, tag or commit to check out (empty: the default
	// branch).
	Repo       string `json:"repo"`
	Ref        string `json:"ref,omitempty"`
	Generation int    `json:"generation,omitempty"`
}

// PrepareResult says what the host did.
type PrepareResult struct {
	// Cloned is false when the directory held the clone already.
	Cloned bool `json:"cloned"`
	// Commit is the commit checked out.
	Commit string `json:"commit"`
}

// SplitRepo splits URL[@REF]: the ref follows the last '@' after the URL's last
// '/' (so git@host:org/repo.git has none, and file:///r.git@v1 has v1).
func SplitRepo(s string) (url, ref string) {
	at := strings.LastIndex(s, "@")
	if at < 0 || at < strings.LastIndex(s, "/") {
		return s, ""
	}
	return s[:at], s[at+1:]
}
