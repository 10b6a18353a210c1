// Package budget holds the conversation budget of tool results: Claude Code's
// ContentReplacementState and enforceToolResultBudget (DESIGN §4.3, the third layer of
// result size control).
//
// Per-result thresholds (§4.1) bound each result alone, but an assistant that calls
// twenty tools in parallel still gets one user message with twenty results back, and
// that message can swamp the context window. Before each model call, Enforce holds the
// tool results of every wire-level user message under a budget by replacing the
// largest new ones with a short stub (whose full text an activity persists).
//
// The hard part is not choosing what to replace but never changing a choice: the model
// provider caches the prompt prefix, so every byte the model has already seen must be
// sent again identically. A result is therefore judged exactly once, the first time it
// is seen; afterwards it is either always sent whole (frozen) or always replaced by the
// byte-identical stub chosen then. State records those judgements; Record lets a
// resumed agent Reconstruct them, and Clone lets a forked sub-agent share them, so
// that every agent sending the same prefix sends the same bytes.
//
// The package runs inside Temporal workflow code, where every replay must make the same
// decisions. It is pure: no I/O, no clock, no randomness, no goroutines, and no map is
// ever ranged over where the order could reach the output. Persisting the original
// content is left to the caller, which receives each new replacement as a Record.
//
// Sizes are counted in bytes of the UTF-8 text (Claude Code counts UTF-16 code units).
// Bytes are cheap, exact and never smaller than UTF-16 units, so a budget in bytes is at
// least as strict as the reference one.
package budget
