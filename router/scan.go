package router

import (
	"fmt"
	"strings"
)

// Scanner follows text as it arrives, line by line, to tell whether it ends
// inside a quote or after a backslash (Incomplete) — in time linear in the
// text: a front end that re-scanned the joined lines after every line would
// take time quadratic in them (a script whose first line opens a quote that
// never closes). It also remembers where the open quote began, for the
// message.
//
// The zero Scanner is ready; Reset makes it so again.
type Scanner struct {
	state    scanState
	midWord  bool // in stateWord: the next byte would continue a word
	started  bool // some text was added
	lines    int  // newlines seen
	open     byte // the quote (or backslash) that left the text incomplete
	openLine int  // the line (0-based) where it was
}

type scanState uint8

const (
	stateWord      scanState = iota // between or inside words
	stateEscape                     // after a backslash outside quotes
	stateSingle                     // inside '…'
	stateDouble                     // inside "…"
	stateDoubleEsc                  // after a backslash inside "…"
	stateComment                    // after a '#' that started a word
)

// Reset forgets all text.
func (s *Scanner) Reset() { *s = Scanner{} }

// Line adds a line of text (without its newline); from the second line on,
// the newline that joins it to the text before is added first. It reports
// whether the text so far is incomplete: Incomplete(all lines joined with
// "\n").
func (s *Scanner) Line(line string) bool {
	if s.started {
		s.Write("\n")
	}
	s.started = true
	s.Write(line)
	return s.Incomplete()
}

// Write adds raw text.
func (s *Scanner) Write(text string) {
	s.started = true
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch s.state {
		case stateWord:
			switch c {
			case ' ', '\t', '\r':
				s.midWord = false
			case '\n':
				s.midWord = false
				s.lines++
			case '#':
				if !s.midWord {
					s.state = stateComment
				} else {
					s.midWord = true
				}
			case '\\':
				s.opened(stateEscape, c)
			case '\'':
				s.opened(stateSingle, c)
				// The quoted text, up to the closing quote, in one step.
				end := strings.IndexByte(text[i+1:], '\'')
				if end < 0 {
					s.lines += strings.Count(text[i+1:], "\n")
					return
				}
				s.lines += strings.Count(text[i+1:i+1+end], "\n")
				i += 1 + end
				s.state, s.midWord = stateWord, true
			case '"':
				s.opened(stateDouble, c)
			default:
				s.midWord = true
			}
		case stateEscape:
			if c == '\n' { // a line continuation joins, it does not start a word
				s.lines++
			} else {
				s.midWord = true
			}
			s.state = stateWord
		case stateSingle:
			end := strings.IndexByte(text[i:], '\'')
			if end < 0 {
				s.lines += strings.Count(text[i:], "\n")
				return
			}
			s.lines += strings.Count(text[i:i+end], "\n")
			i += end
			s.state, s.midWord = stateWord, true
		case stateDouble:
			switch c {
			case '\\':
				s.state = stateDoubleEsc
			case '"':
				s.state, s.midWord = stateWord, true
			case '\n':
				s.lines++
			}
		case stateDoubleEsc:
			if c == '\n' {
				s.lines++
			}
			s.state = stateDouble
		case stateComment:
			if end := strings.IndexByte(text[i:], '\n'); end >= 0 {
				i += end
				s.lines++
				s.state, s.midWord = stateWord, false
			} else {
				return
			}
		}
	}
}

func (s *Scanner) opened(state scanState, c byte) {
	s.state, s.open, s.openLine = state, c, s.lines
}

// Incomplete reports whether the text so far ends inside a quote or after a
// backslash.
func (s *Scanner) Incomplete() bool {
	switch s.state {
	case stateEscape, stateSingle, stateDouble, stateDoubleEsc:
		return true
	}
	return false
}

// Problem says why incomplete text is incomplete, naming the line where the
// open quote began, counting the text's first line as first; "" for
// complete text.
func (s *Scanner) Problem(first int) string {
	line := first + s.openLine
	switch s.state {
	case stateEscape:
		return fmt.Sprintf("a backslash ends line %d with nothing after it", line)
	case stateSingle:
		return fmt.Sprintf("the single quote (') opened on line %d is never closed", line)
	case stateDouble, stateDoubleEsc:
		return fmt.Sprintf(`the double quote (") opened on line %d is never closed`, line)
	}
	return ""
}
