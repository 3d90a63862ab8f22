// Package tools holds the three built-in tools exactly as models know them:
// bash, code_execution and text_editor (also known to Claude as
// str_replace_based_edit_tool and str_replace_editor). They work on any
// sandbox.Sandbox, through its port only, so they behave the same on every
// adapter.
//
// The tools know nothing of threads, runs or approvals: each call gets an
// Env (the sandbox, its start folder, a folder for the tools' own files and a
// function for live output) and returns a result or an error. The runtime
// (runtime.BuiltinTools) supplies the Env and turns results into what the
// model sees.
//
// # Vocabulary
//
//   - The start folder (Env.Workdir) is the sandbox's work folder: where the
//     first bash command starts, where code runs, and where relative paths
//     of the text editor resolve.
//   - The state dir (Env.StateDir) holds the tools' own files: bash's
//     current folder, the programs code_execution runs, the text editor's
//     undo history. It lives in the sandbox, so it survives whatever the
//     sandbox survives (another worker, a restore of the work folder).
//   - A model-facing failure (a bad input, an old_str that does not match)
//     is an *Error whose text is the one the reference tools use, so a
//     model's learned recovery works. Any other error means the call could
//     not be made (the sandbox is gone, the context ended).
//
// # bash
//
// Each command runs in a new shell that starts in the folder the previous
// command ended in: cd carries over, variables, functions and background
// jobs do not. The folder is written to the state dir by an EXIT trap
// prefixed to the command's first line (so the command's own line numbers
// are kept), which runs also when the command exits early (exit 3) or fails
// under set -e. A command that replaces the trap (trap ... EXIT) or the
// shell (exec) keeps the folder from being saved; the next command then
// starts where the last saved one ended. restart: true goes back to the
// start folder.
//
// # code_execution
//
// The program is written to the state dir and run with python3 or node in
// the start folder (Python's own path gets the start folder too, so local
// modules import; JavaScript is read from standard input so require("./x")
// resolves there). Files made or changed in the work folder by the run are
// listed with a media type from their extension, found by comparing a
// listing (path, size, modification time) before and after the run: one
// find and stat command where the sandbox has them, else a walk of the file
// API; either skips the state dir, .git, node_modules, __pycache__ and
// .venv, and stops at CodeExecution.MaxWalk entries.
//
// # text_editor
//
// The quickstart reference (anthropic-quickstarts edit.py) with the fixes
// listed in refs §1.4: tabs are preserved (never expanded), relative paths
// resolve against the start folder, multiple matches report the line where
// each starts, view honours max_characters, undo_edit undoes a create (the
// file goes away again), and create over an existing file replaces it
// (keeping the old text for undo_edit) unless TextEditor.NoOverwrite asks
// for the reference's refusal. Anthropic's own server-side editor replaces
// too (its create result says is_file_update), and models use create to
// rewrite whole files. Binary files and files over the size limits are
// refused with a message that says to use bash.
package tools
