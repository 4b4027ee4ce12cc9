package headless

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// errLineTooLong is returned for a line longer than lineReader.max; the
// line was read to its end and dropped.
var errLineTooLong = errors.New("line too long")

// lineReader reads input lines without copying them when it can: a line is
// a view of the read buffer, valid only until the next call. serve and
// script mode finish with a line before reading the next, and whatever
// outlives a line (todo items, messages) is copied by its owner.
type lineReader struct {
	br   *bufio.Reader
	long []byte // a line longer than the buffer, assembled here
	max  int    // longest line kept; 0 for no limit
	eof  bool   // the input ended inside a line too long to keep
}

func newLineReader(r io.Reader) *lineReader {
	return &lineReader{br: bufio.NewReaderSize(r, 256<<10)}
}

// next returns the next line with its newline, if any. At the end of input
// it returns the last (possibly empty) piece and io.EOF. A line longer than
// max is skipped to its end without being held: next then returns an empty
// line and errLineTooLong.
func (l *lineReader) next() ([]byte, error) {
	if l.eof {
		return nil, io.EOF
	}
	if cap(l.long) > keepLong {
		l.long = nil // do not keep a huge line's buffer for the lines after it
	}
	b, err := l.br.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		// A line longer than the buffer: keep it in pieces (no growing
		// buffer copied again and again), join them once it is whole, and
		// drop them as soon as the line passes max.
		pieces := [][]byte{bytes.Clone(b)}
		total := len(b)
		for errors.Is(err, bufio.ErrBufferFull) {
			b, err = l.br.ReadSlice('\n')
			total += len(b)
			if l.max > 0 && total > l.max {
				for errors.Is(err, bufio.ErrBufferFull) {
					_, err = l.br.ReadSlice('\n')
				}
				l.eof = errors.Is(err, io.EOF)
				if err == nil || l.eof {
					err = errLineTooLong
				}
				return nil, err
			}
			pieces = append(pieces, bytes.Clone(b))
		}
		l.long = bytes.Join(pieces, nil)
		b = l.long
	}
	if l.max > 0 && len(b) > l.max {
		if errors.Is(err, io.EOF) {
			l.eof = true
			err = nil
		}
		if err == nil {
			err = errLineTooLong
		}
		return nil, err
	}
	return b, err
}

// keepLong is the largest buffer of a long line kept for the next one.
const keepLong = 1 << 20

// drained reports whether no input is waiting in the buffer: the moment to
// flush output.
func (l *lineReader) drained() bool { return l.br.Buffered() == 0 }
