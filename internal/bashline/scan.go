package bashline

import (
	"errors"
	"fmt"
	"io"
	"iter"
	"strconv"
	"strings"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

// Scanner follows bash text as it arrives, line by line, as an interactive
// bash does: after each line it tells whether the text since the last
// complete command is complete, or waits for more (an open quote, a
// trailing backslash, a here-document's body, an if without its fi, a
// pipe at the end of the line…). It reads each byte once, so a script
// whose first line opens a quote that never closes costs one pass, not
// one per line. A line bash would reject (a syntax error) is complete: bash
// says what is wrong with it, and the Scanner starts afresh on the next
// line.
//
// The zero Scanner is ready. Call Close when done with it.
type Scanner struct {
	p      *syntax.Parser
	feed   *feed
	next   func() ([]*syntax.Stmt, error, bool)
	stop   func()
	unit   strings.Builder // the lines of the command being read
	lines  int             // lines in unit
	stmts  int             // statements parsed in the last unit
	open   bool            // unit is incomplete
	broken bool            // the parser hit an error: a new one starts next line
	// status is Status of the unit, when known: a line that cannot close
	// what the unit waits for (no ' inside '…', not the terminator of a
	// here-document) keeps it, so a long paste in an open quote is not
	// parsed again at each line.
	status *Status
}

// feed is the reader the parser reads: the lines added, each once.
type feed struct {
	buf []byte
	eof bool // closing: the input has ended
}

func (f *feed) Read(b []byte) (int, error) {
	if len(f.buf) == 0 && f.eof {
		return 0, io.EOF
	}
	if len(f.buf) == 0 {
		// The parser asks for more only when it has yielded for the
		// line before; never reached, but a read must not spin.
		return 0, errNoInput
	}
	n := copy(b, f.buf)
	f.buf = f.buf[n:]
	if len(f.buf) == 0 {
		f.buf = f.buf[:0:0]
	}
	return n, nil
}

var errNoInput = fmt.Errorf("bashline: the parser read past the line it was given")

func (s *Scanner) start() {
	s.p = newParser()
	s.feed = &feed{}
	s.next, s.stop = iter.Pull2(s.p.InteractiveSeq(s.feed))
	s.broken = false
}

// Line adds a line of text (without its newline) and reports whether the
// command it belongs to is still incomplete.
func (s *Scanner) Line(line string) bool {
	if s.next == nil || s.broken {
		s.Close()
		s.start()
	}
	keep := false
	if !s.open {
		s.unit.Reset()
		s.lines, s.stmts = 0, 0
		s.status = nil
	} else if s.status != nil {
		// After a backslash at the end of a line the next one may go on
		// with its word (a here-document's terminator, "<<\" then "EOF"):
		// the parser reads it.
		keep = keeps(*s.status, line) && !strings.HasSuffix(s.unit.String(), `\`)
		if !keep {
			s.status = nil
		}
	}
	if s.lines > 0 {
		s.unit.WriteByte('\n')
	}
	s.unit.WriteString(line)
	s.lines++
	s.feed.buf = append(s.feed.buf, line...)
	s.feed.buf = append(s.feed.buf, '\n')
	if keep {
		// The line cannot change what the text waits for: the parser
		// reads it later, with the lines after it, in one go.
		return true
	}
	var (
		stmts []*syntax.Stmt
		err   error
		ok    bool
	)
	for {
		stmts, err, ok = s.next()
		if !ok || err != nil || len(s.feed.buf) == 0 {
			break
		}
	}
	switch {
	case !ok || err != nil:
		// A syntax error: bash reports it; read the next line afresh.
		s.open, s.broken = false, true
		s.stmts = len(stmts)
	case s.p.Incomplete():
		s.open = true
		if s.status == nil {
			s.Status() // known from now on: the lines that keep it wait
		}
	default:
		s.open = false
		s.stmts = len(stmts)
	}
	return s.open
}

// Incomplete reports whether the text since the last complete command
// waits for more lines.
func (s *Scanner) Incomplete() bool { return s.open }

// Text is the command read so far: the lines since the last complete
// command, joined with newlines.
func (s *Scanner) Text() string { return s.unit.String() }

// Empty reports whether the last complete command held no command at all
// (blank lines, comments).
func (s *Scanner) Empty() bool { return !s.open && !s.broken && s.stmts == 0 }

// Status says what the incomplete command waits for; the zero Status when
// it is complete.
func (s *Scanner) Status() Status {
	if !s.open {
		return Status{}
	}
	if s.status == nil {
		st := status(s.unit.String())
		s.status = &st
	}
	return *s.status
}

// keeps reports whether a line added to text waiting as st leaves it
// waiting the same way. A line that is not valid UTF-8, or holds a NUL or
// a carriage return, never does: the parser treats those bytes apart even
// inside quotes and here-documents (an error, or the end of the input).
func keeps(st Status, line string) bool {
	if !utf8.ValidString(line) || strings.ContainsAny(line, "\x00\r") {
		return false
	}
	switch st.Wait {
	case WaitQuote:
		return !strings.Contains(line, "'")
	case WaitDquote:
		return !strings.ContainsAny(line, "\"`$\\")
	case WaitHeredoc:
		return strings.TrimLeft(line, "\t") != st.Delim && !strings.ContainsAny(line, "`$\\")
	}
	return false
}

// Reset forgets the text read so far.
func (s *Scanner) Reset() {
	s.Close()
	s.unit.Reset()
	s.lines, s.stmts, s.open, s.status = 0, 0, false, nil
}

// Close releases the parser.
func (s *Scanner) Close() {
	if s.stop != nil {
		// Let the parser reach the end of its input rather than stop it
		// midway: Parser.InteractiveSeq (mvdan.cc/sh v3.14.1) can call its
		// yield again after a stop, which panics in iter.Pull2. Lines it
		// has not read yet are not read at all.
		s.feed.buf, s.feed.eof = nil, true
		for range 64 {
			if _, _, ok := s.next(); !ok {
				break
			}
		}
		func() {
			defer func() { _ = recover() }() // the same bug, if the end never came
			s.stop()
		}()
	}
	s.p, s.feed, s.next, s.stop = nil, nil, nil, nil
}

// Wait is what an incomplete command waits for.
type Wait int

// What a command can wait for.
const (
	Complete      Wait = iota
	WaitQuote          // a ' to close
	WaitDquote         // a " to close
	WaitBackquote      // a ` to close
	WaitBackslash      // the line after a trailing backslash
	WaitHeredoc        // a here-document's terminator (Status.Delim)
	WaitMore           // the end of a construct (Status.What): fi, done, ), }, the command after | or &&…
)

// Status is what a command waits for, and where that began.
type Status struct {
	Wait  Wait
	Delim string // WaitHeredoc: the terminator line
	What  string // WaitMore: zsh's word for the open construct ("if", "pipe", "cmdsubst"), or ""
	Line  int    // the line (1-based, in the command) where the open quote or construct began
	Text  string // WaitMore: the parser's words for what is missing
}

// Check reads text as a front end reads typed lines: Complete when the last
// command in it is whole, else what it waits for.
func Check(text string) Status {
	var s Scanner
	defer s.Close()
	for _, l := range strings.Split(text, "\n") {
		s.Line(l)
	}
	return s.Status()
}

// Label says in a word or two what st waits for, as a continuation prompt
// shows it (zsh's words): "quote", "dquote", "bquote", "\\", "heredoc EOF",
// "if", "pipe"…; "" for a complete command.
func (st Status) Label() string {
	switch st.Wait {
	case WaitQuote:
		return "quote"
	case WaitDquote:
		return "dquote"
	case WaitBackquote:
		return "bquote"
	case WaitBackslash:
		return `\`
	case WaitHeredoc:
		return "heredoc " + st.Delim
	case WaitMore:
		if st.What == "" {
			return "more"
		}
		return st.What
	}
	return ""
}

// Problem says why an incomplete command can never run as it is (the
// input ended), naming the line where the open part began, the command's
// first line being line first; "" for a complete command.
func (st Status) Problem(first int) string {
	line := first + st.Line - 1
	switch st.Wait {
	case WaitQuote:
		return fmt.Sprintf("the single quote (') opened on line %d is never closed", line)
	case WaitDquote:
		return fmt.Sprintf(`the double quote (") opened on line %d is never closed`, line)
	case WaitBackquote:
		return fmt.Sprintf("the backquote (`) opened on line %d is never closed", line)
	case WaitBackslash:
		return fmt.Sprintf("a backslash ends line %d with nothing after it", line)
	case WaitHeredoc:
		return fmt.Sprintf("the here-document opened on line %d is never ended by a line %q", line, st.Delim)
	case WaitMore:
		return fmt.Sprintf("line %d: %s", line, st.Text)
	}
	return ""
}

// status reads what the incomplete text waits for from the parser's error
// on it as a whole script.
func status(text string) Status {
	_, err := Parse(text)
	var perr syntax.ParseError
	if !errors.As(err, &perr) {
		// The parser takes a backslash at the end of the text for a
		// plain byte; bash, reading lines, for a line continuation.
		lines := strings.Count(text, "\n") + 1
		if strings.HasSuffix(text, `\`) {
			return Status{Wait: WaitBackslash, Line: lines}
		}
		return Status{Wait: WaitMore, Line: lines, Text: "the command is not finished"}
	}
	st := Status{Line: int(perr.Pos.Line()), Text: perr.Text}
	msg := perr.Text
	switch {
	case strings.HasPrefix(msg, "unclosed here-document "):
		st.Wait, st.Delim = WaitHeredoc, heredocDelim(strings.TrimPrefix(msg, "unclosed here-document "))
	case strings.HasSuffix(msg, "without closing quote `'`"):
		st.Wait = WaitQuote
	case strings.HasSuffix(msg, "without closing quote `\"`"):
		st.Wait = WaitDquote
	case strings.HasSuffix(msg, "without closing quote \"`\""):
		st.Wait = WaitBackquote
	default:
		st.Wait, st.What = WaitMore, construct(msg)
	}
	return st
}

// heredocDelim is the terminator a parser error names: the parser quotes
// it as Go's %#q does, in backquotes or, when it holds a byte a backquoted
// string cannot (a control character, a backquote), as a double-quoted Go
// string ("\x01").
func heredocDelim(quoted string) string {
	if d, err := strconv.Unquote(quoted); err == nil {
		return d
	}
	return strings.Trim(quoted, "`")
}

// construct names the construct a parser error says is open, in zsh's
// words for its continuation prompts.
func construct(msg string) string {
	for _, c := range []struct{ token, name string }{
		{"`$((`", "math"}, {"`((`", "math"}, {"`$(`", "cmdsubst"}, {"`${`", "braceparam"},
		{"`[[`", "cond"}, {"`(`", "subsh"}, {"`{`", "cursh"},
		{"`||`", "cmdor"}, {"`|`", "pipe"}, {"`|&`", "pipe"}, {"`&&`", "cmdand"},
		{"`if`", "if"}, {"`then`", "then"}, {"`elif`", "then"}, {"`else`", "else"},
		{"`for", "for"}, {"`select", "select"}, {"`while`", "while"}, {"`until`", "until"}, {"`do`", "do"},
		{"`case`", "case"}, {"`in`", "case"}, {"`function`", "function"},
	} {
		if strings.Contains(msg, c.token) {
			return c.name
		}
	}
	return ""
}
