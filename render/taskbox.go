package render

import (
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
	if len(snap.Items) == 0 {
		return ""
	}
	if width < minBoxWidth {
		width = minBoxWidth
	}
	inner := width - 4 // "│ " and " │"
	border, title, count := st.border, st.title, st.count
	done, _, _ := snap.Counts()

	var b strings.Builder
	b.Grow((width + 16) * (len(snap.Items) + 2) * 2)

	// ╭─ Tasks 1/3 ───╮
	label := " Tasks "
	tally := strconv.Itoa(done) + "/" + strconv.Itoa(len(snap.Items)) + " "
	room := width - 3 // "╭─" and "╮"
	if ansi.StringWidth(label)+ansi.StringWidth(tally) > room {
		tally = ""
	}
	if ansi.StringWidth(label) > room {
		label = ansi.Truncate(label, room, "")
	}
	fill := room - ansi.StringWidth(label) - ansi.StringWidth(tally)
	b.WriteString(border.apply("╭─"))
	b.WriteString(title.apply(label))
	b.WriteString(count.apply(tally))
	b.WriteString(border.apply(strings.Repeat("─", fill) + "╮"))
	b.WriteByte('\n')

	side := border.apply("│")
	for _, it := range snap.Items {
		icon, text, p := IconPending, it.Content, st.pending
		switch it.Status {
		case todo.StatusCompleted:
			icon, p = IconDone, st.done
		case todo.StatusInProgress:
			icon, text, p = IconActive, it.ActiveForm, st.active
		}
		row := icon + " " + Sanitize(text)
		w := ansi.StringWidth(row)
		if w > inner {
			row = ansi.Truncate(row, inner, "…")
			w = ansi.StringWidth(row)
		}
		b.WriteString(side)
		b.WriteByte(' ')
		b.WriteString(p.apply(row))
		b.WriteString(strings.Repeat(" ", inner-w+1))
		b.WriteString(side)
		b.WriteByte('\n')
	}
	b.WriteString(border.apply("╰" + strings.Repeat("─", width-2) + "╯"))
	return b.String()
}

// Plain draws the list the way the reference implementations do:
//
//	[x] done item
//	[>] current item <- doing it
//	[ ] pending item
//
//	(1/3 completed)
//
// or "No todos." for an empty list. Text is neutralised by Sanitize.
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
			b.WriteString("[>] " + Sanitize(it.Content) + " <- " + Sanitize(it.ActiveForm))
		default:
			b.WriteString("[ ] " + Sanitize(it.Content))
		}
		b.WriteByte('\n')
	}
	done, _, _ := snap.Counts()
	b.WriteString("\n(" + strconv.Itoa(done) + "/" + strconv.Itoa(len(snap.Items)) + " completed)")
	return b.String()
}
