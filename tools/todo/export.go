package todo

// The text rules other plan tools share with TodoWrite (the Task tools of
// package tools/task): one notion of blank text, stated the same way in the
// validator and in the published schema.

// IsBlank reports whether s is empty or made only of characters that draw
// nothing (white space, default-ignorable code points): the text TodoWrite
// refuses as empty.
func IsBlank(s string) bool { return isBlank(s) }

// TextOK reports whether s is non-blank text of at most max characters.
func TextOK(s string, limit int) bool { return textOK(s, limit) }

// NonBlankPattern returns the JSON Schema pattern matching a string with at
// least one character that is not blank: the schema side of IsBlank.
func NonBlankPattern() string { return nonBlankPattern }

// EscapeInvisible rewrites the invisible characters of a marshalled schema
// as \u escapes; the decoded text is unchanged.
func EscapeInvisible(b []byte) []byte { return escapeInvisible(b) }
