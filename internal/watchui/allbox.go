package watchui

import (
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/todo-shell/todo-shell/internal/allplans"
	"github.com/todo-shell/todo-shell/internal/plan"
	"github.com/todo-shell/todo-shell/render"
	"github.com/todo-shell/todo-shell/tools/todo"
)

// age is how long ago t was, shortly: "12s", "5m", "1h".
func age(now, t time.Time) string {
	d := now.Sub(t)
	switch {
	case d < time.Minute:
		return strconv.Itoa(max(int(d/time.Second), 0)) + "s"
	case d < time.Hour:
		return strconv.Itoa(int(d/time.Minute)) + "m"
	}
	return strconv.Itoa(int(d/time.Hour)) + "h"
}

// allBox is one entry as a compact box of three lines, width wide: the agent,
// a todo-shell session's id, the project and the age on its top border with done/total, the item in
// progress inside. Every text from a file is neutralised here, where it is
// drawn.
func allBox(e *allplans.Entry, width int, now time.Time, selected bool, st *render.Styles) string {
	width = max(width, 24)
	inner := width - 2
	done, total := 0, 0
	doing := ""
	if e.Version != nil {
		list := plan.Display(e.Version)
		total = len(list)
		done, _, _ = todo.Snapshot{Items: list}.Counts()
		for _, it := range list {
			if it.Status == todo.StatusInProgress {
				doing = render.IconActive + " " + render.Sanitize(it.ActiveForm)
				break
			}
		}
	}
	if doing == "" {
		if total > 0 && done == total {
			doing = render.IconDone + " all done"
		} else {
			doing = "nothing in progress"
		}
	}
	count := " " + strconv.Itoa(done) + "/" + strconv.Itoa(total) + " "
	title := " " + render.Sanitize(e.Agent) + " · "
	if e.Session != "" {
		// The id first, so a narrow box keeps it: `todo-shell watch ID`.
		title += render.Sanitize(e.Session) + " · "
	}
	title += render.Sanitize(e.Project) + " · " + age(now, e.Changed) + " "
	room := inner - 1 - ansi.StringWidth(count) - 1
	title = ansi.Truncate(title, max(room, 0), "… ")
	fill := max(inner-1-ansi.StringWidth(title)-ansi.StringWidth(count)-1, 0)
	top := "╭─" + title + strings.Repeat("─", fill) + count + "─╮"
	body := ansi.Truncate(" "+doing, inner, "…")
	body = "│" + body + strings.Repeat(" ", max(inner-ansi.StringWidth(body), 0)) + "│"
	bottom := "╰" + strings.Repeat("─", inner) + "╯"
	style := st.Dim
	if selected {
		style = st.Accent
	}
	return style.Render(top) + "\n" + body + "\n" + style.Render(bottom)
}

// allBoxes is the whole --all screen: a header line, then one box per entry
// that fits in height rows, the selected one kept in view.
func allBoxes(entries []allplans.Entry, warning string, sel, width, height int, now time.Time, st *render.Styles) string {
	var b strings.Builder
	head := strconv.Itoa(len(entries)) + " live plans · ↑↓ pick · Enter open · q quits"
	if len(entries) == 1 {
		head = "1 live plan · ↑↓ pick · Enter open · q quits"
	}
	b.WriteString(st.Dim.Render(ansi.Truncate("todo-shell watch --all · "+head, width, "…")))
	rows := height - 1
	if warning != "" {
		// A source not read (a damaged opencode.db): its plans read
		// before are still shown, and this says why nothing newer is.
		b.WriteString("\n" + st.Warning.Render(render.Fit("⚠ "+render.Sanitize(warning), width)))
		rows--
	}
	if len(entries) == 0 {
		b.WriteString("\n" + st.Dim.Render("no plan changed in the last hour; waiting…"))
		return b.String()
	}
	fit := max(rows/3, 1)
	first := 0
	if sel >= fit {
		first = sel - fit + 1
	}
	for i := first; i < len(entries) && i < first+fit; i++ {
		b.WriteString("\n" + allBox(&entries[i], width, now, i == sel, st))
	}
	return b.String()
}
