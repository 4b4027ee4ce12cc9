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
// With Heredocs set it also follows bash's here-documents (`cat <<'EOF'`):
// the text is incomplete from the end of the line that opens one until a
// line holding only its terminator.
//
// The zero Scanner is ready; Reset makes it so again (keeping Heredocs).
type Scanner struct {
	Heredocs bool // follow here-documents (bash lines), not only quotes

	state    scanState
	midWord  bool // in stateWord: the next byte would continue a word
	started  bool // some text was added
	lines    int  // newlines seen
	open     byte // the quote (or backslash) that left the text incomplete
	openLine int  // the line (0-based) where it was

	prev  byte        // in stateWord: the byte before, for << and (( ))
	arith int         // (( )) open around the text: << there is a shift
	here  heredocScan // the here-documents being read
}

// heredocScan follows here-documents: the ones announced on the current
// line, then the body being read.
type heredocScan struct {
	pending []heredoc // announced, in order; the first is being read
	word    []byte    // the delimiter word being collected
	quote   byte      // the quote open inside the delimiter word
	esc     bool      // a backslash inside the delimiter word
	strip   bool      // <<-: leading tabs of body lines are ignored
	started bool      // some of the delimiter word was seen
	line    []byte    // the start of the body line being read
	over    bool      // the body line is longer than any delimiter
	nonTab  bool      // the body line had a byte other than a leading tab
}

// heredoc is one announced here-document.
type heredoc struct {
	delim string
	strip bool // <<-
	line  int  // the line (0-based) that announced it
}

type scanState uint8

const (
	stateWord      scanState = iota // between or inside words
	stateEscape                     // after a backslash outside quotes
	stateSingle                     // inside '…'
	stateDouble                     // inside "…"
	stateDoubleEsc                  // after a backslash inside "…"
	stateComment                    // after a '#' that started a word
	stateHereOp                     // just after <<, before the delimiter
	stateHereWord                   // in a here-document's delimiter word
	stateHereBody                   // in a here-document's body
)

// Reset forgets all text.
func (s *Scanner) Reset() { *s = Scanner{Heredocs: s.Heredocs} }

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
	// Each step takes the index of the byte to read and returns the index
	// of the last byte it read; len(text) ends the text.
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch s.state {
		case stateWord:
			i = s.wordByte(text, i)
		case stateEscape:
			if c == '\n' { // a line continuation joins, it does not start a word
				s.lines++
			} else {
				s.midWord = true
			}
			s.state = stateWord
		case stateSingle:
			i = s.singleQuoted(text, i)
		case stateDouble:
			s.doubleQuotedByte(c)
		case stateDoubleEsc:
			if c == '\n' {
				s.lines++
			}
			s.state = stateDouble
		case stateComment:
			i = s.comment(text, i)
		case stateHereOp:
			if s.hereOp(c) {
				i-- // the delimiter word starts here
			}
		case stateHereWord:
			if s.hereWord(c) {
				s.state, s.midWord, s.prev = stateWord, false, 0
				i-- // the byte after the word is the line's again
			}
		case stateHereBody:
			s.hereBody(c)
		}
	}
}

// wordByte reads text[i] between or inside words.
func (s *Scanner) wordByte(text string, i int) int {
	c := text[i]
	prev := s.prev
	s.prev = c
	switch c {
	case ' ', '\t', '\r':
		s.midWord = false
	case '\n':
		s.midWord = false
		s.lines++
		s.startBody()
	case '<':
		if prev == '<' && s.Heredocs && s.arith == 0 {
			s.state, s.prev = stateHereOp, 0
			s.here.strip, s.here.started, s.here.word = false, false, s.here.word[:0]
		}
		s.midWord = true
	case '(':
		if prev == '(' {
			s.arith++
			s.prev = 0
		}
		s.midWord = true
	case ')':
		if prev == ')' && s.arith > 0 {
			s.arith--
			s.prev = 0
		}
		s.midWord = true
	case '#':
		if !s.midWord {
			s.state = stateComment
		}
	case '\\':
		s.opened(stateEscape, c)
	case '\'':
		s.opened(stateSingle, c)
		// The quoted text, up to the closing quote, in one step.
		return s.singleQuoted(text, i+1)
	case '"':
		s.opened(stateDouble, c)
	default:
		s.midWord = true
	}
	return i
}

// singleQuoted reads the quoted text from text[i] up to the closing quote.
func (s *Scanner) singleQuoted(text string, i int) int {
	end := strings.IndexByte(text[i:], '\'')
	if end < 0 {
		s.lines += strings.Count(text[i:], "\n")
		return len(text)
	}
	s.lines += strings.Count(text[i:i+end], "\n")
	s.state, s.midWord = stateWord, true
	return i + end
}

