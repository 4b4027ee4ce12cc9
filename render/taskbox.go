package render

import (
	"math"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/todo-shell/todo-shell/tools/todo"
)

// Status icons of the task box.
const (
	IconDone    = "✓"
	IconActive  = "●"
	IconPending = "○"
)

// minBoxWidth is the narrowest box TaskBox draws; narrower widths are
// raised to it.
const minBoxWidth = 12

// TaskBox draws the list as a rounded box titled "Tasks done/total", one row
// per item: "✓ content" (completed), "● activeForm" (in progress), "○
// content" (pending). width is the box's whole width in terminal cells; rows
// that do not fit are cut with "…" and the frame stays whole. An empty list
// draws nothing.
func TaskBox(snap todo.Snapshot, width int, st *Styles) string {
	return TaskBoxIn(snap, width, 0, st)
}

// TaskBoxIn is TaskBox in at most height rows (0 means no limit): when the
// list does not fit it is collapsed by Collapse — the title with its counts
// always, the items in progress always, the items around them, and summary
// rows ("✓ 12 completed", "… 25 more pending") for the rest. In 1 or 2 rows,
// where no box fits, it is one line, TaskBoxLine; below 1, nothing.
func TaskBoxIn(snap todo.Snapshot, width, height int, st *Styles) string {
	if len(snap.Items) == 0 || height < 0 {
		return ""
	}
	if height > 0 && height < 3 {
		return TaskBoxLine(snap, width, st)
	}
	if width < minBoxWidth {
		width = minBoxWidth
	}
	done, _, _ := snap.Counts()
	rows := len(snap.Items)
	var fitted []Row
	if height > 0 && rows+2 > height {
		fitted = Collapse(snap.Items, height-2)
		rows = len(fitted)
	}

	w := boxWriter{inner: width - 4, side: st.border.apply("│"), st: st} // "│ " and " │"
	w.b.Grow((width + 16) * (rows + 2) * 2)
	w.title(done, len(snap.Items), width)
	if fitted == nil {
		for _, it := range snap.Items {
			w.item(it, "")
		}
	} else {
		for _, r := range fitted {
			if r.Summary != "" {
				w.row(r.Summary, st.done)
			} else {
				w.item(snap.Items[r.Item], r.More)
			}
		}
	}
	w.b.WriteString(st.border.apply("╰" + strings.Repeat("─", width-2) + "╯"))
	return w.b.String()
}

// boxWriter writes the rows of a task box.
type boxWriter struct {
	b     strings.Builder
	inner int    // the width inside the frame and its padding
	side  string // the frame's side, painted
	st    *Styles
}

// title writes the top of the frame, "╭─ Tasks 1/3 ───╮", width cells wide;
// the counts, then the label, give way when it is too narrow.
func (w *boxWriter) title(done, total, width int) {
	st := w.st
	label := " Tasks "
	tally := strconv.Itoa(done) + "/" + strconv.Itoa(total) + " "
	room := width - 3 // "╭─" and "╮"
	if ansi.StringWidth(label)+ansi.StringWidth(tally) > room {
		tally = ""
	}
	if ansi.StringWidth(label) > room {
		label = ansi.Truncate(label, room, "")
	}
	fill := room - ansi.StringWidth(label) - ansi.StringWidth(tally)
	w.b.WriteString(st.border.apply("╭─"))
	w.b.WriteString(st.title.apply(label))
	w.b.WriteString(st.count.apply(tally))
	w.b.WriteString(st.border.apply(strings.Repeat("─", fill) + "╮"))
	w.b.WriteByte('\n')
}

// row writes one row of text painted with p, cut with "…" to fit. A row
// whose width terminals disagree on (see cells.go) is cut by the most cells
// it may take, and its right border drawn at the border's column, however
// wide the terminal drew the text.
func (w *boxWriter) row(text string, p paint) {
	loose := w.st.Anchored && !w.st.Graphemes && unsure(text)
	if loose {
		text = truncateBound(text, w.inner, "…")
	} else if ansi.StringWidth(text) > w.inner {
		text = ansi.Truncate(text, w.inner, "…")
	}
	tw := ansi.StringWidth(text)
	w.b.WriteString(w.side)
	w.b.WriteByte(' ')
	w.b.WriteString(p.apply(text))
	w.b.WriteString(strings.Repeat(" ", max(w.inner-tw+1, 0)))
	if loose {
		w.b.WriteString(anchor(w.inner + 3))
	}
	w.b.WriteString(w.side)
	w.b.WriteByte('\n')
}

// item writes the row of an item: its status icon and its text, and
// more (a count of the items left out, see Row.More) after it, kept whole
// when the text must be cut.
func (w *boxWriter) item(it todo.Item, more string) {
	st := w.st
	icon, text, p := IconPending, it.Content, st.pending
	switch it.Status {
	case todo.StatusCompleted:
		icon, p = IconDone, st.done
	case todo.StatusInProgress:
		icon, text, p = IconActive, it.ActiveForm, st.active
	}
	text = icon + " " + boxText(text)
	room := w.inner - ansi.StringWidth(more) - 1
	if more == "" || room < 4 {
		if more != "" { // too narrow for both: the count
			text = icon + " " + more
		}
		w.row(text, p)
		return
	}
	if ansi.StringWidth(text) > room {
		text = ansi.Truncate(text, room, "…")
	}
	tw := ansi.StringWidth(text) + 1 + ansi.StringWidth(more)
	w.b.WriteString(w.side)
	w.b.WriteByte(' ')
	w.b.WriteString(p.apply(text))
	w.b.WriteByte(' ')
	w.b.WriteString(st.done.apply(more))
	w.b.WriteString(strings.Repeat(" ", w.inner-tw+1))
	w.b.WriteString(w.side)
	w.b.WriteByte('\n')
}

