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
// backslash-newline joins two lines; a '#' that starts a word starts a
// comment that runs to the end of the line. Newlines outside quotes separate
// words.
func Split(text string) ([]string, error) {
	var (
		words []string
		w     word
	)
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch c {
		case ' ', '\t', '\n', '\r':
			words = w.end(words)
		case '\\':
			if i+1 >= len(text) {
				return nil, ErrIncomplete
			}
			i++
			if text[i] != '\n' { // backslash-newline joins lines
				w.add(text[i : i+1])
			}
		case '\'':
			end := strings.IndexByte(text[i+1:], '\'')
			if end < 0 {
				return nil, ErrIncomplete
			}
			w.add(text[i+1 : i+1+end])
			i += 1 + end
		case '"':
			j, ok := doubleQuoted(&w, text, i+1)
			if !ok {
				return nil, ErrIncomplete
			}
			i = j
		case '#':
			if w.pieces == 0 { // a comment, to the end of the line
				if end := strings.IndexByte(text[i:], '\n'); end >= 0 {
					i += end - 1
				} else {
					i = len(text)
				}
				continue
			}
			w.add("#")
		default:
			j := i + 1
			for j < len(text) && !strings.ContainsRune(" \t\n\r\\'\"", rune(text[j])) {
				j++
			}
			w.add(text[i:j])
			i = j - 1
		}
	}
	return w.end(words), nil
}

// word collects the pieces of one word; a word of one piece (the usual
// quoted argument) is a substring of the text, not a copy.
type word struct {
	pieces int
	first  string
	b      strings.Builder
}

func (w *word) add(piece string) {
	switch w.pieces {
	case 0:
		w.first = piece
	case 1:
		w.b.WriteString(w.first)
		fallthrough
	default:
		w.b.WriteString(piece)
	}
	w.pieces++
}

func (w *word) end(words []string) []string {
	switch w.pieces {
	case 0:
		return words
	case 1:
		words = append(words, w.first)
	default:
		words = append(words, w.b.String())
	}
	*w = word{}
	return words
}

// doubleQuoted adds the body of a double-quoted string starting at i to w
// and returns the index of the closing quote.
func doubleQuoted(w *word, text string, i int) (int, bool) {
	start := i
	w.add("") // a quoted word exists even when empty
	for ; i < len(text); i++ {
		switch text[i] {
		case '"':
			w.add(text[start:i])
			return i, true
		case '\\':
			if i+1 >= len(text) {
				return i, false
			}
			switch n := text[i+1]; n {
			case '$', '`', '"', '\\':
				w.add(text[start:i])
				w.add(text[i+1 : i+2])
				i++
				start = i + 1
			case '\n':
				w.add(text[start:i])
				i++
				start = i + 1
			}
		}
	}
	return i, false
}

// Incomplete reports whether text ends inside a quote or after a backslash,
// so a front end should read another line and join it with a newline.
// It scans without building words; FuzzSplit checks it agrees with Split.
// A front end adding line after line uses a Scanner instead.
func Incomplete(text string) bool {
	var s Scanner
	s.Write(text)
	return s.Incomplete()
}

// Waiting tells what a bash line typed so far waits for before it can run
// (see Scanner.Waiting), here-documents included; "" when it is complete.
func Waiting(text string) string {
	s := Scanner{Heredocs: true}
	s.Write(text)
	return s.Waiting()
}

// Commands splits a multi-line text (a paste) into the commands it holds,
// as bash reads a paste line by line: a line with an open quote, a trailing
// backslash or a here-document goes on until it is complete. An agent
// command or a builtin is a command of its own; the bash lines between them
// stay one command (bash knows where its compound commands end), in order.
func Commands(text string, names ToolNames) []string {
	if !strings.Contains(text, "\n") {
		return []string{text}
	}
	var (
		out  []string
		bash []string // bash units not yet added
		unit []string // the lines of the unit being read
	)
	flush := func() {
		if len(bash) > 0 {
			out = append(out, strings.Join(bash, "\n"))
			bash = nil
		}
	}
	s := Scanner{Heredocs: true}
	for _, line := range strings.Split(text, "\n") {
		s.Line(line)
		unit = append(unit, line)
		if s.Waiting() != "" {
			continue
		}
		u := strings.Join(unit, "\n")
		unit = nil
		s.Reset()
		switch Classify(u, names).Kind {
		case Agent, Builtin:
			flush()
			out = append(out, u)
		case Empty: // bash skips a blank line
		default:
			bash = append(bash, u)
		}
	}
	if len(unit) > 0 { // incomplete at the end: bash says so
		bash = append(bash, strings.Join(unit, "\n"))
	}
	flush()
	if len(out) == 0 {
		return []string{text}
	}
	return out
}
