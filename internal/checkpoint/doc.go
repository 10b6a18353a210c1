// Package checkpoint captures a workspace's files into the blob store and restores
// them, on this host or another (issue 26 item 4; the rewind and fork of issue 30
// build on it).
//
// A checkpoint is a git tree of the whole working tree, untracked files included,
// and its id is the tree's object id: a stable string (64 hex digits, SHA-256
// object format) that a workflow records in its history. The tree is built with the
// git CLI through a private git directory and index in the state directory's cache
// (GIT_DIR and GIT_INDEX_FILE, the workspace as --work-tree), so the user's own
// .git (index, stash, refs, config) is never read or written, and the index's stat
// cache makes a capture cost what changed, not what exists: a turn that changed 5
// files of 10,000 hashes 5 files. (go-git was measured 7x slower per incremental
// capture on 10,000 files: BENCHMARKS.md.)
//
// Objects go to the blob store under content-addressed keys
// (blobstore.CheckpointObjectKey), as git's own zlib-compressed loose objects,
// verified against their id on the way up and on the way down. They are uploaded
// only when missing, children before parents, so a tree in the store implies its
// whole subtree is there: the root's presence means the checkpoint is complete, and
// an incremental capture uploads only the objects that changed since the last
// complete one (the blobs of the changed files and the trees on their paths).
//
// What a checkpoint keeps: regular files with their bytes exactly (no end-of-line
// conversion, filter or ident expansion, whatever the workspace's .gitattributes
// say), the executable bit, and symbolic links as links (their target text; never
// followed). It does not keep empty directories, other permission bits, owners or
// times (restored files get the restore's time), special files (FIFOs, sockets,
// devices), the workspace's .git directory, or nested git repositories (a directory
// with its own .git): each of these that has content is listed in Result.Skipped.
// What the workspace's .gitignore files and .git/info/exclude ignore is left out,
// and so is what Config.Excludes names; files over the per-file cap, and the largest
// changed files once a checkpoint's new content reaches its cap, are skipped with a
// notice and tried again at the next capture.
//
// Restore writes a checkpoint into a fresh directory (another host: another cache,
// the same store). RestoreInPlace rewinds a workspace: it first captures the current
// state (so the rewind can be undone), then writes what differs and removes what the
// checkpoint lacks, leaving ignored and skipped files alone.
package checkpoint
