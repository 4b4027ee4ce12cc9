// Package render turns todo lists and tool output into text for a terminal:
// the boxed task panel, the plain list of the reference implementations, and
// the neutralising of untrusted text. It is pure functions of data to
// strings and knows nothing of Bubble Tea.
package render

import (
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// Sanitize makes untrusted text (todo content, messages that quote it) safe
// to draw on one line: newlines and tabs become spaces, other control
// characters become their visible Control Pictures (ESC is shown as ␛), C1
// controls, bidirectional overrides and invalid UTF-8 become U+FFFD. Nothing
// it returns can move the cursor, change colors or clear a screen.
func Sanitize(s string) string {
	if isPlain(s) {
		return s
	}
	return sanitize(s, false, false, false)
}

// SanitizeOutput makes a command's output safe to draw while keeping its
// lines: escape sequences (colors, cursor moves) are removed, CRLF and lone
// CR end lines, tabs become spaces up to the next multiple of eight columns
// (as a terminal's tab stops), and what remains is neutralised as by
// Sanitize.
func SanitizeOutput(s string) string {
	if isPlain(s) {
		return s
	}
	if strings.IndexByte(s, 0x1b) >= 0 || strings.Contains(s, "\u009b") {
		s = ansi.Strip(s)
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return sanitize(s, true, false, false)
}

// SanitizeOutputColors is SanitizeOutput keeping a command's colours and
// styles, as a terminal shows them: SGR sequences (ESC [ … m) pass, every
// other escape sequence (cursor moves, clearing, titles, the clipboard) is
// removed, and a reset ends text that set any.
func SanitizeOutputColors(s string) string {
	if isPlain(s) {
		return s
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	out := sanitize(s, true, true, false)
	if strings.IndexByte(out, 0x1b) >= 0 {
		out += "\x1b[0m"
	}
	return out
}

// SanitizeText makes untrusted text of several lines (a task's
// description, a tool's answer quoting it) safe to print as it is: newlines
// and tabs stay, every other control character is shown as its visible
// Control Picture — a carriage return as ␍, so nothing is drawn over, ESC
// as ␛ — and C1 controls, bidirectional overrides and invalid UTF-8 become
// U+FFFD.
func SanitizeText(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		start := i
		for i < len(s) && s[i] != '\n' && s[i] != '\t' {
			i++
		}
		b.WriteString(sanitizeControls(s[start:i]))
		if i < len(s) {
			b.WriteByte(s[i])
			i++
		}
	}
	return b.String()
}

// sanitizeControls is Sanitize for text without newlines or tabs, showing
// a carriage return as ␍ (Sanitize makes it a space).
func sanitizeControls(s string) string {
	if isPlain(s) {
		return s
	}
	return sanitize(s, false, false, true)
}

// escape measures the escape sequence at the start of s (which begins
// with ESC): its length, and whether it is SGR (colours and styles only).
// An unterminated sequence runs to the end of s.
func escape(s string) (n int, sgr bool) {
	if len(s) < 2 {
		return len(s), false
	}
	switch s[1] {
	case '[':
		for i := 2; i < len(s); i++ {
			c := s[i]
			switch {
			case c >= 0x40 && c <= 0x7e:
				return i + 1, c == 'm' && plainParams(s[2:i])
			case c < 0x20 || c > 0x7e:
				return i, false // not a sequence: stop before it
			}
		}
		return len(s), false
	case ']', 'P', 'X', '^', '_':
		for i := 2; i < len(s); i++ {
			if s[i] == 0x07 {
				return i + 1, false
			}
			if s[i] == 0x1b {
				return min(i+2, len(s)), false
			}
		}
		return len(s), false
	case '(', ')', '*', '+', '-', '.', '/', '#', '%', ' ':
		return min(3, len(s)), false
	}
	return 2, false
}

// plainParams reports whether CSI parameters are digits, ';' and ':' only.
func plainParams(p string) bool {
	for i := 0; i < len(p); i++ {
		if c := p[i]; (c < '0' || c > '9') && c != ';' && c != ':' {
			return false
		}
	}
	return true
}

// isPlain reports whether s is printable ASCII, and newlines.
func isPlain(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < 0x20 && c != '\n') || c >= 0x7f {
			return false
		}
	}
	return strings.IndexByte(s, '\n') < 0
}

// tabStop is the distance between a terminal's tab stops.
const tabStop = 8

// tabSpaces are enough spaces for one tab.
const tabSpaces = "        "

// sanitize neutralises s; keepLines keeps its lines (else newlines and CRs
// become spaces), keepSGR its colours, showCR shows a carriage return as ␍.
func sanitize(s string, keepLines, keepSGR, showCR bool) string {
	var b strings.Builder
	b.Grow(len(s) + 8)
	col := 0 // the column of the next character, for tabs
	for i := 0; i < len(s); {
		c := s[i]
		if c == 0x1b && keepSGR {
			n, sgr := escape(s[i:])
			if sgr {
				b.WriteString(s[i : i+n])
			}
			i += n
			continue
		}
		if c < utf8.RuneSelf {
			col = sanitizeASCII(&b, c, col, keepLines, showCR)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if hiddenRune(r, size) {
			b.WriteRune(utf8.RuneError)
			col++
		} else {
			b.WriteString(s[i : i+size])
			if keepLines {
				col += ansi.StringWidth(s[i : i+size])
			}
		}
		i += size
	}
	return b.String()
}

// sanitizeASCII writes the ASCII byte c, at column col, as sanitize
// does, and returns the column after it.
func sanitizeASCII(b *strings.Builder, c byte, col int, keepLines, showCR bool) int {
	switch {
	case c == '\r' && showCR:
		b.WriteRune(0x240d)
	case c == '\n' || c == '\r':
		if keepLines {
			b.WriteByte('\n')
		} else {
			b.WriteByte(' ')
		}
		return 0
	case c == '\t':
		if keepLines {
			n := tabStop - col%tabStop
			b.WriteString(tabSpaces[:n])
			return col + n
		}
		b.WriteByte(' ')
	case c < 0x20:
		b.WriteRune(0x2400 + rune(c))
	case c == 0x7f:
		b.WriteRune(0x2421)
	default:
		b.WriteByte(c)
	}
	return col + 1
}

// hiddenRune reports whether the rune r, size bytes of UTF-8, is one that
// sanitize replaces with U+FFFD: invalid UTF-8, a C1 control, or a
// bidirectional embedding, override or isolate.
func hiddenRune(r rune, size int) bool {
	return r == utf8.RuneError && size == 1 ||
		r >= 0x80 && r <= 0x9f ||
		r >= 0x202a && r <= 0x202e ||
		r >= 0x2066 && r <= 0x2069
}
