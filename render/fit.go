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

// FitAround cuts a one-line text, before + match + after, to width cells
// so that match shows whole (a search's match far along a long line): the
// text around it is kept as room allows, as much before as after when both
// are long (more of one when the other is short), and a side cut short
// starts or ends with "…". A match too wide for the width shows its start,
// after "…" when text before it is left out. It cuts between grapheme
// clusters, as Fit does.
func FitAround(before, match, after string, width int) (string, string, string) {
	bw, mw, aw := ansi.StringWidth(before), ansi.StringWidth(match), ansi.StringWidth(after)
	if bw+mw+aw <= width {
		return before, match, after
	}
	if width <= 0 {
		return "", "", ""
	}
	spare := width - mw
	if spare <= 0 || (spare == 1 && bw > 0) {
		// No room beside the match: its start, marked as far along.
		lead := ""
		if bw > 0 && width > 1 {
			lead = "…"
		}
		return lead, Fit(match, width-ansi.StringWidth(lead)), ""
	}
	b := min(bw, max(spare/2, spare-aw)) // cells for the text before
	a := min(aw, spare-b)                // and after
	if b < bw {
		before = "…" + lastCells(before, b-1)
	}
	if a < aw {
		after = Fit(after, a) // "" for no room
	}
	return before, match, after
}

// lastCells is the end of s, at most n cells of it, cut between grapheme
// clusters.
func lastCells(s string, n int) string {
	w := ansi.StringWidth(s)
	if n <= 0 {
		return ""
	}
	if w <= n {
		return s
	}
	end := ansi.TruncateLeft(s, w-n, "")
	for cut := w - n + 1; ansi.StringWidth(end) > n && cut <= w; cut++ {
		end = ansi.TruncateLeft(s, cut, "") // the cut fell inside a wide character: it was kept
	}
	return end
}
