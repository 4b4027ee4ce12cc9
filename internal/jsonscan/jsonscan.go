// Package jsonscan is a strict, allocation-light JSON scanner for the hot
// paths of todo-shell's tools. It accepts exactly the texts encoding/json
// accepts and decodes strings the same way (invalid UTF-8 and lone surrogates
// become U+FFFD), but it builds no generic values: callers walk objects and
// arrays with callbacks and take only what they need.
package jsonscan

import (
	"fmt"
	"math/bits"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// SyntaxError is a JSON syntax error at a byte offset of the input.
type SyntaxError struct {
	Offset int // byte offset where parsing failed
	Msg    string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("%s (at offset %d)", e.Msg, e.Offset)
}

// maxDepth matches encoding/json's nesting limit so both accept the same texts.
const maxDepth = 10000

// Decoder walks one JSON text held in a string.
type Decoder struct {
	s      string
	pos    int
	depth  int
	spaced bool // white space was skipped somewhere between tokens
	valid  bool // s is known to be valid JSON: strings are skipped unchecked
}

// Fail returns a SyntaxError at the current offset.
func (d *Decoder) Fail(format string, args ...any) error {
	return &SyntaxError{Offset: d.pos, Msg: fmt.Sprintf(format, args...)}
}

// WS skips white space.
func (d *Decoder) WS() {
	if d.pos < len(d.s) && d.s[d.pos] > ' ' {
		return // the usual case: no white space
	}
	for d.pos < len(d.s) {
		switch d.s[d.pos] {
		case ' ', '\t', '\n', '\r':
			d.pos++
			d.spaced = true
		default:
			return
		}
	}
}

// unexpected reports the byte at the current offset, or the end of input.
func (d *Decoder) unexpected(context string) error {
	if d.pos >= len(d.s) {
		return d.Fail("unexpected end of JSON input")
	}
	return d.Fail("invalid character %q %s", d.s[d.pos], context)
}

// Object parses the object at the current offset, calling member for each
// key with the offset just after the colon; member must consume the value.
func (d *Decoder) Object(member func(key string) error) error {
	if empty, err := d.open('}'); empty || err != nil {
		return err
	}
	for {
		d.WS()
		if d.pos >= len(d.s) || d.s[d.pos] != '"' {
			return d.unexpected("looking for beginning of object key string")
		}
		key, err := d.String()
		if err != nil {
			return err
		}
		d.WS()
		if d.pos >= len(d.s) || d.s[d.pos] != ':' {
			return d.unexpected("after object key")
		}
		d.pos++
		if err := member(key); err != nil {
			return err
		}
		if done, err := d.next('}', "after object key:value pair"); done || err != nil {
			return err
		}
	}
}

// Array parses the array at the current offset, calling elem for each
// element; elem must consume it.
func (d *Decoder) Array(elem func() error) error {
	if empty, err := d.open(']'); empty || err != nil {
		return err
	}
	for {
		if err := elem(); err != nil {
			return err
		}
		if done, err := d.next(']', "after array element"); done || err != nil {
			return err
		}
	}
}

// open enters the object or array whose opening byte is at the current
// offset and reports whether it is empty: its closing byte, end, follows at
// once (and has been consumed).
func (d *Decoder) open(end byte) (empty bool, err error) {
	d.depth++
	if d.depth > maxDepth {
		return false, d.Fail("exceeded max depth")
	}
	d.pos++ // '{' or '['
	d.WS()
	if d.pos < len(d.s) && d.s[d.pos] == end {
		d.pos++
		d.depth--
		return true, nil
	}
	return false, nil
}

// next consumes what follows a member or an element: a comma (more follow)
// or the closing byte end (done, the container left). Anything else is an
// error, described as coming after what.
func (d *Decoder) next(end byte, after string) (done bool, err error) {
	d.WS()
	if d.pos < len(d.s) {
		switch d.s[d.pos] {
		case ',':
			d.pos++
			return false, nil
		case end:
			d.pos++
			d.depth--
			return true, nil
		}
	}
	return false, d.unexpected(after)
}

// Skip validates and consumes any value.
func (d *Decoder) Skip() error {
	d.WS()
	if d.pos >= len(d.s) {
		return d.Fail("unexpected end of JSON input")
	}
	switch c := d.s[d.pos]; {
	case c == '{':
		return d.Object(func(string) error { return d.Skip() })
	case c == '[':
		return d.Array(d.Skip)
	case c == '"':
		return d.skipString()
	case c == '-' || (c >= '0' && c <= '9'):
		return d.number()
	case c == 't':
		return d.literal("true")
	case c == 'f':
		return d.literal("false")
	case c == 'n':
		return d.literal("null")
	}
	return d.unexpected("looking for beginning of value")
}

func (d *Decoder) literal(lit string) error {
	for i := 0; i < len(lit); i++ {
		if d.pos >= len(d.s) || d.s[d.pos] != lit[i] {
			return d.unexpected("in literal " + lit)
		}
		d.pos++
	}
	return nil
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func (d *Decoder) digits() error {
	if d.pos >= len(d.s) || !isDigit(d.s[d.pos]) {
		return d.unexpected("in numeric literal")
	}
	for d.pos < len(d.s) && isDigit(d.s[d.pos]) {
		d.pos++
	}
	return nil
}

func (d *Decoder) number() error {
	if d.s[d.pos] == '-' {
		d.pos++
	}
	if d.pos < len(d.s) && d.s[d.pos] == '0' {
		d.pos++
	} else if err := d.digits(); err != nil {
		return err
	}
	if d.pos < len(d.s) && d.s[d.pos] == '.' {
		d.pos++
		if err := d.digits(); err != nil {
			return err
		}
	}
	if d.pos < len(d.s) && (d.s[d.pos] == 'e' || d.s[d.pos] == 'E') {
		d.pos++
		if d.pos < len(d.s) && (d.s[d.pos] == '+' || d.s[d.pos] == '-') {
			d.pos++
		}
		if err := d.digits(); err != nil {
			return err
		}
	}
	return nil
}

// skipString validates a string without decoding it: it fails where
// String fails, with the same error, and builds nothing. In a text known
// to be valid it only finds the closing quote.
func (d *Decoder) skipString() error {
	if d.valid {
		d.pos += 1 + rawLen(d.s, d.pos+1) // at the closing quote, or the end
		if d.pos >= len(d.s) {
			return d.Fail("unexpected end of JSON input")
		}
		d.pos++
		return nil
	}
	if _, plain, err := d.scanString(); err != nil || plain {
		return err
	}
	for i := d.pos + 1; ; {
		i = plainRun(d.s, i)
		if i >= len(d.s) {
			d.pos = i
			return d.Fail("unexpected end of JSON input")
		}
		switch c := d.s[i]; {
		case c == '"':
			d.pos = i + 1
			return nil
		case c < 0x20:
			d.pos = i
			return d.Fail("invalid character %q in string literal", c)
		case c == '\\':
			if i+1 < len(d.s) && strings.IndexByte(escapeLetters, d.s[i+1]) >= 0 {
				i += 2 // the usual case, checked here
				continue
			}
			var scratch [utf8.UTFMax]byte // the rune of a \u escape, dropped
			var err error
			if _, i, err = d.escape(scratch[:0], i); err != nil {
				return err
			}
		default: // not ASCII: invalid UTF-8 is taken (as U+FFFD)
			i++
		}
	}
}

// scanString finds the end of the string at d.pos. plain reports that it has
// no escapes, control characters or invalid UTF-8, so its text is
// d.s[start+1:end-1] as is; when plain is false d.pos is left unchanged.
func (d *Decoder) scanString() (end int, plain bool, err error) {
	i := d.pos + 1
	for {
		// Find the next byte that is '"', '\\', a control character or not
		// ASCII: eight bytes at a time, then the rest one by one.
		for i+8 <= len(d.s) {
			if m := specialMask(load64(d.s, i)); m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				break
			}
			i += 8
		}
		for i < len(d.s) && !isSpecial(d.s[i]) {
			i++
		}
		if i >= len(d.s) {
			d.pos = len(d.s)
			return 0, false, d.Fail("unexpected end of JSON input")
		}
		switch c := d.s[i]; {
		case c == '"':
			d.pos = i + 1
			return i + 1, true, nil
		case c == '\\' || c < 0x20:
			return 0, false, nil
		default: // not ASCII: valid UTF-8 keeps the string plain
			r, size := utf8.DecodeRuneInString(d.s[i:])
			if r == utf8.RuneError && size == 1 {
				return 0, false, nil
			}
			i += size
		}
	}
}

// plainRun returns the index of the first byte of s from i on that is
// '"', '\\', a control character or not ASCII (len(s) if none).
func plainRun(s string, i int) int {
	for i+8 <= len(s) {
		if m := specialMask(load64(s, i)); m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
		i += 8
	}
	for i < len(s) && !isSpecial(s[i]) {
		i++
	}
	return i
}

// rawLen is the length as written of the string whose text starts at
// s[i]: up to its closing quote (one not escaped), or to the end of s.
func rawLen(s string, i int) int {
	for j := i; ; {
		k := strings.IndexByte(s[j:], '"')
		if k < 0 {
			return len(s) - i
		}
		j += k
		n := 0
		for n < j-i && s[j-1-n] == '\\' {
			n++
		}
		if n%2 == 0 {
			return j - i
		}
		j++
	}
}

func isSpecial(c byte) bool { return c == '"' || c == '\\' || c < 0x20 || c >= utf8.RuneSelf }

const (
	lsb = 0x0101010101010101
	msb = 0x8080808080808080
)

// specialMask sets the high bit of bytes of w that are '"', '\\', a
// control character or not ASCII (the classic "has zero byte" and "has byte
// less than" tests). A borrow can flag a byte above a flagged one, never
// below, so the lowest bit set marks the first such byte exactly.
func specialMask(w uint64) uint64 {
	q := w ^ (lsb * '"')
	b := w ^ (lsb * '\\')
	return ((q-lsb)&^q | (b-lsb)&^b | (w-lsb*0x20)&^w | w) & msb
}

// load64 reads eight bytes of s little-endian; the compiler makes it one load.
func load64(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// String decodes the string at the current offset.
func (d *Decoder) String() (string, error) {
	start := d.pos
	end, plain, err := d.scanString()
	if err != nil {
		return "", err
	}
	if plain {
		return d.s[start+1 : end-1], nil
	}
	// Slow path: escapes, control characters or invalid UTF-8. The
	// buffer is made the size of the string as written, which escapes
	// only shrink (an invalid byte, made U+FFFD, grows it), and runs of
	// plain bytes are copied whole.
	i := d.pos + 1
	buf := make([]byte, 0, rawLen(d.s, i))
	for {
		j := plainRun(d.s, i)
		buf = append(buf, d.s[i:j]...)
		i = j
		if i >= len(d.s) {
			d.pos = i
			return "", d.Fail("unexpected end of JSON input")
		}
		c := d.s[i]
		switch {
		case c == '"':
			d.pos = i + 1
			return string(buf), nil
		case c < 0x20:
			d.pos = i
			return "", d.Fail("invalid character %q in string literal", c)
		case c == '\\':
			buf, i, err = d.escape(buf, i)
			if err != nil {
				return "", err
			}
		case c < utf8.RuneSelf:
			buf = append(buf, c)
			i++
		default:
			r, size := utf8.DecodeRuneInString(d.s[i:])
			if r == utf8.RuneError && size == 1 {
				buf = append(buf, "\uFFFD"...)
			} else {
				buf = append(buf, d.s[i:i+size]...)
			}
			i += size
		}
	}
}

// The one-letter escapes of a JSON string and what they stand for.
const (
	escapeLetters = "\"\\/bfnrt"
	escapeBytes   = "\"\\/\b\f\n\r\t"
)

// escape appends what the escape at d.s[i] (a backslash) stands for to buf
// and returns it with the index after the escape.
func (d *Decoder) escape(buf []byte, i int) ([]byte, int, error) {
	if i+1 >= len(d.s) {
		d.pos = i + 1
		return buf, i, d.Fail("unexpected end of JSON input")
	}
	e := d.s[i+1]
	i += 2
	if k := strings.IndexByte(escapeLetters, e); k >= 0 {
		return append(buf, escapeBytes[k]), i, nil
	}
	if e != 'u' {
		d.pos = i - 1
		return buf, i, d.Fail("invalid character %q in string escape code", e)
	}
	r, ok := hex4(d.s, i)
	if !ok {
		d.pos = i
		return buf, i, d.Fail("invalid character in \\u hexadecimal character escape")
	}
	i += 4
	if utf16.IsSurrogate(r) {
		// A pair makes one rune; a lone or broken half is U+FFFD.
		r2, ok := lowSurrogate(d.s, i)
		dec := utf8.RuneError
		if ok {
			dec = utf16.DecodeRune(r, r2)
		}
		if dec != utf8.RuneError {
			i += 6
		}
		r = dec
	}
	return utf8.AppendRune(buf, r), i, nil
}

func hex4(s string, i int) (rune, bool) {
	if i+4 > len(s) {
		return 0, false
	}
	var r rune
	for _, c := range []byte(s[i : i+4]) {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// lowSurrogate reads a `\uXXXX` escape at i, as encoding/json does when
// pairing a high surrogate: any well-formed escape is taken and decided on by
// utf16.DecodeRune.
func lowSurrogate(s string, i int) (rune, bool) {
	if i+6 > len(s) || s[i] != '\\' || s[i+1] != 'u' {
		return 0, false
	}
	return hex4(s, i+2)
}

// New returns a decoder at the start of s.
func New(s string) *Decoder { return &Decoder{s: s} }

// NewValid returns a decoder at the start of s, a text already checked
// (a value Raw returned, say): it walks s without checking it again, so
// reading a value nested deep costs one check, not one at each level.
// What it returns for a text that is not valid JSON is undefined (but it
// neither panics nor reads outside s).
func NewValid(s string) *Decoder { return &Decoder{s: s, valid: true} }

// Offset returns the current byte offset.
func (d *Decoder) Offset() int { return d.pos }

// Peek returns the next byte after white space, or 0 at the end.
func (d *Decoder) Peek() byte {
	d.WS()
	if d.pos >= len(d.s) {
		return 0
	}
	return d.s[d.pos]
}

// Kind is what a JSON value is, as far as its first byte tells. The zero
// Kind, KindAbsent, is no value at all (a field not given).
type Kind uint8

// The kinds of value.
const (
	KindAbsent Kind = iota
	KindString
	KindObject
	KindArray
	KindNull
	KindOther // a number or a bool, or not JSON (which consuming it reports)
)

// PeekKind returns the kind of the value at the current offset, consuming
// nothing but white space.
func (d *Decoder) PeekKind() Kind {
	switch d.Peek() {
	case '"':
		return KindString
	case '{':
		return KindObject
	case '[':
		return KindArray
	case 'n':
		return KindNull
	}
	return KindOther
}

// Raw consumes a value and returns its text.
func (d *Decoder) Raw() (string, error) {
	d.WS()
	start := d.pos
	err := d.Skip()
	return d.s[start:d.pos], err
}

// End checks that only white space is left.
func (d *Decoder) End() error {
	d.WS()
	if d.pos != len(d.s) {
		return d.Fail("invalid character %q after top-level value", d.s[d.pos])
	}
	return nil
}

// Compact checks that s is one JSON value and returns it without white
// space between tokens. A text with no such white space is returned as is.
func Compact(s string) (string, error) {
	d := New(s)
	if err := d.Skip(); err != nil {
		return "", err
	}
	if err := d.End(); err != nil {
		return "", err
	}
	if !d.spaced {
		return s, nil
	}
	out := make([]byte, 0, len(s))
	inString := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case inString:
			out = append(out, c)
			if c == '\\' && i+1 < len(s) {
				i++
				out = append(out, s[i])
			} else if c == '"' {
				inString = false
			}
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
		default:
			out = append(out, c)
			inString = c == '"'
		}
	}
	return string(out), nil
}
