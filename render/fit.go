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

// FitMiddle cuts a one-line text (a file or session name) to width cells
// by taking out its middle, "…" in its place: its start and its end, which
// tell names apart (a date, an id's last digits, ".jsonl"), are kept. It
// cuts between grapheme clusters, as Fit does.
func FitMiddle(s string, width int) string {
	w := ansi.StringWidth(s)
	if w <= width {
		return s
	}
	if width < 3 {
		return Fit(s, width)
	}
	head := ansi.Truncate(s, width/2, "")
	room := width - 1 - ansi.StringWidth(head) // for the end
	tail := ansi.TruncateLeft(s, w-room, "")
	for cut := w - room + 1; ansi.StringWidth(tail) > room && cut <= w; cut++ {
		tail = ansi.TruncateLeft(s, cut, "") // the cut fell inside a wide character: it was kept
	}
	return head + "…" + tail
}
