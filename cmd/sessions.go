package cmd

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"github.com/todo-shell/todo-shell/internal/plans"
	"github.com/todo-shell/todo-shell/internal/readgate"
	"github.com/todo-shell/todo-shell/internal/session"
	"github.com/todo-shell/todo-shell/render"
	"github.com/todo-shell/todo-shell/repl/history"
)

// sessionsOptions are the sessions command's flags.
type sessionsOptions struct {
	*Options
	JSON bool
	Now  func() time.Time
}

func newCmdSessions(o *Options) *cobra.Command {
	opts := &sessionsOptions{Options: o, Now: time.Now}
	cmd := &cobra.Command{
		Use:   "sessions",
		Short: "List the sessions in the offload directory, most recent first",
		Long: `sessions lists the sessions under the offload directory, most recently changed
first: id, last change, mode, progress (done/total), what is in progress, the
offloaded files (count and size) and the agent's turns. A live session (in use
by a running todo-shell) is marked with its process id.

With --json it prints one JSON object per line instead.`,
		Example: `  $ todo-shell sessions
  $ todo-shell sessions --json | jq -r 'select(.live) | .id'
  $ todo-shell --resume "$(todo-shell sessions --json | head -n1 | jq -r .id)"`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return sessionsRun(opts)
		},
	}
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "one JSON object per line")
	return cmd
}

func sessionsRun(o *sessionsOptions) error {
	list, err := session.List(o.OffloadDir)
	switch {
	case errors.Is(err, readgate.ErrBudget): // the sessions of the first entries are listed
		fmt.Fprintln(o.Streams.ErrOut, "todo-shell: warning: not every session listed: "+render.Sanitize(err.Error()))
	case err != nil:
		return fmt.Errorf("list sessions: %w", err)
	}
	for i := range list {
		for _, w := range list[i].Warnings {
			fmt.Fprintln(o.Streams.ErrOut, "todo-shell: warning: "+render.Sanitize(w))
		}
	}
	root := plansRoot(o.Options)
	var shared []plans.Info
	if root != "" {
		if shared, err = plans.List(root); err != nil {
			fmt.Fprintln(o.Streams.ErrOut, "todo-shell: warning: shared plans not listed: "+render.Sanitize(err.Error()))
		}
	}
	if o.JSON {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		write := func(v any) error {
			buf.Reset()
			if err := enc.Encode(v); err != nil {
				return err
			}
			_, err := o.Streams.Out.Write(escapeC1(buf.Bytes()))
			return err
		}
		for i := range list {
			if err := write(&list[i]); err != nil {
				return err
			}
		}
		for i := range shared {
			if err := write(&shared[i]); err != nil {
				return err
			}
		}
		return nil
	}
	if len(list) == 0 {
		fmt.Fprintf(o.Streams.ErrOut, "no sessions in %s\n", o.OffloadDir)
	} else {
		writeSessionTable(o.Streams.Out, list, o.Now(), isTerminal(o.Streams.Out), tableWidth(o.Streams.Out))
	}
	if len(shared) > 0 {
		if len(list) > 0 {
			fmt.Fprintln(o.Streams.Out)
		}
		writePlanTable(o.Streams.Out, shared, o.Now(), isTerminal(o.Streams.Out), tableWidth(o.Streams.Out))
	}
	return nil
}

// plansRoot is where the shared plans are ($XDG_STATE_HOME/todo-shell/plans,
// as planDir), or "" when there is no state directory.
func plansRoot(o *Options) string {
	base := history.DefaultDir(o.Getenv)
	if base == "" {
		return ""
	}
	return filepath.Join(base, "plans")
}

