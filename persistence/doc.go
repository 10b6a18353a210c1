// Package persistence keeps oversized tool results out of the conversation and out of
// Temporal history (DESIGN §4, layer 2).
//
// A tool result larger than its threshold is written whole to
// <state dir>/<session>/tool-results/<tool_use_id>.txt (.json when structured), and
// the model sees only a <persisted-output> stub with a 2KB preview and the path, which
// it can Read. The write happens inside the tool activity, so the full output never
// becomes an activity result.
//
// Activities are retried and workflows replayed, so the same tool_use_id can be
// persisted more than once. The first completed write wins and every later attempt
// treats the existing file as success: a tool_use_id names one result, and the stub
// must describe the bytes actually on disk. Files appear under their final name only
// once complete (temp file, fsync, hard link), so a crash never leaves a partial file
// that a retry would mistake for the finished one.
//
// Tools that stream (Bash) write through a SpillWriter, which holds at most the
// threshold in memory and streams the rest to disk, so a command printing gigabytes
// does not grow the worker. When the disk refuses the write, the result degrades to a
// truncated inline text with a note rather than failing the tool call: losing the tail
// of a log is better than losing the whole call.
//
// Thresholds count characters, as Claude Code does (DESIGN §4.1): 12,000 CJK
// characters are 36,000 bytes and stay inline under a 30,000 threshold. The file,
// the memory bound and the preview are made of bytes.
package persistence
