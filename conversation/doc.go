// Package conversation holds the messages of an agent session in the Anthropic
// Messages wire format, and the references a Session workflow keeps to them.
//
// The messages themselves live in the persistence store, one file per message, so
// that a session of hundreds of turns keeps a small workflow history: the workflow
// holds Segments (which session's files, how many) and sizes, never the texts of
// past messages. The package is pure (no I/O), so workflow code can use it.
package conversation