// writePlanTable prints the shared plans as a table width columns wide,
// in the way of the sessions table: PLAN, CHANGED, DONE, IN PROGRESS (and
// its owner), IN USE; OWNER, CHANGED and IN USE give way when it does not
// fit.
func writePlanTable(w io.Writer, list []plans.Info, now time.Time, safe bool, width int) {
	order := []string{"PLAN", "CHANGED", "DONE", "IN PROGRESS", "OWNER", "IN USE"}
	cols := map[string]*tableColumn{}
	for _, h := range order {
		cols[h] = &tableColumn{head: h}
	}
	add := func(h, cell string) { cols[h].cells = append(cols[h].cells, cell) }
	for i := range list {
		p := &list[i]
		use := "-"
		if p.InUse {
			use = "yes"
		}
		owner := "-"
		if p.Owner != "" {
			owner = "@" + doingCell(p.Owner, safe)
		}
		add("PLAN", render.Sanitize(p.Name))
		add("CHANGED", ago(now.Sub(p.LastChange)))
		add("DONE", fmt.Sprintf("%d/%d", p.Done, p.Total))
		add("IN PROGRESS", doingCell(p.InProgress, safe))
		add("OWNER", owner)
		add("IN USE", use)
	}
	order = fitColumns(cols, order, nil, []string{"OWNER", "CHANGED", "IN USE"}, width)
	writeColumns(w, cols, order, len(list))
}

// Columns of the sessions table that give way when it does not fit.
const (
	minDoingWidth = 10 // IN PROGRESS is never cut narrower while a column can go
	maxDoingWidth = 40 // nor shown wider
)

// tableColumn is one column of the sessions table.
type tableColumn struct {
	head  string
	cells []string
}

// writeSessionTable prints list as a table width columns wide: the column
// of what is in progress gets the room the others leave (at most 40
// columns), and TURNS shows only when a session has agent turns. When the
// columns do not fit, they give way in turn: FILES loses its size, then
// TURNS, MODE, FILES, CHANGED and LIVE go, until IN PROGRESS has 10
// columns (or the row fits). Widths are display widths (CJK and emoji take two).
func writeSessionTable(w io.Writer, list []session.Info, now time.Time, safe bool, width int) {
	cols, order, filesShort := sessionColumns(list, now, safe)
	order = fitColumns(cols, order, filesShort, []string{"FILES size", "TURNS", "MODE", "FILES", "CHANGED", "LIVE"}, width)
	writeColumns(w, cols, order, len(list))
}

// sessionColumns are the table's columns, by heading, and the headings in
// their order (TURNS only when a session has agent turns); filesShort is
// FILES without the sizes.
func sessionColumns(list []session.Info, now time.Time, safe bool) (cols map[string]*tableColumn, order, filesShort []string) {
	turns := false
	for i := range list {
		turns = turns || list[i].AgentTurns > 0
	}
	cols = map[string]*tableColumn{}
	order = []string{"ID", "CHANGED", "MODE", "DONE", "IN PROGRESS", "FILES", "LIVE"}
	if turns {
		order = append(order, "TURNS")
	}
	for _, h := range order {
		cols[h] = &tableColumn{head: h}
	}
	add := func(h, cell string) { cols[h].cells = append(cols[h].cells, cell) }
	for i := range list {
		s := &list[i]
		mode := render.Sanitize(s.Mode)
		if mode == "" {
			mode = "-"
		}
		files, short := "-", "-"
		if s.Files > 0 {
			files, short = fmt.Sprintf("%d (%s)", s.Files, render.HumanSize(s.FilesBytes)), strconv.Itoa(s.Files)
		}
		filesShort = append(filesShort, short)
		live := "-"
		if s.Live {
			live = "pid " + strconv.Itoa(s.PID)
		}
		add("ID", render.Sanitize(s.ID))
		add("CHANGED", ago(now.Sub(s.LastChange)))
		add("MODE", mode)
		add("DONE", fmt.Sprintf("%d/%d", s.Done, s.Total))
		add("IN PROGRESS", doingCell(s.InProgress, safe))
		add("FILES", files)
		add("LIVE", live)
		if turns {
			add("TURNS", strconv.Itoa(s.AgentTurns))
		}
	}
	return cols, order, filesShort
}

// doingCell is the IN PROGRESS cell: the task on one line, neutralised
// when safe, "-" for none.
func doingCell(doing string, safe bool) string {
	if safe {
		doing = render.SanitizeOutput(doing)
	}
	doing = strings.Join(strings.Fields(doing), " ")
	if doing == "" {
		return "-"
	}
	return doing
}

