package markdown

import (
	"testing"
)

func TestToken(t *testing.T) {
	tests := []struct {
		name, line, cm string
		at             int
		kind           tokenKind
		end            int
	}{
		{name: "keyword or name", line: "func main()", cm: "//", kind: tokenWord, end: 4},
		{name: "punctuation up to a word", line: "() x", cm: "//", kind: tokenPlain, end: 3},
		{name: "punctuation up to a comment", line: ";// c", cm: "//", kind: tokenPlain, end: 1},
		{name: "line comment", line: "x // c", cm: "//", at: 2, kind: tokenComment, end: 6},
		{name: "hash after space is a comment", line: "a # c", cm: "#", at: 2, kind: tokenComment, end: 5},
		{name: "hash inside a word is not", line: "a#b", cm: "#", at: 1, kind: tokenPlain, end: 2},
		{name: "no comments in JSON", line: "// x", cm: "", kind: tokenPlain, end: 3},
		{name: "string with an escaped quote", line: `"a\"b" c`, cm: "//", kind: tokenString, end: 6},
		{name: "unclosed string ends the line", line: "'abc", cm: "#", kind: tokenString, end: 4},
		{name: "backquoted", line: "`x` y", cm: "//", kind: tokenString, end: 3},
		{name: "number with a dot", line: "3.5 x", cm: "//", kind: tokenNumber, end: 3},
		{name: "digit inside a name", line: "x2", cm: "//", at: 1, kind: tokenWord, end: 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			kind, end := token(tt.line, tt.at, tt.cm)
			if kind != tt.kind || end != tt.end {
				t.Errorf("token(%q, %d, %q) = %d, %d; want %d, %d", tt.line, tt.at, tt.cm, kind, end, tt.kind, tt.end)
			}
		})
	}
}
