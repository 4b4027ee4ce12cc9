// Package statusline draws a plan in one line, for Claude Code's status
// line and tmux's status bar: "Tasks 3/5 ▸ Writing tests · 1 dropped". It
// is pure functions of data to strings. Item text is untrusted: it is
// neutralised (no escape sequence or control character gets through) and,
// for tmux, every '#' is doubled, so no text can start a tmux format,
// style or command.
package statusline

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/todo-shell/todo-shell/render"
	"github.com/todo-shell/todo-shell/tools/todo"
)

// Format is how the line is drawn.
type Format uint8

// Formats.
const (
	Plain Format = iota // text only
	ANSI                // with SGR colour sequences, for a terminal (Claude Code)
	Tmux                // with tmux's #[…] styles, for status-left/right
)

// ParseFormat reads a --format value.
func ParseFormat(s string) (Format, bool) {
	switch s {
	case "plain":
		return Plain, true
	case "ansi":
		return ANSI, true
	case "tmux":
		return Tmux, true
	}
	return Plain, false
}

// DefaultWidth is the most cells a line takes unless told.
const DefaultWidth = 80

// Plan is what the line shows.
type Plan struct {
	Items []todo.Item
	// Dropped counts items that left the plan unfinished (since the
	// person's last prompt); shown when not zero.
	Dropped int
}

// style is one of the line's parts.
type style uint8

const (
	styleTitle style = iota
	styleCount
	styleSep
	styleActive
	styleNext
	styleDone
	styleWarn
)

// sgr and tmuxStyle are each style's codes; the colours are the task
// panel's (render.DefaultStyles, dark background).
var (
	sgr = [...]string{
		styleTitle:  "\x1b[1m",
		styleCount:  "\x1b[38;5;243m",
		styleSep:    "\x1b[38;5;243m",
		styleActive: "\x1b[1;38;5;220m",
		styleNext:   "\x1b[38;5;245m",
		styleDone:   "\x1b[38;5;78m",
		styleWarn:   "\x1b[1;38;5;214m",
	}
	tmuxStyle = [...]string{
		styleTitle:  "#[bold]",
		styleCount:  "#[fg=colour243]",
		styleSep:    "#[fg=colour243]",
		styleActive: "#[fg=colour220,bold]",
		styleNext:   "#[fg=colour245]",
		styleDone:   "#[fg=colour78]",
		styleWarn:   "#[fg=colour214,bold]",
	}
)

type part struct {
	text string
	s    style
	free bool // the plan's own text: neutralised, and cut first
}

// Line draws p in one line of at most width cells (0: DefaultWidth): "Tasks
// 3/5 ▸ Writing tests" — the first item in progress (its activeForm), else
// "next: " and the first pending one, else "✓" when all are done — then
// "· N dropped" when some were. A plan without items draws "".
func Line(p Plan, f Format, width int) string {
	if len(p.Items) == 0 {
		return ""
	}
	if width <= 0 {
		width = DefaultWidth
	}
	done, _, _ := todo.Snapshot{Items: p.Items}.Counts()
	parts := []part{{"Tasks ", styleTitle, false}, {strconv.Itoa(done) + "/" + strconv.Itoa(len(p.Items)), styleCount, false}}
	what, ws := "", styleActive
	for _, it := range p.Items {
		if it.Status == todo.StatusInProgress {
			what = it.ActiveForm
			if strings.TrimSpace(what) == "" {
				what = it.Content
			}
			break
		}
	}
	if what == "" {
		for _, it := range p.Items {
			if it.Status == todo.StatusPending {
				what, ws = "next: "+it.Content, styleNext
				break
			}
		}
	}
	switch {
	case what != "":
		parts = append(parts, part{" ▸ ", styleSep, false}, part{render.Sanitize(what), ws, true})
	case done == len(p.Items):
		parts = append(parts, part{" ✓", styleDone, false})
	}
	if p.Dropped > 0 {
		parts = append(parts, part{" · ", styleSep, false}, part{strconv.Itoa(p.Dropped) + " dropped", styleWarn, false})
	}
	fit(parts, width)
	var b strings.Builder
	for _, pt := range parts {
		if pt.text == "" {
			continue
		}
		text := pt.text
		switch f {
		case ANSI:
			b.WriteString(sgr[pt.s] + text + "\x1b[0m")
		case Tmux:
			b.WriteString(tmuxStyle[pt.s] + strings.ReplaceAll(text, "#", "##") + "#[default]")
		default:
			b.WriteString(text)
		}
	}
	return b.String()
}

// fit cuts the plan's own text so the parts take at most width cells, with
// "…"; if that is not enough the line is cut at its end.
func fit(parts []part, width int) {
	total := 0
	for _, pt := range parts {
		total += ansi.StringWidth(pt.text)
	}
	for i := range parts {
		if total <= width {
			return
		}
		if !parts[i].free {
			continue
		}
		w := ansi.StringWidth(parts[i].text)
		keep := max(0, w-(total-width)-1)
		parts[i].text = ansi.Truncate(parts[i].text, keep, "") + "…"
		total += ansi.StringWidth(parts[i].text) - w
	}
	for i := len(parts) - 1; i >= 0 && total > width; i-- {
		w := ansi.StringWidth(parts[i].text)
		keep := max(0, w-(total-width))
		parts[i].text = ansi.Truncate(parts[i].text, keep, "")
		total += ansi.StringWidth(parts[i].text) - w
	}
}
