package cmd

import (
	"bufio"
	"errors"
	"io"
)

// lineReader reads input lines without copying them when it can: a line is
// a view of the read buffer, valid only until the next call. serve and
// script mode finish with a line before reading the next, and whatever
// outlives a line (todo items, messages) is copied by its owner.
type lineReader struct {
	br   *bufio.Reader
	long []byte // a line longer than the buffer, assembled here
}

func newLineReader(r io.Reader) *lineReader {
	return &lineReader{br: bufio.NewReaderSize(r, 256<<10)}
}

// next returns the next line with its newline, if any. At the end of input
// it returns the last (possibly empty) piece and io.EOF.
func (l *lineReader) next() ([]byte, error) {
	b, err := l.br.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		l.long = append(l.long[:0], b...)
		for errors.Is(err, bufio.ErrBufferFull) {
			b, err = l.br.ReadSlice('\n')
			l.long = append(l.long, b...)
		}
		b = l.long
	}
	return b, err
}

// drained reports whether no input is waiting in the buffer: the moment to
// flush output.
func (l *lineReader) drained() bool { return l.br.Buffered() == 0 }