// fitColumns makes the columns fit in width: they give way in the turn
// give says ("FILES size": FILES loses its size, for the sessions table;
// then TURNS, MODE, FILES, CHANGED and LIVE go) until IN PROGRESS has
// minDoingWidth columns, which is then cut to the room left (at most
// maxDoingWidth). It returns the headings still shown.
func fitColumns(cols map[string]*tableColumn, order, filesShort, give []string, width int) []string {
	// The room the other columns leave, each with its gap of two.
	room := func() int {
		used := 0
		for _, h := range order {
			if h != "IN PROGRESS" {
				used += columnWidth(cols[h]) + 2
			}
		}
		return width - used
	}
	for _, g := range give {
		if room() >= minDoingWidth {
			break
		}
		if g == "FILES size" {
			cols["FILES"].cells = filesShort
			continue
		}
		order = slices.DeleteFunc(order, func(h string) bool { return h == g })
	}
	doing := cols["IN PROGRESS"]
	doingW := min(max(room(), 4), maxDoingWidth) // "IN …" when nothing else can go
	doing.head = ansi.Truncate(doing.head, doingW, "…")
	for i, c := range doing.cells {
		doing.cells[i] = ansi.Truncate(c, doingW, "…")
	}
	return order
}

// writeColumns prints the columns named in order, a heading line and rows
// lines, each column padded to its widest cell plus a gap of two.
func writeColumns(w io.Writer, cols map[string]*tableColumn, order []string, rows int) {
	widths := make([]int, len(order)) // measured once: per row, the table took time quadratic in its rows
	for i, h := range order {
		widths[i] = columnWidth(cols[h])
	}
	var b strings.Builder
	for row := -1; row < rows; row++ {
		b.Reset()
		for i, h := range order {
			c := cols[h]
			cell := c.head
			if row >= 0 {
				cell = c.cells[row]
			}
			b.WriteString(cell)
			if i < len(order)-1 {
				b.WriteString(strings.Repeat(" ", widths[i]-ansi.StringWidth(cell)+2))
			}
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
}

// columnWidth is the display width of c's widest cell or heading.
func columnWidth(c *tableColumn) int {
	n := ansi.StringWidth(c.head)
	for _, cell := range c.cells {
		n = max(n, ansi.StringWidth(cell))
	}
	return n
}

// escapeC1 writes the C1 controls (U+0080–U+009F) of encoded JSON as
// \u0080…\u009f: encoding/json leaves them raw, and a terminal takes U+009B
// for the start of a control sequence. In UTF-8 they are 0xC2 0x80–0x9F, a
// pair that encodes nothing else.
func escapeC1(b []byte) []byte {
	if !bytes.Contains(b, []byte{0xc2}) {
		return b
	}
	out := make([]byte, 0, len(b)+16)
	for i := 0; i < len(b); i++ {
		if b[i] == 0xc2 && i+1 < len(b) && b[i+1] >= 0x80 && b[i+1] <= 0x9f {
			out = append(out, `\u00`...)
			out = append(out, "0123456789abcdef"[b[i+1]>>4], "0123456789abcdef"[b[i+1]&0xf])
			i++
			continue
		}
		out = append(out, b[i])
	}
	return out
}

// ago says how long ago d was, roughly.
func ago(d time.Duration) string {
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return fmt.Sprintf("%dm ago", int(d/time.Minute))
	case d < 24*time.Hour:
		return fmt.Sprintf("%dh ago", int(d/time.Hour))
	default:
		return fmt.Sprintf("%dd ago", int(d/(24*time.Hour)))
	}
}

// tableWidth is the columns a table may take: the terminal's, or 80 when
// the output is not a terminal.
func tableWidth(out io.Writer) int {
	if f, ok := out.(*os.File); ok && isTerminal(out) {
		if w, _, err := term.GetSize(f.Fd()); err == nil && w > 0 {
			return w
		}
	}
	return 80
}
