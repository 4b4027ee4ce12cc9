package repl

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/todo-shell/todo-shell/render"
	"github.com/todo-shell/todo-shell/router"
	"github.com/todo-shell/todo-shell/tools/todo"
)

// View draws the live area: the task panel, the running command with its
// last output lines, a hint, and the prompt; and where the terminal's own
// cursor goes (the insertion point), in every mode.
func (m *Model) View() tea.View {
	content, cur := m.draw()
	v := tea.NewView(content)
	v.Cursor = cur
	return v
}

// draw assembles the live area and places the cursor in it. It is never
// taller than the terminal minus two rows: the task panel collapses to
// the room left by the rest (see render.TaskBoxIn), and when even that is
// too little the running command's output lines go first.
func (m *Model) draw() (string, *tea.Cursor) {
	if m.quitting {
		return "", nil
	}
	var rest []string // everything under the panel, top to bottom
	label, tail := m.runningRows()
	input := m.inputArea()
	var queued []string // typed ahead, waiting for the running command
	for _, q := range m.queue {
		queued = append(queued, m.styles.Dim.Render(m.fit(m.linePrompt(0)+render.Sanitize(oneLine(q)))))
	}
	asked := m.permissionLines() // a permission question, under the spinner
	fixed := strings.Count(input, "\n") + 1 + len(queued) + len(asked)
	if label != "" {
		fixed++
	}
	if m.hint != "" {
		fixed++
	}
	room := 0 // rows for the panel; 0 is no limit
	if limit := m.maxRows(); limit > 0 {
		// The panel needs 3 rows to show the item in progress, and a row
		// more for each other item in progress (render.BoxRowsFor); output
		// lines give way to it.
		need := max(3, render.BoxRowsFor(m.snap.Items))
		for len(tail) > 0 && limit-fixed-len(tail) < need {
			tail = tail[1:]
		}
		room = min(limit-fixed-len(tail), max(panelRows(m.height), need))
	}
	if label != "" {
		rest = append(rest, m.fit(label))
	}
	rest = append(rest, asked...)
	rest = append(rest, tail...)
	rest = append(rest, queued...)
	if m.hint != "" {
		rest = append(rest, m.styles.Dim.Render(m.fit(m.hint)))
	}
	var b strings.Builder
	if room >= 0 {
		if panel := m.panelIn(room); panel != "" {
			b.WriteString(panel)
			b.WriteByte('\n')
		}
	}
	for _, l := range rest {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return m.withInput(&b, input)
}

// withInput ends the live area in b with the input area, and places the
// cursor in it.
func (m *Model) withInput(b *strings.Builder, input string) (string, *tea.Cursor) {
	top := strings.Count(b.String(), "\n") // the input's first row
	b.WriteString(input)
	cur := m.cursorAt()
	if cur != nil {
		cur.Y += top
	}
	return b.String(), cur
}

// cursorAt is where the cursor goes in the input area: at the
// insertion point of the input, or after the query of a history search.
func (m *Model) cursorAt() *tea.Cursor {
	if m.search != nil {
		label := "(reverse-i-search)'"
		if m.search.s.Failed && m.search.s.Query != "" {
			label = "(failed reverse-i-search)'"
		}
		x := ansi.StringWidth(label) + ansi.StringWidth(render.Sanitize(m.search.s.Query))
		return tea.NewCursor(min(x, max(m.width-2, 0)), 0)
	}
	cur := m.input.Cursor()
	if cur == nil {
		return nil
	}
	if m.inputScrolls {
		if above, _ := m.hiddenLines(m.input.ScrollYOffset(), m.input.Height()); above > 0 {
			cur.Y++ // under the "↑ N more lines" row
		}
	}
	cur.X = min(cur.X, max(m.width-2, 0))
	return cur
}

// runningRows are the rows of the running command or agent turn: its
// label with the spinner and the time it has taken, and the last lines of
// its output (both empty when nothing runs).
func (m *Model) runningRows() (label string, tail []string) {
	r := m.running
	if r == nil {
		return "", nil
	}
	label = fmt.Sprintf("%s Running %s (%s)", m.spin.View(), render.Sanitize(oneLine(r.line)), formatElapsed(r.elapsed))
	if r.events != nil {
		label = fmt.Sprintf("%s %s (%s · Ctrl+C to interrupt)", m.spin.View(), m.agentLabel(), formatElapsed(r.elapsed))
	}
	for _, l := range r.lines {
		tail = append(tail, m.styles.Dim.Render(m.fit("  "+render.SanitizeOutput(l))))
	}
	return label, tail
}

// inputArea is the input, or the history search in its place, with the
// completion list under it.
func (m *Model) inputArea() string {
	input := m.inputView()
	if m.search != nil {
		input = m.searchView(m.search.s)
	}
	if list := m.tabList(); list != "" {
		input += "\n" + list
	}
	return input
}

// inputView is the input as drawn: the textarea's rows (at most
// maxInputRows, scrolled to the cursor), under a dim "↑ N more lines" row
// when lines of the text are hidden above them and over a "↓ N more lines"
// row when some are hidden below. A line partly shown counts as hidden.
func (m *Model) inputView() string {
	v := m.input.View()
	if !m.inputScrolls {
		return v
	}
	above, below := m.hiddenLines(m.input.ScrollYOffset(), m.input.Height())
	indent := strings.Repeat(" ", max(ansi.StringWidth(m.linePrompt(0))-2, 0)) // the "…" column
	more := func(arrow string, n int) string {
		s := fmt.Sprintf("%s%s %d more lines", indent, arrow, n)
		if n == 1 {
			s = strings.TrimSuffix(s, "s")
		}
		return m.styles.Dim.Render(m.fit(s))
	}
	if above > 0 {
		v = more("↑", above) + "\n" + v
	}
	if below > 0 {
		v += "\n" + more("↓", below)
	}
	return v
}

// hiddenLines counts the input's lines that start above row off, and
// those that end below the rows shown (off to off+rows).
func (m *Model) hiddenLines(off, rows int) (above, below int) {
	start := 0
	for _, l := range strings.Split(m.input.Value(), "\n") {
		n := wrappedRows(l, max(m.input.Width(), 1))
		if start < off {
			above++
		}
		if start+n > off+rows {
			below++
		}
		start += n
	}
	return above, below
}

// panelRows is the most rows the task panel takes in a terminal of height
// rows: a third of them, never less than six (issue 16, item 13): the
// running command and the prompt keep the rest. Items in progress may take
// more, while the terminal has room (issue 29, item 3).
func panelRows(height int) int { return max(6, height/3) }

// maxRows is the most rows the live area may take: the terminal's height
// minus two, or 0 when the height is unknown.
func (m *Model) maxRows() int {
	if m.height <= 0 {
		return 0
	}
	return max(m.height-2, 1)
}

// panelIn draws the task panel in at most rows rows (0: no limit): as wide
// as its widest row needs, never wider than maxPanelWidth nor than the
// terminal less its one-column margin. A box no wider than its content
// keeps its shape when the window gets narrower than the old box was (the
// terminal rewraps only rows wider than the new width), so resizing rarely
// pushes pieces of it into the scrollback.
func (m *Model) panelIn(rows int) string {
	if len(m.snap.Items) == 0 || (rows == 0 && m.maxRows() > 0) {
		return ""
	}
	w := m.width
	if w <= 0 {
		w = 80
	}
	c := &m.panels
	if c.version != m.snap.Version || c.items == nil || c.naturalRows != rows {
		c.version, c.items, c.naturalRows = m.snap.Version, m.snap.Items, rows
		c.natural = render.TaskBoxWidthIn(m.snap, rows) // summary rows whole
		c.panel = ""
	}
	w = min(w-1, maxPanelWidth, c.natural)
	if c.panel == "" || c.width != w || c.rows != rows {
		c.width, c.rows, c.panel = w, rows, render.TaskBoxIn(m.snap, w, rows, &m.styles)
	}
	return c.panel
}

// panelCache keeps the task panel drawn last: most redraws (a keystroke, a
// spinner tick) show the same list at the same size.
type panelCache struct {
	version     uint64      // the snapshot drawn
	items       []todo.Item // its items (a version 0 list has none)
	natural     int         // render.TaskBoxWidthIn of it at naturalRows
	naturalRows int
	width       int
	rows        int
	panel       string
}

// Most of a person's own list the shell shows whole (see showWhole).
const (
	wholeMaxLines = 1000
	wholeMaxBytes = 256 << 10
)

// showWhole reports whether full, a list a person asked to read that went
// to an offload file, is shown whole: up to wholeMaxLines lines and
// wholeMaxBytes bytes (a list of 50 todos and 50 tasks is about 100); a
// longer one gets the offload pointer and preview as any result.
func showWhole(full string) bool {
	return full != "" && len(full) <= wholeMaxBytes && strings.Count(full, "\n") < wholeMaxLines
}

// fit cuts a line to the terminal's width less the one-column margin.
func (m *Model) fit(s string) string {
	if m.width > 1 && ansi.StringWidth(s) > m.width-1 {
		return ansi.Truncate(s, m.width-1, "…")
	}
	return s
}

func formatElapsed(d time.Duration) string {
	if d < time.Minute {
		return fmt.Sprintf("%.1fs", d.Seconds())
	}
	return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
}

// formatText styles finished stdout and stderr text for the scrollback.
func (m *Model) formatText(stdout, stderr string) string {
	var parts []string
	if stdout != "" {
		parts = append(parts, cleanOutput(stdout))
	}
	if stderr != "" {
		parts = append(parts, render.StyleLines(m.styles.Error, cleanOutput(stderr)))
	}
	return strings.Join(parts, "\n")
}

// formatOutput styles a finished line's output for the scrollback.
func (m *Model) formatOutput(out router.Output) string {
	var parts []string
	if m.trace {
		for _, t := range router.TraceLines(out) {
			parts = append(parts, m.styles.Dim.Render(render.Sanitize(t)))
		}
	}
	if out.Offloaded != nil && showWhole(out.Full) {
		// A person's own list (TodoRead, TaskList, TaskGet): shown whole;
		// the file holds it too, as a model's result would be.
		parts = append(parts, cleanOutput(out.Full))
	} else if o := out.Offloaded; o != nil {
		parts = append(parts, render.StyleLines(m.styles.Accent, render.Sanitize(out.Stdout)))
		lines, more := previewLines(out)
		for _, l := range lines {
			parts = append(parts, m.styles.Dim.Render(m.fit("  "+render.SanitizeOutput(l))))
		}
		if more > 0 {
			parts = append(parts, m.styles.Dim.Render("  "+render.MoreLines(more)))
		}
	} else if out.Stdout != "" {
		parts = append(parts, cleanOutput(out.Stdout))
	}
	if out.Warning != "" {
		parts = append(parts, render.StyleLines(m.styles.Warning, render.Sanitize(out.Warning)))
	}
	if out.Stderr != "" {
		parts = append(parts, render.StyleLines(m.styles.Error, cleanOutput(out.Stderr)))
	}
	return strings.Join(parts, "\n")
}
