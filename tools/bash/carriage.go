package bash

import (
	"bytes"
	"io"
	"unicode/utf8"
)

// ApplyCarriageReturns returns s as a terminal would leave it: in each line,
// a carriage return moves back to the line's start and what follows
// overwrites what was there ("50%\r100%" is "100%", "abc\rX" is "Xbc"). A
// "\r\n" line end is a plain "\n". Progress output thus reads as its last
// state instead of one line per update.
func ApplyCarriageReturns(s string) string {
	if !containsCR(s) {
		return s
	}
	var out []byte
	var cells []rune
	for s != "" {
		line, rest, found := cutLine(s)
		out = appendOverwritten(out, line, &cells)
		if found {
			out = append(out, '\n')
		}
		s = rest
	}
	return string(out)
}

func containsCR(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == '\r' {
			return true
		}
	}
	return false
}

func cutLine(s string) (line, rest string, found bool) {
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}

// appendOverwritten appends one line (no "\n") with its carriage returns
// applied; cells is scratch space.
func appendOverwritten(dst []byte, line string, cells *[]rune) []byte {
	if !containsCR(line) {
		return append(dst, line...)
	}
	c := (*cells)[:0]
	col := 0
	for _, r := range line {
		if r == '\r' {
			col = 0
			continue
		}
		if col < len(c) {
			c[col] = r
		} else {
			c = append(c, r)
		}
		col++
	}
	*cells = c
	for _, r := range c {
		dst = utf8.AppendRune(dst, r)
	}
	return dst
}

// maxPendingLine bounds how much of an unfinished line CRWriter holds: a
// longer one is passed on as it is, so memory stays bounded whatever the
// command prints.
const maxPendingLine = 1 << 20

// CRWriter applies carriage returns (see ApplyCarriageReturns) to a stream
// on its way to W. Whole lines without a carriage return pass straight
// through; only the unfinished last line is held. Call Flush at the end.
type CRWriter struct {
	W       io.Writer
	pending []byte
	cells   []rune
	buf     []byte
}

// Write implements io.Writer.
func (c *CRWriter) Write(p []byte) (int, error) {
	n := len(p)
	last := bytes.LastIndexByte(p, '\n')
	if last < 0 {
		c.pending = append(c.pending, p...)
		if len(c.pending) > maxPendingLine {
			return n, c.Flush()
		}
		return n, nil
	}
	head, tail := p[:last+1], p[last+1:]
	if len(c.pending) > 0 {
		i := bytes.IndexByte(head, '\n')
		c.pending = append(c.pending, head[:i]...)
		c.buf = appendOverwritten(c.buf[:0], string(c.pending), &c.cells)
		c.buf = append(c.buf, '\n')
		c.pending = c.pending[:0]
		if _, err := c.W.Write(c.buf); err != nil {
			return n, err
		}
		head = head[i+1:]
	}
	if len(head) > 0 {
		if bytes.IndexByte(head, '\r') < 0 {
			if _, err := c.W.Write(head); err != nil {
				return n, err
			}
		} else {
			c.buf = []byte(ApplyCarriageReturns(string(head)))
			if _, err := c.W.Write(c.buf); err != nil {
				return n, err
			}
		}
	}
	c.pending = append(c.pending, tail...)
	return n, nil
}

// Flush passes on the unfinished last line.
func (c *CRWriter) Flush() error {
	if len(c.pending) == 0 {
		return nil
	}
	c.buf = appendOverwritten(c.buf[:0], string(c.pending), &c.cells)
	c.pending = c.pending[:0]
	_, err := c.W.Write(c.buf)
	return err
}
