package tool

import (
	"fmt"
	"strconv"
)

// The descriptions the model reads for each built-in tool, in toolpipe's own words.
// A model uses a tool well when it knows its limits and defaults, when to use it and
// when another tool serves better; these texts say so, and the schemas carry the
// details of each field. Limits that live in this package are formatted from their
// constants; the others (Read's, Glob's, Grep's, WebFetch's) are checked against
// their constants by activities/model_tools_test.go, so that a changed limit cannot
// leave its description behind. The texts are fixed: the same bytes on every call
// keep the provider's prompt cache valid.

var bashDescription = fmt.Sprintf(`Runs a bash command and returns its output (stdout and stderr as they interleaved), preceded by "Exit code N" when the command fails.

- Each call starts a fresh shell in the working directory: cd, shell variables and activated environments do not carry over to the next call. Use absolute paths, or chain dependent steps in one command with && (cd sub && make).
- timeout is in milliseconds: %s (2 minutes) by default, at most %s (10 minutes). A command still running then is killed together with every process it started.
- Output over %s characters is saved to a file: you get its path and a preview of the beginning, and can Read or Grep the file for the rest.
- A command is at most %s bytes; write a longer script to a file with Write and run the file.
- Use Bash for builds, tests, git, package managers and other programs. Do not use it to find, search or show files: Glob finds files by name, Grep searches contents, Read shows a file and Edit or Write change one. They are faster, their output is made for you, and they run in parallel.
- Commands that only read (ls, git status, git diff, cat and the like) run in parallel with other read-only calls. Any other command runs alone, and when it fails, the calls sent with it in the same message are cancelled; send independent commands that change things in separate messages, or chain them with && or ;.
- Interactive programs (editors, pagers, prompts) cannot be answered: use flags that make them non-interactive (git --no-pager, -y, --yes).
- Quote paths that contain spaces ("path with spaces/file"). Give description: what the command does, in 5-10 words.
- The command may run in a sandbox (files writable only in the working directory, no network). Set dangerouslyDisableSandbox only when the sandbox is what makes the command fail; the user's settings decide whether that is allowed.`,
	num(BashDefaultTimeoutMs), num(BashMaxTimeoutMs), num(bashMaxResultChars), num(MaxArgBytes))

const readDescription = `Reads a text file and returns its lines numbered from 1, each as the line number, a tab and the line.

- file_path should be an absolute path (a relative one is taken from the working directory).
- Without offset and limit it returns every line. For a long file, read the part you need: offset is the 1-based line to start at and limit the number of lines.
- A Jupyter notebook (.ipynb) is shown as its cells, each with its outputs. A UTF-16 file with a byte-order mark is shown as text; a file that is not valid UTF-8 is shown with a note, and Edit and Write refuse it.
- A file over 256 KB is refused unless offset or limit is given, and any result over 25,000 tokens is refused: read a range, or find the lines you need with Grep first. allow_large lifts these limits, up to 800,000 characters, for when you really need the whole file.
- Read a file before you Edit or Write it: both refuse an existing file that was not read.
- When you need several files, Read them all in one message: independent Reads run in parallel. Reading a file that may turn out not to be useful is fine.
- It reads files, not directories: list a directory with Glob (or ls with Bash). A path that does not exist is an error; Glob finds the right one.
- Binary files, images and PDFs are not shown as text: the result says how to look into them with a shell command.
- An empty file, or an offset past the end, is reported with a warning instead of lines.
- A tool result saved to a file (a <persisted-output> block names its path) is read with this tool.`

const writeDescription = `Writes a file with the given content, creating it (and its missing parent directories) or replacing everything in it.

- file_path should be an absolute path.
- An existing file must have been Read in this conversation first; Write refuses it otherwise, so that nothing you have not seen is overwritten.
- To change part of an existing file use Edit, which sends only the change; use Write for new files and for rewriting a file completely.
- Content is at most 16 MB; generate larger files with a command or a script.
- Do not create documentation or README files unless the user asked for them.`

const editDescription = `Replaces text in a file: old_string becomes new_string. old_string must occur exactly once in the file, unless replace_all is true, which replaces every occurrence.

- Read the file first in this conversation: Edit refuses a file that was not read.
- Copy old_string from what Read showed without the line-number prefix (the number and the tab before each line), keeping indentation (tabs or spaces) and line breaks exactly.
- When old_string occurs more than once, include the lines around it to make it unique, or set replace_all (to rename a variable everywhere, say). Text that is not found is an error: Read the file again, it may have changed.
- An empty old_string creates a new file whose content is new_string; it is refused when the file exists.
- file_path should be an absolute path. Prefer Edit to Write for existing files.
- Several changes to one file: make them in order, each on the file as the previous one left it. Edits run one at a time, even when sent in one message.`

var globDescription = fmt.Sprintf(`Finds files whose paths match a glob pattern, such as **/*.go or src/**/*.{ts,tsx}.

- It searches the working directory, or path when given (a directory; omit the field for the working directory rather than passing "undefined" or "null").
- It lists paths relative to the working directory (absolute outside it), the oldest first, at most %s; when more match, the result says how many, and a narrower pattern finds the rest.
- Use it instead of find or ls with Bash to locate files by name; use Grep to search inside files.
- Searches are read-only: put independent Glob and Grep calls in one message and they run in parallel.`, num(globLimit))

var grepDescription = fmt.Sprintf(`Searches file contents with a regular expression (ripgrep syntax) in the working directory, or in path (a file or a directory).

- output_mode: files_with_matches (the default) lists the files that match, newest first; content shows the matching lines (line numbers on by default with -n, lines around them with -A, -B or -C); count gives the number of matches per file.
- head_limit shows the first %s lines or entries unless you set it; 0 shows everything (use it sparingly: large results fill your context). offset skips entries to page through the rest.
- Narrow the files with glob (*.go, **/*.{ts,tsx}) or type (go, py, js, rust); -i ignores case.
- The pattern is a regular expression: escape literal metacharacters (interface\{\} finds interface{}). multiline: true lets a pattern span lines.
- Files ignored by .gitignore are skipped; hidden files are searched.
- Always search with Grep rather than grep or rg in Bash. Independent searches go in one message and run in parallel; for an open-ended exploration, start broad and narrow down.
- Output over %s characters is saved to a file: you get its path and a preview.`, num(grepHeadLimit), num(grepMaxResultChars))

const webFetchDescription = `Fetches a URL and answers prompt about the page: HTML is converted to markdown, and a small model reads it (the first 100,000 characters) and answers; when no model is configured you get the markdown itself.

- url must be a full http or https URL of at most 2,000 characters; http is upgraded to https (except for localhost and IP addresses).
- prompt says what to extract: be specific, the answer is short.
- A redirect to the same host is followed; a redirect to another host is reported, not followed: fetch the new URL with a new call.
- Pages are cached for 15 minutes, so fetching again is cheap. Binary content (images, archives) is refused.
- It only reads. Use it for documentation and pages the user points to; read local files with Read.`

// Limits of other packages that descriptions state; activities/model_tools_test.go
// holds each to its source.
const (
	globLimit     = 100 // search.GlobLimit
	grepHeadLimit = 250 // search.GrepHeadLimit
)

// Result thresholds (DESIGN §4.1) the descriptions state, from the definitions.
const (
	bashMaxResultChars = 30_000
	grepMaxResultChars = 20_000
)

// num writes n with thousands separators, as the descriptions write numbers.
func num(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
