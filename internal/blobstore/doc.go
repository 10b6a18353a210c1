// Package blobstore is the one store for everything another host needs to continue a
// session (issue 26): large Temporal payloads, persisted tool outputs, conversations,
// transcripts, read state, background task outputs and workspace checkpoints.
//
// It sits behind gocloud.dev/blob, so one URL picks the service: file://, s3:// (any
// S3-compatible endpoint, through the URL's endpoint, region and use_path_style
// parameters), gs:// and azblob://. The embedded default is a file:// store rooted at
// the state directory, and the key scheme (keys.go, the one place that names every
// kind of object) maps each key to exactly the path toolpipe used before the store
// existed, so nothing changes on disk for a single machine.
//
// Writes are atomic on every service: an object appears under its key only once
// complete. An exclusive put (a tool result is created exclusively; an existing one
// counts as success) uses the service's conditional write: If-None-Match on S3, a
// does-not-exist precondition on GCS and Azure, and on file:// a hard link, which
// cannot replace a file, after the data is fsynced (put_file.go; gocloud's own file
// writer neither syncs nor creates exclusively across processes).
//
// Failures are typed (errors.go): ErrNotFound for a missing object, ErrExist for an
// exclusive put that lost, and ErrUnreachable when the store cannot be used at all
// (network, permissions, a bucket that does not exist), each naming the store's URL
// without credentials and the key, so a caller fails a call at once with a message
// that says what to fix.
package blobstore