// TaskBoxLine is the list in one line of at most width cells, for where a box
// does not fit: "Tasks 1/3 ▸ Doing X" — the first item in progress (its
// activeForm), else "next: " and the first pending one — cut with "…". An empty list, or
// a width under 1, draws nothing.
func TaskBoxLine(snap todo.Snapshot, width int, st *Styles) string {
	if len(snap.Items) == 0 || width < 1 {
		return ""
	}
	done, _, _ := snap.Counts()
	label, tally := "Tasks ", strconv.Itoa(done)+"/"+strconv.Itoa(len(snap.Items))
	what, p := "", st.pending
	for _, it := range snap.Items {
		if it.Status == todo.StatusInProgress {
			what, p = boxText(it.ActiveForm), st.active
			break
		}
	}
	if what == "" {
		for _, it := range snap.Items {
			if it.Status == todo.StatusPending {
				what = "next: " + boxText(it.Content)
				break
			}
		}
	}
	parts := []struct {
		text string
		p    paint
	}{{label, st.title}, {tally, st.count}}
	if what != "" {
		parts = append(parts, struct {
			text string
			p    paint
		}{" ▸ ", st.border}, struct {
			text string
			p    paint
		}{what, p})
	}
	total := 0
	for _, part := range parts {
		total += ansi.StringWidth(part.text)
	}
	left := width
	if total > width {
		left = width - 1 // for the "…"
	}
	var b strings.Builder
	last := st.title
	for _, part := range parts {
		w := ansi.StringWidth(part.text)
		if w <= left {
			b.WriteString(part.p.apply(part.text))
			left -= w
			last = part.p
			continue
		}
		if cut := ansi.Truncate(part.text, left, ""); cut != "" {
			b.WriteString(part.p.apply(cut))
			last = part.p
		}
		break
	}
	if total > width {
		b.WriteString(last.apply("…"))
	}
	return b.String()
}

// TaskBoxWidth is the narrowest width at which TaskBox shows every row and
// its title whole: the widest row plus the frame.
func TaskBoxWidth(snap todo.Snapshot) int {
	done, _, _ := snap.Counts()
	w := ansi.StringWidth(" Tasks "+strconv.Itoa(done)+"/"+strconv.Itoa(len(snap.Items))+" ") + 4
	for _, it := range snap.Items {
		text := it.Content
		if it.Status == todo.StatusInProgress {
			text = it.ActiveForm
		}
		w = max(w, cellsBound(boxText(text))+2+4)
	}
	return max(w, minBoxWidth)
}

// TaskBoxWidthIn is TaskBoxWidth for the box TaskBoxIn draws in at most
// height rows (0: no limit): wide enough for its summary rows as well, so
// that they are cut only where the terminal itself is narrower.
func TaskBoxWidthIn(snap todo.Snapshot, height int) int {
	if height > 0 && height < 3 { // one line: TaskBoxLine
		st := PlainStyles()
		return ansi.StringWidth(TaskBoxLine(snap, math.MaxInt, &st))
	}
	w := TaskBoxWidth(snap)
	if height >= 3 && len(snap.Items)+2 > height {
		for _, r := range Collapse(snap.Items, height-2) {
			switch {
			case r.Item < 0:
				w = max(w, ansi.StringWidth(r.Summary)+4)
			case r.More != "":
				it := snap.Items[r.Item]
				text := it.Content
				if it.Status == todo.StatusInProgress {
					text = it.ActiveForm
				}
				w = max(w, ansi.StringWidth(boxText(text))+2+1+ansi.StringWidth(r.More)+4)
			}
		}
	}
	return w
}

// Plain draws the list the way the reference implementations do:
//
//	[x] done item
//	[>] current item <- doing it
//	[ ] pending item
//
//	(1/3 completed)
//
// or "No todos." for an empty list. The item in progress shows its
// activeForm only when it differs from its content. Text is neutralised by
// Sanitize.
func Plain(snap todo.Snapshot) string {
	if len(snap.Items) == 0 {
		return "No todos."
	}
	var b strings.Builder
	for _, it := range snap.Items {
		switch it.Status {
		case todo.StatusCompleted:
			b.WriteString("[x] " + Sanitize(it.Content))
		case todo.StatusInProgress:
			b.WriteString("[>] " + Sanitize(it.Content))
			if it.ActiveForm != "" && it.ActiveForm != it.Content {
				b.WriteString(" <- " + Sanitize(it.ActiveForm))
			}
		default:
			b.WriteString("[ ] " + Sanitize(it.Content))
		}
		b.WriteByte('\n')
	}
	done, _, _ := snap.Counts()
	b.WriteString("\n(" + strconv.Itoa(done) + "/" + strconv.Itoa(len(snap.Items)) + " completed)")
	return b.String()
}

// boxText is an item's text for a row of the panel: Sanitize, and nothing
// left out (see cells.go for how rows whose width terminals disagree on
// keep the border in place).
func boxText(s string) string { return Sanitize(s) }
