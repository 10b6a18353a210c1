// Package preview holds the pure rules about what toolpipe stores for the model:
// the preview cut and the <persisted-output> stub the model reads in place of a
// large tool output (Message, Preview, FormatSize), and the name rule for ids that
// become file names (ValidateName, MaxNameBytes).
//
// It imports only the standard library and does no I/O, like package budget, so
// that the workflows can build the same stub and apply the same rule as the
// activities that write the files (package persistence), and the Turn can reject
// an id the state directory could not store, all deterministically. DESIGN §4.
package preview
