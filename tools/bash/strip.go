package bash

import "io"

// StripWriter removes terminal escape sequences (colors, cursor moves,
// titles, clipboard writes) from a stream on its way to W, whatever the
// write boundaries: what a model reads and what an offload file keeps is
// plain text, colors cost a model tokens. Other bytes pass unchanged.
type StripWriter struct {
	W     io.Writer
	state stripState
	buf   []byte
}

type stripState uint8

const (
	stripText      stripState = iota
	stripEsc                  // after ESC
	stripEscArg               // after ESC ( and the like: one more byte
	stripCSI                  // in ESC [ … final byte
	stripString               // in ESC ] / P / X / ^ / _ … BEL or ESC \
	stripStringEsc            // an ESC inside a string
)

// Write strips p and writes the rest to W; it reports all of p written.
func (s *StripWriter) Write(p []byte) (int, error) {
	s.buf = s.buf[:0]
	for _, c := range p {
		switch s.state {
		case stripText:
			if c == 0x1b {
				s.state = stripEsc
				continue
			}
			s.buf = append(s.buf, c)
		case stripEsc:
			switch c {
			case '[':
				s.state = stripCSI
			case ']', 'P', 'X', '^', '_':
				s.state = stripString
			case '(', ')', '*', '+', '-', '.', '/', '#', '%', ' ':
				s.state = stripEscArg
			default:
				s.state = stripText
			}
		case stripEscArg:
			s.state = stripText
		case stripCSI:
			if c >= 0x40 && c <= 0x7e {
				s.state = stripText
			}
		case stripString:
			switch c {
			case 0x07:
				s.state = stripText
			case 0x1b:
				s.state = stripStringEsc
			}
		case stripStringEsc:
			s.state = stripText // ESC \ ends it; anything else ends it too
		}
	}
	if len(s.buf) > 0 {
		if _, err := s.W.Write(s.buf); err != nil {
			return 0, err
		}
	}
	return len(p), nil
}
