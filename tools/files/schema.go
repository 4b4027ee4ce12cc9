package files

// The input schemas: the fields of Claude Code's Read, Write and Edit.
const (
	readSchema = `{"type":"object","properties":{` +
		`"file_path":{"type":"string","description":"The absolute path of the file to read"},` +
		`"offset":{"type":"integer","minimum":1,"description":"The line number to start at (1 is the first line)"},` +
		`"limit":{"type":"integer","minimum":1,"description":"How many lines to read (2000 when not given)"}},` +
		`"required":["file_path"],"additionalProperties":false}`
	writeSchema = `{"type":"object","properties":{` +
		`"file_path":{"type":"string","description":"The absolute path of the file to write"},` +
		`"content":{"type":"string","description":"The whole new content of the file"}},` +
		`"required":["file_path","content"],"additionalProperties":false}`
	editSchema = `{"type":"object","properties":{` +
		`"file_path":{"type":"string","description":"The absolute path of the file to change"},` +
		`"old_string":{"type":"string","description":"The exact text to replace"},` +
		`"new_string":{"type":"string","description":"The text to put in its place (different from old_string)"},` +
		`"replace_all":{"type":"boolean","default":false,"description":"Replace every occurrence instead of exactly one"}},` +
		`"required":["file_path","old_string","new_string"],"additionalProperties":false}`
)

// The descriptions, in todo-shell's words.
const (
	readDescription = `Read a text file and return its lines numbered as cat -n prints them: the line number, a tab, the line.

- file_path must be absolute. Up to 2000 lines are returned from the start; give offset (a line number) and limit (a count) to read another part of a long file.
- A line longer than 2000 characters is cut, with a marker saying so. An empty file, a binary file and a directory each get a one-line answer instead of content.
- Read a file before changing it with Write or Edit: they refuse to change an existing file that was not read in this session, or that changed since it was read.
- A long result is saved to a file and replaced by a line naming it, like any tool result.`
	writeDescription = `Write a whole file: create it, or replace an existing file completely.

- file_path must be absolute; missing directories are created.
- An existing file must have been read with Read in this session, and not changed since; otherwise the call is refused and nothing is written.
- The write is atomic (the old content or the new, never half) and keeps the file's permissions.
- To change part of a file, prefer Edit: it sends only the change.`
	editDescription = `Replace text in an existing file: old_string becomes new_string.

- old_string must match the file exactly, indentation included, and occur exactly once, unless replace_all is true (then every occurrence is replaced). It must differ from new_string.
- The file must have been read with Read in this session, and not changed since.
- The file keeps its line endings: in a file with CRLF line ends, the strings may be written with plain newlines.
- The write is atomic and keeps the file's permissions.`
)
