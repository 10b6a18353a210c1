// Package permissions decides whether a tool call may run, must wait for a
// person's approval, or is refused, using the permission rules and modes of
// Claude Code's settings.json (permissions.allow, permissions.deny,
// permissions.ask, permissions.defaultMode, permissions.additionalDirectories).
//
// It exists so that users keep the settings they already wrote for Claude Code
// and get the same answers here, and so that the answer is recorded once in
// workflow history instead of being recomputed by a worker that may have a
// different filesystem. Decide therefore runs inside Temporal workflow code and
// must give the same Decision on every replay: the package does no I/O, reads
// no clock, starts no goroutines and never lets map order leak into a result.
// Whatever needs the filesystem (making paths absolute, resolving ".." and
// symbolic links, finding the home directory, reading settings files) is done by
// the caller, in an activity or in package settings, and passed in through Request
// and Policy: nothing here imports os or io/fs.
//
// Rules are parsed once with ParseRule; a Rule marshals to and from its text,
// so a Policy travels through Temporal payloads as plain JSON.
//
// Where Claude Code's behaviour is undocumented or unclear, this package picks
// the stricter reading and says so on the type or function concerned:
//
//   - Evaluation is deny, then ask, then allow; the first list with a matching
//     rule wins, whatever the mode (an ask rule still asks in
//     bypassPermissions; a deny rule still denies).
//   - Plan mode refuses every call that is not read-only, even when an allow
//     rule matches it, and refuses rather than asks for file reads outside the
//     working directories.
//   - WebFetch(domain:example.com) matches that host only; subdomains need
//     WebFetch(domain:*.example.com).
//   - Path rules follow Claude Code's convention: //abs is absolute, ~/p is in
//     the home directory, /p is relative to the project root, and p or ./p is
//     relative to the working directory.
//   - In acceptEdits and bypassPermissions, edits inside .git, .claude, .vscode
//     and .idea still ask unless an allow rule names them, as Claude Code does
//     for bypassPermissions, and so do edits of .mcp.json and toolpipe.yaml
//     (they start servers and configure the next run); names compare
//     case-insensitively.
package permissions