// doubleQuotedByte reads a byte inside "…".
func (s *Scanner) doubleQuotedByte(c byte) {
	switch c {
	case '\\':
		s.state = stateDoubleEsc
	case '"':
		s.state, s.midWord = stateWord, true
	case '\n':
		s.lines++
	}
}

// comment skips a comment from text[i] to the end of its line.
func (s *Scanner) comment(text string, i int) int {
	end := strings.IndexByte(text[i:], '\n')
	if end < 0 {
		return len(text)
	}
	s.lines++
	s.state, s.midWord = stateWord, false
	s.startBody()
	return i + end
}

// hereOp reads a byte just after <<; it reports the start of the
// delimiter word, which the byte is part of.
func (s *Scanner) hereOp(c byte) bool {
	switch c {
	case '<': // <<<: a here-string, not a here-document
		s.state = stateWord
	case '-':
		if s.here.strip {
			s.state = stateWord
		}
		s.here.strip = true
	case ' ', '\t':
	default:
		s.state = stateHereWord
		return true
	}
	return false
}

// hereWord adds a byte of a here-document's delimiter word; it reports the
// end of the word (the byte is not part of it). Quotes and backslashes in
// the word are removed, as bash does.
func (s *Scanner) hereWord(c byte) bool {
	h := &s.here
	switch {
	case h.esc:
		h.esc = false
	case h.quote != 0:
		if c == h.quote {
			h.quote = 0
			return false
		}
	case c == '\'':
		h.quote, h.started = c, true
		return false
	case c == '"':
		h.quote, h.started = c, true
		return false
	case c == '\\':
		h.esc, h.started = true, true
		return false
	case strings.IndexByte(" \t\n;&|<>()", c) >= 0:
		if h.started {
			h.pending = append(h.pending, heredoc{delim: string(h.word), strip: h.strip, line: s.lines})
		}
		return true
	}
	h.word = append(h.word, c)
	h.started = true
	return false
}

// startBody starts reading the bodies of the here-documents the line that
// just ended announced.
func (s *Scanner) startBody() {
	if len(s.here.pending) > 0 {
		s.state = stateHereBody
		s.here.line, s.here.over, s.here.nonTab = s.here.line[:0], false, false
	}
}

// hereBody adds a byte of a here-document's body.
func (s *Scanner) hereBody(c byte) {
	h := &s.here
	if c != '\n' {
		switch {
		case c == '\t' && !h.nonTab && h.pending[0].strip:
		case len(h.line) > len(h.pending[0].delim):
			h.over = true
		default:
			h.nonTab = true
			h.line = append(h.line, c)
		}
		return
	}
	s.lines++
	if h.ends() {
		h.pending = h.pending[1:]
	}
	h.line, h.over, h.nonTab = h.line[:0], false, false
	if len(h.pending) == 0 {
		s.state, s.midWord, s.prev = stateWord, false, 0
	}
}

// ends reports whether the body line read so far is the first pending
// here-document's terminator.
func (h *heredocScan) ends() bool {
	return !h.over && string(h.line) == h.pending[0].delim
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
	case stateHereBody:
		// The last line, its newline not typed yet, may be the last
		// terminator.
		return len(s.here.pending) != 1 || !s.here.ends()
	case stateHereWord:
		return s.here.quote != 0 || s.here.esc || s.here.started || len(s.here.pending) > 0
	case stateWord, stateComment:
		// The line announced a here-document: its body comes next.
		return len(s.here.pending) > 0
	}
	return false
}

// nextDelim is the terminator of the here-document read next.
func (s *Scanner) nextDelim() string {
	if len(s.here.pending) > 0 {
		return s.here.pending[0].delim
	}
	return string(s.here.word)
}

// Waiting says in a word or two what incomplete text waits for, as a
// continuation prompt shows it: "quote" (a ' is open), "dquote" (a "),
// "heredoc EOF" (the terminator EOF), "\\" (a trailing backslash); "" for
// complete text.
func (s *Scanner) Waiting() string {
	if !s.Incomplete() {
		return ""
	}
	switch s.state {
	case stateEscape:
		return "\\"
	case stateSingle:
		return "quote"
	case stateDouble, stateDoubleEsc:
		return "dquote"
	case stateHereWord:
		switch {
		case s.here.quote == '"':
			return "dquote"
		case s.here.quote != 0:
			return "quote"
		case s.here.esc:
			return "\\"
		}
	}
	return "heredoc " + s.nextDelim()
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
	case stateHereBody, stateHereWord, stateWord, stateComment:
		if s.Incomplete() {
			opened := s.lines
			if len(s.here.pending) > 0 {
				opened = s.here.pending[0].line
			}
			return fmt.Sprintf("the here-document opened on line %d is never ended by a line %q", first+opened, s.nextDelim())
		}
	}
	return ""
}
