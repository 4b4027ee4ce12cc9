// Package watchui is the front end of `todo-shell watch`: a session's task
// panel, redrawn on the alternate screen whenever its plan changes; once
// (--once); or as lines (--json, or when standard output is not a
// terminal). It draws through the painter; where plans come from is
// package follow's.
package watchui

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"

	"github.com/todo-shell/todo-shell/internal/follow"
	"github.com/todo-shell/todo-shell/internal/painter"
	"github.com/todo-shell/todo-shell/internal/plan"
	"github.com/todo-shell/todo-shell/render"
	"github.com/todo-shell/todo-shell/tools/todo"
)

// Options say what to watch and how.
type Options struct {
	Target  follow.Target
	What    string // what Target is, for the header and errors ("sessions in DIR")
	Once    bool   // print the panel once and return
	JSON    bool   // print each plan version as a JSON line
	NoColor bool
	Limits  todo.Limits
	In      io.Reader // the keys (q quits); a terminal or nothing
	Out     io.Writer
}

// waitingText is what the panel shows while the list is empty.
const waitingText = "waiting for a plan…"

// Run watches until ctx ends, the target ends, or q is pressed.
func Run(ctx context.Context, o Options) error {
	if o.Once {
		return once(o)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	updates := make(chan follow.Update, 64)
	errc := make(chan error, 1)
	go func() {
		errc <- follow.Follow(ctx, o.Target, func(u follow.Update) {
			select {
			case updates <- u:
			case <-ctx.Done():
			}
		})
	}()
	out, ok := o.Out.(*os.File)
	if o.JSON || !ok || !painter.IsTerminal(out) {
		return lines(ctx, o, updates, errc)
	}
	return screen(ctx, o, out, updates, errc)
}

// once prints the current panel (or JSON record) and returns.
func once(o Options) error {
	u, err := follow.Once(o.Target)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("watch: no %s: %w", o.What, err)
		}
		return fmt.Errorf("watch: %w", err)
	}
	if o.JSON {
		if u.Version == nil {
			return nil
		}
		var prev *plan.Version
		if n := len(u.New); n > 1 {
			prev = u.New[n-2]
		}
		v := u.Version
		_, err := o.Out.Write(append(plan.AppendRecord(nil, v, plan.Changes(prev, v), plan.Problems(v.Todos, o.Limits)), '\n'))
		return err
	}
	st, width := render.PlainStyles(), 80
	if f, ok := o.Out.(*os.File); ok && painter.IsTerminal(f) {
		st = styles(f, o.NoColor)
		if w, _, err := painter.SizeOf(f); err == nil && w > 0 {
			width = w
		}
	}
	_, err = io.WriteString(o.Out, panelText(u.Version, width, 0, &st)+"\n")
	return err
}

// screen draws the panel on the alternate screen, redrawing it at each
// new version and each resize.
func screen(ctx context.Context, o Options, out *os.File, updates <-chan follow.Update, errc <-chan error) error {
	in, _ := o.In.(*os.File)
	tty, err := painter.Open(in, out, painter.Modes{Raw: true, AltScreen: true})
	if err != nil {
		return err
	}
	defer func() { _ = tty.Close() }() // the terminal as it was, however it went
	keys := make(chan painter.Key, 16)
	if tty.In != nil {
		go painter.ReadKeys(tty.In, keys)
	}
	sizes := make(chan [2]int, 1)
	tty.OnResize(func(w, h int) {
		select {
		case <-sizes: // only the newest matters
		default:
		}
		sizes <- [2]int{w, h}
	})
	pnt := painter.New(out, tty.Size)
	pnt.Start()
	defer pnt.Stop()
	v := view{st: styles(out, o.NoColor), what: o.What}
	for {
		select {
		case u := <-updates:
			v.last = takeNewest(u, updates)
		case k, ok := <-keys:
			if !ok || k == painter.KeyQuit {
				return nil
			}
			continue
		case s := <-sizes:
			v.width, v.rows = s[0], s[1]
			pnt.SetSize(s[0], s[1])
			pnt.Clear() // the alternate screen has no scrollback to keep
		case err := <-errc:
			return err
		case <-ctx.Done():
			return nil
		}
		pnt.SetView(v.String())
	}
}

// takeNewest takes every update already queued after u: only the newest
// is drawn.
func takeNewest(u follow.Update, updates <-chan follow.Update) follow.Update {
	for {
		select {
		case n := <-updates:
			u = n
		default:
			return u
		}
	}
}

// view is the watch screen: a header and the panel.
type view struct {
	st          render.Styles
	what        string
	last        follow.Update
	width, rows int
}

func (v *view) String() string {
	w := max(v.width-1, 20) // the painter keeps a one-column margin
	rows := 0
	if v.rows > 0 {
		rows = max(v.rows-3, 3) // the header, and the painter's two spare rows
	}
	return v.st.Dim.Render(Header(v.last, v.what)) + "\n" + panelText(v.last.Version, w, rows, &v.st)
}

// lines prints each version as a JSON line (--json), or each new panel as
// plain text when standard output is not a terminal.
func lines(ctx context.Context, o Options, updates <-chan follow.Update, errc <-chan error) error {
	w := bufio.NewWriter(o.Out)
	st := render.PlainStyles()
	var prev *plan.Version
	var buf []byte
	source := ""
	for {
		select {
		case u := <-updates:
			if u.Source != source {
				prev, source = nil, u.Source
			}
			if o.JSON {
				for _, v := range u.New {
					buf = plan.AppendRecord(buf[:0], v, plan.Changes(prev, v), plan.Problems(v.Todos, o.Limits))
					buf = append(buf, '\n')
					_, _ = w.Write(buf) // an error shows in Flush
					prev = v
				}
			} else if len(u.New) > 0 || u.Version == nil {
				fmt.Fprintf(w, "%s\n%s\n\n", Header(u, ""), panelText(u.Version, 80, 0, &st))
			}
			if err := w.Flush(); err != nil {
				return nil // the reader went away
			}
		case err := <-errc:
			return err
		case <-ctx.Done():
			return nil
		}
	}
}

// Header is the line above the panel: what is watched, its version, and
// (when what is set: on a terminal) how to quit.
func Header(u follow.Update, what string) string {
	if u.Source == "" {
		if what == "" {
			return "no session yet"
		}
		return "no session yet in " + render.Sanitize(what)
	}
	s := "watching " + render.Sanitize(u.Source)
	if u.Version != nil {
		s += " · v" + fmt.Sprint(u.Version.N)
	}
	if what != "" {
		s += " · q quits"
	}
	return s
}

// panelText is the task box of v in at most rows rows (0: no limit), or
// the waiting line.
func panelText(v *plan.Version, width, rows int, st *render.Styles) string {
	if v == nil || len(v.Todos) == 0 {
		return st.Dim.Render(waitingText)
	}
	snap := todo.Snapshot{Items: v.Todos, Version: uint64(v.N)}
	if rows > 0 {
		return strings.TrimSuffix(render.TaskBoxIn(snap, width, rows, st), "\n")
	}
	return strings.TrimSuffix(render.TaskBox(snap, width, st), "\n")
}

// styles are the colours to draw with on the terminal f.
func styles(f *os.File, noColor bool) render.Styles {
	r := lipgloss.NewRenderer(f)
	if noColor {
		r.SetColorProfile(termenv.Ascii)
	}
	r.SetHasDarkBackground(true)
	return render.DefaultStyles(r)
}
