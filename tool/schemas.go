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
    "timeout": {"type": "integer", "description": "Optional timeout in milliseconds (max 600000; larger values are capped)"},
    "description": {"type": "string", "description": "Clear, concise description of what this command does in 5-10 words"}
  },
  "required": ["command"],
  "additionalProperties": false
}`

const readSchema = `{
  "type": "object",
  "properties": {
    "file_path": {"type": "string", "description": "The absolute path to the file to read (a relative one is taken from the working directory)"},
    "offset": {"type": "integer", "description": "The line number to start reading from (1-based). Only provide if the file is too large to read at once"},
    "limit": {"type": "integer", "description": "The number of lines to read (default 2000). Only provide if the file is too large to read at once"},
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
    "path": {"type": "string", "description": "The directory to search in; defaults to the working directory"}
  },
  "required": ["pattern"],
  "additionalProperties": false
}`

const grepSchema = `{
  "type": "object",
  "properties": {
    "pattern": {"type": "string", "minLength": 1, "description": "The regular expression to search for"},
    "path": {"type": "string", "description": "File or directory to search in; defaults to the working directory"},
    "glob": {"type": "string", "description": "Glob pattern to filter files (rg --glob)"},
    "type": {"type": "string", "description": "File type to search (rg --type)"},
    "output_mode": {"enum": ["content", "files_with_matches", "count"], "description": "Output mode; defaults to files_with_matches"},
    "-i": {"type": "boolean", "description": "Case insensitive search"},
    "-n": {"type": "boolean", "description": "Show line numbers (content mode)"},
    "-A": {"type": "integer", "minimum": 0, "description": "Lines after each match (content mode)"},
    "-B": {"type": "integer", "minimum": 0, "description": "Lines before each match (content mode)"},
    "-C": {"type": "integer", "minimum": 0, "description": "Lines around each match (content mode)"},
    "head_limit": {"type": "integer", "minimum": 1, "description": "Only the first N lines/entries"},
    "multiline": {"type": "boolean", "description": "Patterns may span lines"}
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
