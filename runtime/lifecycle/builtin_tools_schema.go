package lifecycle

// The built-in tools as JSON-schema functions, for models that do not know
// them natively: the field names, types and meanings of the schemas in
// circulation (Anthropic's SWE-bench agent spec, reused by OpenHands,
// trae-agent and eino-ext; refs/tools.md §1.6, §2.5, §3), with descriptions
// saying what these implementations do.

const bashDescription = `Run a command in a bash shell in the sandbox; the result has its stdout, stderr and exit code.
* Each command runs in a new shell that starts in the folder the previous command ended in: cd carries over, but environment variables, shell functions and background processes do not. Chain steps with && in one command, or write them to a script.
* The command does not need to be XML-escaped.
* A command is stopped after its time limit (the result then says timedOut, with exit code 124); do not run servers or other endless commands in the foreground.
* To see part of a file use sed -n 10,25p path, grep -n or head; avoid commands with huge output, which is cut in the middle.
* restart: true goes back to the start folder.`

const bashSchema = `{
  "type": "object",
  "properties": {
    "command": {"type": "string", "description": "The bash command to run. Required unless restart is true."},
    "restart": {"type": "boolean", "description": "Go back to the start folder before the command, if any, runs."}
  }
}`

const codeDescription = `Run a Python or JavaScript (Node.js) program in the sandbox, in the work folder; the result has its stdout, stderr, exit code, the error if it failed, and the files it made or changed in the work folder (path, media type, size).
* Each run is a new process: nothing stays in memory between runs. Save what you need to files.
* Relative paths are in the work folder, where the other tools see the same files; write charts and data there (plt.savefig("chart.png")).
* A run is stopped after its time limit (the result then says timedOut, with exit code 124).`

const codeSchema = `{
  "type": "object",
  "properties": {
    "language": {"type": "string", "enum": ["python", "javascript"], "description": "The program's language; default python."},
    "code": {"type": "string", "description": "The whole program."}
  },
  "required": ["code"]
}`

const editorDescription = `Custom editing tool for viewing, creating and editing files
* State is persistent across command calls and discussions with the user
* If path is a file, view displays the result of applying cat -n. If path is a directory, view lists non-hidden files and directories up to 2 levels deep
* create writes a whole file; over an existing file it replaces it (undo_edit brings the old text back)
* If a command generates a long output, it will be truncated and marked with <response clipped>
* undo_edit reverts the last edit made to the file at path (up to 10 edits per file)
* Paths are absolute, or relative to the work folder

Notes for using the str_replace command:
* The old_str parameter should match EXACTLY one or more consecutive lines from the original file. Be mindful of whitespaces!
* If the old_str parameter is not unique in the file, the replacement will not be performed. Make sure to include enough context in old_str to make it unique
* The new_str parameter should contain the edited lines that should replace the old_str; without it old_str is deleted`

const editorSchema = `{
  "type": "object",
  "properties": {
    "command": {"type": "string", "enum": ["view", "create", "str_replace", "insert", "undo_edit"], "description": "The command to run."},
    "path": {"type": "string", "description": "Path to the file or directory, absolute (e.g. /repo/file.py) or relative to the work folder."},
    "file_text": {"type": "string", "description": "Required for create: the content of the file."},
    "old_str": {"type": "string", "description": "Required for str_replace: the text to replace, exactly as it is in the file."},
    "new_str": {"type": "string", "description": "Optional for str_replace: the text to put in place of old_str (nothing when absent). For insert, the text to insert if insert_text is absent."},
    "insert_line": {"type": "integer", "description": "Required for insert: the text goes AFTER this line; 0 puts it at the top."},
    "insert_text": {"type": "string", "description": "Required for insert: the text to insert."},
    "view_range": {"type": "array", "items": {"type": "integer"}, "description": "Optional for view of a file: the lines to show, 1-based and inclusive; [11, 12] shows lines 11 and 12, [start, -1] shows from start to the end."}
  },
  "required": ["command", "path"]
}`
