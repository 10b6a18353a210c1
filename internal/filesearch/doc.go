// Package filesearch is Glob and Grep over real trees, with Claude Code's output.
//
// Glob walks the tree itself rather than through a glob library, so that it can
// stream: it keeps only the results it will show (the oldest 100, as Claude Code
// lists them) and a count, whatever the size of the tree. It lists each file at
// most once, however many "**" the pattern repeats, follows a directory symbolic
// link only when its target lies in a permitted directory and outside what the
// walk already covers (so a link loop ends the walk of that link, never the
// search), and never shows a path the Read deny rules hide.
//
// Grep runs ripgrep when it is on PATH, as Claude Code does, and otherwise a Go
// engine with the same flags, .gitignore handling and output. Both feed one
// renderer, so the text the model sees does not depend on the engine: paths
// relative to the working directory, "Found N files", head_limit and offset
// pagination notes, and "--" between context groups, as Claude Code 2.1.328
// prints them.
package filesearch
