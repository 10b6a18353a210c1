// Package parity holds the differential tests of toolpipe against Claude Code itself:
// the same scripted assistant messages are run by a pinned Claude Code release (from
// npm, against a recording fake of the Messages API) and by toolpipe's Turn workflow,
// and the tool_result blocks each sends back are compared. The package has only
// tests; Claude Code is never a dependency of the product.
package parity
