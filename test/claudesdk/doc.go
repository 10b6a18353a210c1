// Package claudesdk runs the same Claude Agent SDK programs (programs/, pinned
// @anthropic-ai/claude-agent-sdk) against Claude Code's executable and against
// toolpipe-claude, with one scripted fake of the Messages API, and compares the
// message streams they yield.
package claudesdk
