// Package contract is what the workflows and the activities agree on: the activity
// type names, the request and reply types of the activities the workflows call by
// name, the error types their failures carry (callers classify failures on these
// rather than on the message text) and the span attribute names (DESIGN §2).
//
// It holds no implementation: the workflows import it instead of package activities,
// so orchestration compiles without the code that does the I/O, and the activities
// import it to register under the same names. Every name and JSON field here is on
// the wire, recorded in workflow histories: renaming one breaks the replay of
// histories recorded before.
package contract
