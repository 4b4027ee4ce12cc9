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
			w.item(it)
		}
	} else {
		for _, r := range fitted {
			if r.Summary != "" {
				w.row(r.Summary, st.done)
			} else {
				w.item(snap.Items[r.Item])
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

// item writes the row of an item: its status icon and its text.
func (w *boxWriter) item(it todo.Item) {
	st := w.st
	icon, text, p := IconPending, it.Content, st.pending
	switch it.Status {
	case todo.StatusCompleted:
		icon, p = IconDone, st.done
	case todo.StatusInProgress:
		icon, text, p = IconActive, it.ActiveForm, st.active
	}
	w.row(icon+" "+boxText(text), p)
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
			if r.Item < 0 {
				w = max(w, ansi.StringWidth(r.Summary)+4)
			}
		}
	}
	return w
}

// Row is one row of a collapsed list: an item (its index in the list) or,
// when Summary is set, a summary of the items left out.
type Row struct {
	Item    int
	Summary string
}

// Collapse chooses at most rows rows to show a list in. A list that fits is
// shown whole. Otherwise every item in progress is kept before anything
// else: the run from the first item in progress to the last (or, with no
// item in progress, the first pending one, else the last item) is always
// shown, with the items around it (about a third of the room before it, the
// rest after), and each run of items left out above or below becomes one
// summary row: "✓ 12 completed", "… 25 more pending", or with mixed
// statuses "… 7 more above (5 completed, 2 pending)". When that run is
// longer than the room, the items in progress alone are shown, as many as
// fit with a summary row for each run between them. With no room at all
// (rows < 1) it returns nil.
func Collapse(items []todo.Item, rows int) []Row {
	n := len(items)
	if rows < 1 || n == 0 {
		return nil
	}
	if n <= rows {
		out := make([]Row, n)
		for i := range out {
			out[i].Item = i
		}
		return out
	}
	var active []int
	for i, it := range items {
		if it.Status == todo.StatusInProgress {
			active = append(active, i)
		}
	}
	a0, a1 := focus(items, active)
	span := a1 - a0 + 1
	if span > rows {
		return collapseActive(items, active, rows)
	}
	start, end := collapseWindow(a0, a1, n, rows)
	out := make([]Row, 0, rows)
	if start > 0 && len(out) < rows-(end-start) {
		out = append(out, Row{Item: -1, Summary: summary(items[:start], "above")})
	}
	for i := start; i < end; i++ {
		out = append(out, Row{Item: i})
	}
	if end < n && len(out) < rows {
		out = append(out, Row{Item: -1, Summary: summary(items[end:], "below")})
	}
	return out
}

// focus returns the run of items Collapse always shows: from the first
// item in progress to the last (active) or, with none, the first pending
// one, else the last item.
func focus(items []todo.Item, active []int) (a0, a1 int) {
	if len(active) > 0 {
		return active[0], active[len(active)-1]
	}
	for i, it := range items {
		if it.Status == todo.StatusPending {
			return i, i
		}
	}
	return len(items) - 1, len(items) - 1
}

// collapseWindow returns the items [start, end) of n that Collapse shows
// around the run a0..a1 in rows rows: the widest window, about a third of
// it before the run, that leaves room for a summary row on each side with
// items left out.
func collapseWindow(a0, a1, n, rows int) (start, end int) {
	span := a1 - a0 + 1
	start, end = a0, a1+1
	for w := rows; w >= span; w-- {
		start = max(min(a0-(w-span)/3, n-w), 0)
		end = start + w
		used := w
		if start > 0 {
			used++
		}
		if end < n {
			used++
		}
		if used <= rows {
			break
		}
	}
	return start, end
}

// collapseActive shows the items in progress alone (too far apart to show
// what lies between them), as many as fit in rows with a summary row for
// each run left out between them, and the runs above and below summarised
// when there is room.
func collapseActive(items []todo.Item, active []int, rows int) []Row {
	var mid []Row
	for j, i := range active {
		need := 1
		if j > 0 && i > active[j-1]+1 {
			need++ // the run left out between
		}
		if j > 0 && len(mid)+need > rows {
			break
		}
		if need == 2 {
			mid = append(mid, Row{Item: -1, Summary: summary(items[active[j-1]+1:i], "between")})
		}
		mid = append(mid, Row{Item: i})
	}
	var out []Row
	if first := active[0]; first > 0 && len(mid) < rows {
		out = append(out, Row{Item: -1, Summary: summary(items[:first], "above")})
	}
	out = append(out, mid...)
	if last := mid[len(mid)-1].Item; last < len(items)-1 && len(out) < rows {
		out = append(out, Row{Item: -1, Summary: summary(items[last+1:], "below")})
	}
	return out
}

// summary describes items left out of a collapsed list.
func summary(items []todo.Item, where string) string {
	s := todo.Snapshot{Items: items}
	done, active, pending := s.Counts()
	n := strconv.Itoa(len(items))
	switch len(items) {
	case done:
		return IconDone + " " + n + " completed"
	case pending:
		return "… " + n + " more pending"
	}
	var parts []string
	for _, p := range []struct {
		n    int
		what string
	}{{done, "completed"}, {active, "in progress"}, {pending, "pending"}} {
		if p.n > 0 {
			parts = append(parts, strconv.Itoa(p.n)+" "+p.what)
		}
	}
	return "… " + n + " more " + where + " (" + strings.Join(parts, ", ") + ")"
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
