package router

import (
	"errors"
	"strings"
)

// ErrIncomplete is returned by Split for text that ends inside a quote or
// after a backslash: a front end should ask for more lines.
var ErrIncomplete = errors.New("incomplete: unclosed quote or trailing backslash")

// Split splits text into words the way a POSIX shell does for a simple
// command: blanks separate words; single quotes keep everything literally;
// double quotes keep everything but a backslash before $ ` " \ or a newline;
// outside quotes a backslash keeps the next character, and a
// backslash-newline joins two lines. Newlines outside quotes separate words.
func Split(text string) ([]string, error) {
	var (
		words  []string
		cur    strings.Builder
		inWord bool
	)
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch c {
		case ' ', '\t', '\n', '\r':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case '\\':
			if i+1 >= len(text) {
				return nil, ErrIncomplete
			}
			i++
			if text[i] == '\n' {
				continue // line continuation
			}
			cur.WriteByte(text[i])
			inWord = true
		case '\'':
			end := strings.IndexByte(text[i+1:], '\'')
			if end < 0 {
				return nil, ErrIncomplete
			}
			cur.WriteString(text[i+1 : i+1+end])
			i += 1 + end
			inWord = true
		case '"':
			j, ok := doubleQuoted(&cur, text, i+1)
			if !ok {
				return nil, ErrIncomplete
			}
			i = j
			inWord = true
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

// doubleQuoted copies the body of a double-quoted string starting at i to
// cur and returns the index of the closing quote.
func doubleQuoted(cur *strings.Builder, text string, i int) (int, bool) {
	for ; i < len(text); i++ {
		switch c := text[i]; c {
		case '"':
			return i, true
		case '\\':
			if i+1 >= len(text) {
				return i, false
			}
			switch n := text[i+1]; n {
			case '$', '`', '"', '\\':
				cur.WriteByte(n)
				i++
			case '\n':
				i++
			default:
				cur.WriteByte(c)
			}
		default:
			cur.WriteByte(c)
		}
	}
	return i, false
}

// Incomplete reports whether text ends inside a quote or after a backslash,
// so a front end should read another line and join it with a newline.
func Incomplete(text string) bool {
	_, err := Split(text)
	return errors.Is(err, ErrIncomplete)
}
