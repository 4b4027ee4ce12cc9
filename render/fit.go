package render

import "github.com/charmbracelet/x/ansi"

// Fit cuts a one-line text (a title, a header) to width cells, ending it
// with "…" when it is cut. Widths are display widths, and the cut falls
// between grapheme clusters: never inside an emoji sequence or between a
// letter and its combining marks. Escape sequences are kept whole.
func Fit(s string, width int) string {
	if width <= 0 {
		return ""
	}
	if ansi.StringWidth(s) <= width {
		return s
	}
	return ansi.Truncate(s, width, "…")
}
