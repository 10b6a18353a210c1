package tool

// The JSON Schemas of the tools' inputs, as the model sees them. additionalProperties
// is false so a misspelled field is reported instead of silently ignored. The fields
// and their types are Claude Code's (sdk-tools.d.ts); bounds that Claude Code does
// not enforce in its schema (Bash's timeout, Read's offset and limit) are applied by
// the tools instead of refused, so an input Claude Code runs runs here too.

const bashSchema = `{
  "type": "object",
  "properties": {
    "command": {"type": "string", "description": "The command to execute"},
    "timeout": {"type": "integer", "description": "Optional timeout in milliseconds (max 600000 for a foreground command; larger values are capped). With run_in_background, how long the command may run before it is stopped (default 1800000, max 7200000)"},
    "description": {"type": "string", "description": "Clear, concise description of what this command does in 5-10 words"},
    "run_in_background": {"type": "boolean", "description": "Set to true to run this command in the background. The call returns at once with a task id and the file its output is written to (Read it to see interim output); you are told when it ends. Stop it with TaskStop."},
    "dangerouslyDisableSandbox": {"type": "boolean", "description": "Set this to true to dangerously override sandbox mode and run commands without sandboxing."}
  },
  "required": ["command"],
  "additionalProperties": false
}`

const readSchema = `{
  "type": "object",
  "properties": {
    "file_path": {"type": "string", "description": "The absolute path to the file to read (a relative one is taken from the working directory)"},
    "offset": {"type": "integer", "description": "The line number to start reading from (1-based). Only provide if the file is too large to read at once"},
    "limit": {"type": "integer", "description": "The number of lines to read (default: all). Only provide if the file is too large to read at once"},
    "pages": {"type": "string", "description": "Page range for PDF files (e.g. \"1-5\", \"3\"); ignored for other files"},
    "allow_large": {"type": "boolean", "description": "Read a text file, or a range of one, over the usual size limits (256 KB without a range, 25,000 tokens), up to a hard cap. Only when you genuinely need all of it; otherwise read a range or search with Grep"}
  },
  "required": ["file_path"],
  "additionalProperties": false
}`

const writeSchema = `{
  "type": "object",
  "properties": {
    "file_path": {"type": "string", "description": "The absolute path to the file to write"},
    "content": {"type": "string", "description": "The content to write to the file"}
  },
  "required": ["file_path", "content"],
  "additionalProperties": false
}`

const editSchema = `{
  "type": "object",
  "properties": {
    "file_path": {"type": "string", "description": "The absolute path to the file to modify"},
    "old_string": {"type": "string", "description": "The text to replace"},
    "new_string": {"type": "string", "description": "The text to replace it with"},
    "replace_all": {"type": "boolean", "description": "Replace all occurrences of old_string"}
  },
  "required": ["file_path", "old_string", "new_string"],
  "additionalProperties": false
}`

const globSchema = `{
  "type": "object",
  "properties": {
    "pattern": {"type": "string", "minLength": 1, "description": "The glob pattern to match files against"},
    "path": {"type": "string", "description": "The directory to search in. If not specified, the current working directory will be used. IMPORTANT: Omit this field to use the default directory. DO NOT enter \"undefined\" or \"null\" - simply omit it for the default behavior. Must be a valid directory path if provided."}
  },
  "required": ["pattern"],
  "additionalProperties": false
}`

const grepSchema = `{
  "type": "object",
  "properties": {
    "pattern": {"type": "string", "minLength": 1, "description": "The regular expression pattern to search for in file contents"},
    "path": {"type": "string", "description": "File or directory to search in (rg PATH). Defaults to current working directory."},
    "glob": {"type": "string", "description": "Glob pattern to filter files (e.g. \"*.js\", \"*.{ts,tsx}\") - maps to rg --glob"},
    "output_mode": {"enum": ["content", "files_with_matches", "count"], "description": "Output mode: \"content\" shows matching lines (supports -A/-B/-C context, -n line numbers, head_limit), \"files_with_matches\" shows file paths (supports head_limit), \"count\" shows match counts (supports head_limit). Defaults to \"files_with_matches\"."},
    "-B": {"type": "integer", "minimum": 0, "description": "Number of lines to show before each match (rg -B). Requires output_mode: \"content\", ignored otherwise."},
    "-A": {"type": "integer", "minimum": 0, "description": "Number of lines to show after each match (rg -A). Requires output_mode: \"content\", ignored otherwise."},
    "-C": {"type": "integer", "minimum": 0, "description": "Alias for context."},
    "context": {"type": "integer", "minimum": 0, "description": "Number of lines to show before and after each match (rg -C). Requires output_mode: \"content\", ignored otherwise."},
    "-n": {"type": "boolean", "description": "Show line numbers in output (rg -n). Requires output_mode: \"content\", ignored otherwise. Defaults to true."},
    "-i": {"type": "boolean", "description": "Case insensitive search (rg -i)"},
    "-o": {"type": "boolean", "description": "Print only the matched (non-empty) parts of each matching line, one match per output line (rg -o). Requires output_mode: \"content\", ignored otherwise. Defaults to false."},
    "type": {"type": "string", "description": "File type to search (rg --type). Common types: js, py, rust, go, java, etc. More efficient than include for standard file types."},
    "head_limit": {"type": "integer", "minimum": 0, "description": "Limit output to first N lines/entries, equivalent to \"| head -N\". Works across all output modes. Defaults to 250 when unspecified. Pass 0 for unlimited (use sparingly - large result sets waste context)."},
    "offset": {"type": "integer", "minimum": 0, "description": "Skip first N lines/entries before applying head_limit, equivalent to \"| tail -n +N | head -N\". Works across all output modes. Defaults to 0."},
    "multiline": {"type": "boolean", "description": "Enable multiline mode where . matches newlines and patterns can span lines (rg -U --multiline-dotall). Default: false."}
  },
  "required": ["pattern"],
  "additionalProperties": false
}`

const webFetchSchema = `{
  "type": "object",
  "properties": {
    "url": {"type": "string", "minLength": 1, "description": "The URL to fetch"},
    "prompt": {"type": "string", "description": "What to extract from the page"}
  },
  "required": ["url", "prompt"],
  "additionalProperties": false
}`
