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
	return sanitize(s, false)
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
	return sanitize(s, true)
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

func sanitize(s string, keepLines bool) string {
	var b strings.Builder
	b.Grow(len(s) + 8)
	col := 0 // the column of the next character, for tabs
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '\n' || c == '\r':
				if keepLines {
					b.WriteByte('\n')
				} else {
					b.WriteByte(' ')
				}
				col = 0
			case c == '\t':
				if keepLines {
					n := tabStop - col%tabStop
					b.WriteString(tabSpaces[:n])
					col += n
				} else {
					b.WriteByte(' ')
					col++
				}
			case c < 0x20:
				b.WriteRune(0x2400 + rune(c))
				col++
			case c == 0x7f:
				b.WriteRune(0x2421)
				col++
			default:
				b.WriteByte(c)
				col++
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1,
			r >= 0x80 && r <= 0x9f,
			r >= 0x202a && r <= 0x202e,
			r >= 0x2066 && r <= 0x2069:
			b.WriteRune(utf8.RuneError)
			col++
		default:
			b.WriteString(s[i : i+size])
			if keepLines {
				col += ansi.StringWidth(s[i : i+size])
			}
		}
		i += size
	}
	return b.String()
}
