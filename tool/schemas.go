package tool

// The JSON Schemas of the tools' inputs, as the model sees them. additionalProperties
// is false so a misspelled field is reported instead of silently ignored.

const bashSchema = `{
  "type": "object",
  "properties": {
    "command": {"type": "string", "minLength": 1, "description": "The command to execute"},
    "timeout": {"type": "integer", "minimum": 1, "maximum": 600000, "description": "Optional timeout in milliseconds (max 600000)"},
    "description": {"type": "string", "description": "Clear, concise description of what this command does in 5-10 words"},
    "dangerouslyDisableSandbox": {"type": "boolean", "description": "Set this to true to dangerously override sandbox mode and run commands without sandboxing."}
  },
  "required": ["command"],
  "additionalProperties": false
}`

const readSchema = `{
  "type": "object",
  "properties": {
    "file_path": {"type": "string", "minLength": 1, "description": "The absolute path to the file to read"},
    "offset": {"type": "integer", "minimum": 1, "description": "The line number to start reading from (1-based)"},
    "limit": {"type": "integer", "minimum": 1, "description": "The number of lines to read"}
  },
  "required": ["file_path"],
  "additionalProperties": false
}`

const writeSchema = `{
  "type": "object",
  "properties": {
    "file_path": {"type": "string", "minLength": 1, "description": "The absolute path to the file to write"},
    "content": {"type": "string", "description": "The content to write to the file"}
  },
  "required": ["file_path", "content"],
  "additionalProperties": false
}`

const editSchema = `{
  "type": "object",
  "properties": {
    "file_path": {"type": "string", "minLength": 1, "description": "The absolute path to the file to modify"},
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
