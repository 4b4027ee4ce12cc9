package render

import (
	"strconv"
	"unicode"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// Terminals disagree on how many cells some text takes. A terminal that
// measures by grapheme cluster (mode 2027: ghostty, WezTerm, contour) draws
// 👨‍👩‍👧 in two cells, as ansi.StringWidth counts; tmux 3.3 joins a ZWJ
// sequence into two cells but gives a skin-tone modifier two more (👍🏽 is
// four) and ignores the emoji variation selector (❤️ is one); xterm.js and
// others that measure code point by code point draw the family's emoji side
// by side, and give a Devanagari spacing mark (the ि of कि) a cell of its
// own. The panel keeps what the user wrote — no code point is left out —
// and keeps its right border in place wherever the text ends: rows that
// hold such text are measured by the most cells any of these terminals
// gives them (cellsBound), and their border is drawn at its column
// (anchor), not after a count of spaces. Where the terminal measures by
// grapheme cluster (Styles.Graphemes), the count is exact and the rows are
// drawn as any other.

// unsure reports whether terminals may disagree on the width of s: it
// holds an emoji, a joiner or a variation selector, a symbol that has an
// emoji form, or a cluster whose code points' widths add up to other than
// its width as one (a spacing mark).
func unsure(s string) bool {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii {
		return false
	}
	for s != "" {
		cluster, w := ansi.FirstGraphemeCluster(s, ansi.GraphemeWidth)
		if cluster == "" {
			return false
		}
		if unsureCluster(cluster, w) {
			return true
		}
		s = s[len(cluster):]
	}
	return false
}

// unsureCluster reports whether terminals may disagree on the width of
// one grapheme cluster w cells wide by grapheme.
func unsureCluster(c string, w int) bool {
	r, size := utf8.DecodeRuneInString(c)
	if size == len(c) {
		return !sureRune(r)
	}
	if ansi.WcWidth.StringWidth(c) != w {
		return true
	}
	for _, r := range c {
		if !sureRune(r) && !unicode.Is(unicode.Mn, r) {
			return true
		}
	}
	return false
}

// sureRune reports whether every terminal gives r the width
// ansi.StringWidth does: the narrow scripts, general punctuation, arrows,
// box drawing and geometric shapes (the panel's own ✓ ● ○ … ▸), and the
// East Asian wide scripts; not emoji, the symbols and dingbats that have an
// emoji form (U+2600 to U+27BF, but ✓ and ✗), joiners and variation
// selectors.
func sureRune(r rune) bool {
	switch {
	case r < 0x1100, r >= 0x2010 && r < 0x2600, r == '✓', r == '✗':
		return true
	case r >= 0x1100 && r <= 0x115f, r >= 0x2e80 && r <= 0xa4cf, r >= 0xac00 && r <= 0xd7a3,
		r >= 0xf900 && r <= 0xfaff, r >= 0xff00 && r <= 0xff60, r >= 0xffe0 && r <= 0xffe6,
		r >= 0x20000 && r <= 0x3fffd:
		return true
	}
	return false
}

// cellsBound is the most cells a terminal may draw s in: for each grapheme
// cluster, the larger of its width as one cluster and the sum of its code
// points' widths.
func cellsBound(s string) int {
	if !unsure(s) {
		return ansi.StringWidth(s)
	}
	n := 0
	for s != "" {
		cluster, w := ansi.FirstGraphemeCluster(s, ansi.GraphemeWidth)
		if cluster == "" {
			break
		}
		n += max(w, ansi.WcWidth.StringWidth(cluster))
		s = s[len(cluster):]
	}
	return n
}

// truncateBound cuts s to at most width cells by cellsBound, ending it with
// tail, between grapheme clusters.
func truncateBound(s string, width int, tail string) string {
	if cellsBound(s) <= width {
		return s
	}
	room := width - ansi.StringWidth(tail)
	n, end := 0, 0
	for rest := s; rest != ""; {
		cluster, w := ansi.FirstGraphemeCluster(rest, ansi.GraphemeWidth)
		if cluster == "" {
			break
		}
		w = max(w, ansi.WcWidth.StringWidth(cluster))
		if n+w > room {
			break
		}
		n += w
		end += len(cluster)
		rest = rest[len(cluster):]
	}
	return s[:end] + tail
}

// anchor moves the cursor to column col (0 is the first) of its row.
func anchor(col int) string { return "\x1b[" + strconv.Itoa(col+1) + "G" }
