// Package toolenv builds the environment that tool processes (Bash commands, MCP
// stdio servers) run with: the worker's own environment minus its secrets, so that
// `printenv ANTHROPIC_API_KEY` cannot put the worker's API key into a tool result,
// the workflow history and the state directory. It also holds the extra
// environment that keeps a read-only command read-only (git must not run programs
// a repository's config names) and the redaction of secret values from text that
// is stored.
package toolenv
