// Package watchui is the front end of `todo-shell watch`: a plan's task
// panel, redrawn on the alternate screen whenever it changes; once
// (--once); or as lines (--json, or when standard output is not a
// terminal). It draws through the painter; where plans come from is the
// Source's (package follow, or a task plan's journal).
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

	"github.com/charmbracelet/x/ansi"

	"github.com/todo-shell/todo-shell/internal/follow"
	"github.com/todo-shell/todo-shell/internal/painter"
	"github.com/todo-shell/todo-shell/internal/plan"
	"github.com/todo-shell/todo-shell/render"
	"github.com/todo-shell/todo-shell/tools/todo"
)

// Source is what is watched: its plan now, and each change of it.
type Source struct {
	// Once returns the plan as it is now.
	Once func() (follow.Update, error)
	// Follow sends each update until ctx ends or it fails.
	Follow func(ctx context.Context, send func(follow.Update)) error
}

// FromTarget is the Source of a follow.Target; what names it in errors
// ("sessions in DIR").
func FromTarget(t follow.Target, what string) Source {
	return Source{
		Once: func() (follow.Update, error) {
			u, err := follow.Once(t)
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) {
					return u, fmt.Errorf("watch: no %s: %w", what, err)
				}
				return u, fmt.Errorf("watch: %w", err)
			}
			return u, nil
		},
		Follow: func(ctx context.Context, send func(follow.Update)) error {
			return follow.Follow(ctx, t, send)
		},
	}
}

// Options say what to watch and how.
type Options struct {
	Source Source
	What   string // what Source is, for the header ("sessions in DIR")
	Once   bool   // print the panel once and return
	JSON   bool   // print each plan version as a JSON line
	// NoColor draws without colours.
	NoColor bool
	// Progress puts the plan's progress in the terminal's title; Bar
	// draws the OSC 9;4 progress indicator too.
	Progress, Bar bool
	Limits        todo.Limits
	In            io.Reader // the keys (q quits); a terminal or anything else for none
	Out, ErrOut   io.Writer
}

// WaitingText is what the panel shows while the list is empty.
const WaitingText = "waiting for a plan…"

// NoPlanText is what watch and replay say of a Claude Code session whose
// tools keep no plan.
const NoPlanText = "this session keeps no plan; set CLAUDE_CODE_ENABLE_TODO_TOOLS=1, or give Claude todo-shell's plan over MCP"

// Run watches until ctx ends, the source ends, or q is pressed.
func Run(ctx context.Context, o Options) error {
	if o.Once {
		return once(o)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	updates := make(chan follow.Update, 64)
	errc := make(chan error, 1)
	go func() {
		errc <- o.Source.Follow(ctx, func(u follow.Update) {
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
	u, err := o.Source.Once()
	if err != nil {
		return err
	}
	for _, w := range u.Warnings {
		fmt.Fprintln(o.ErrOut, "todo-shell: warning: "+render.Sanitize(w))
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
		_, err := o.Out.Write(append(plan.AppendRecord(nil, v, plan.Changes(prev, v), plan.Check(v, o.Limits)), '\n'))
		return err
	}
	st, width := Styles(o.Out, o.NoColor)
	_, err = io.WriteString(o.Out, UpdateText(u, width, 0, &st)+"\n")
	return err
}

// screen draws the panel on the alternate screen, redrawing it at each
// new version and each resize.
func screen(ctx context.Context, o Options, out *os.File, updates <-chan follow.Update, errc <-chan error) error {
	var prog *painter.Progress
	if o.Progress {
		prog = painter.NewProgress(out, o.Bar)
		defer prog.Close() // after the terminal is given back
	}
	scr, err := openAltScreen(o.In, out)
	if err != nil {
		return err
	}
	defer scr.close()
	keys := make(chan painter.Key, 16)
	if scr.tty.In != nil {
		go painter.ReadKeys(scr.tty.In, keys)
	}
	st, _ := Styles(out, o.NoColor)
	v := view{st: st, what: o.What}
	// The size now: the first one OnResize sends comes from a goroutine,
	// and may come after the first version (which was then drawn 20
	// columns wide).
	if w, h, err := scr.tty.Size(); err == nil && w > 0 && h > 0 {
		v.width, v.rows = w, h
	}
	for {
		select {
		case u := <-updates:
			v.take(u, updates)
			if prog != nil && v.last.Version != nil {
				prog.Set(v.last.Version.Todos)
			}
		case k, ok := <-keys:
			if !ok || k == painter.KeyQuit {
				return nil
			}
			continue
		case sz := <-scr.sizes:
			v.width, v.rows = sz[0], sz[1]
			scr.resize(sz)
		case err := <-errc:
			return err
		case <-ctx.Done():
			return nil
		}
		scr.pnt.SetView(v.String(), nil)
	}
}

// view is the watch screen: a header and the panel.
type view struct {
	st      render.Styles
	what    string
	last    follow.Update
	warning string // the newest file or line skipped, kept in the header
	// note is the last switch's note ("switched from a to b: …"), kept in
	// the header while the same source is shown: the versions that follow
	// at once would otherwise wipe it before anyone could read it.
	note        string
	width, rows int
}

// take takes u and every update already queued after it: only the newest
// is drawn, with the newest warning among them.
func (v *view) take(u follow.Update, updates <-chan follow.Update) {
	for {
		if u.Note != "" {
			v.note = u.Note
		} else if u.Source != v.last.Source {
			v.note = ""
		}
		v.last = u
		if u.Recovered {
			v.warning = ""
		}
		if n := len(u.Warnings); n > 0 {
			v.warning = u.Warnings[n-1]
		}
		select {
		case u = <-updates:
		default:
			return
		}
	}
}

func (v *view) String() string {
	w := max(v.width-1, 20) // the painter keeps a one-column margin
	rows := 0
	if v.rows > 0 {
		rows = max(v.rows-1, 1) // under the header: the painter keeps no spare row on the alternate screen
	}
	last := v.last
	if last.Note == "" {
		last.Note = v.note
	}
	// A header too long for the width is cut, never wrapped.
	head := HeaderIn(last, v.what, v.warning, w)
	return v.st.Dim.Render(head) + "\n" + UpdateText(v.last, w, rows, &v.st)
}

// lines prints each version as a JSON line (--json), or each new panel as
// plain text when standard output is not a terminal.
func lines(ctx context.Context, o Options, updates <-chan follow.Update, errc <-chan error) error {
	w := bufio.NewWriter(o.Out)
	st := render.PlainStyles()
	var prev *plan.Version
	var buf []byte
	source := ""
	saidNoPlan := false
	for {
		select {
		case u := <-updates:
			for _, line := range append(u.Warnings, u.Note) {
				if line != "" {
					fmt.Fprintln(o.ErrOut, "todo-shell: watch: "+render.Sanitize(line))
				}
			}
			if u.Source != source {
				prev, source = nil, u.Source
			}
			switch {
			case o.JSON:
				for _, v := range u.New {
					buf = plan.AppendRecord(buf[:0], v, plan.Changes(prev, v), plan.Check(v, o.Limits))
					buf = append(buf, '\n')
					_, _ = w.Write(buf) // a bufio.Writer keeps its first error: the Flush below reports it
					prev = v
				}
			case u.NoPlan && u.Version == nil:
				if !saidNoPlan { // once, not at every line the session adds
					fmt.Fprintf(w, "%s\n%s\n\n", Header(u, ""), UpdateText(u, 80, 0, &st))
					saidNoPlan = true
				}
			case len(u.New) > 0 || u.Version == nil:
				fmt.Fprintf(w, "%s\n%s\n\n", Header(u, ""), PanelText(u.Version, 80, 0, &st))
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

// Header is the line above the panel: what is watched, its version, a
// note (a switch to another session), and (when what is set: on a
// terminal) how to quit. It is neutralised.
func Header(u follow.Update, what string) string { return HeaderIn(u, what, "", 0) }

// HeaderIn is Header with extra (a warning) after the note, in at most
// width cells (0: no limit). When it must be cut, the version and "q
// quits" are kept whole: the name (the file or session, or what is
// watched while there is none) loses its middle, keeping its start and
// end, and the note and extra are cut at their end ("switched from b to
// a: b has ended" starts with what happened), or left out when there is
// no room for them.
func HeaderIn(u follow.Update, what, extra string, width int) string {
	var lead, name, ver, quits string
	var opt []string
	if u.Source == "" {
		if what == "" {
			return "no session yet"
		}
		lead, name, quits = "no session yet · ", render.Sanitize(what), " · q quits"
	} else {
		lead, name = "watching ", render.Sanitize(u.Source)
		if u.Version != nil {
			ver = " · v" + fmt.Sprint(u.Version.N)
		}
		if what != "" {
			quits = " · q quits"
		}
	}
	for _, o := range []string{u.Note, extra} {
		if o != "" {
			opt = append(opt, render.Sanitize(o))
		}
	}
	more := strings.Join(opt, " · ")
	join := func(name, more string) string {
		if more != "" {
			more = " · " + more
		}
		return lead + name + ver + more + quits
	}
	full := join(name, more)
	if width <= 0 || ansi.StringWidth(full) <= width {
		return full
	}
	room := width - ansi.StringWidth(lead+ver+quits) // for the name and what more there is
	const least = 8                                  // a name or note cut shorter tells nothing
	nameW, moreW := ansi.StringWidth(name), ansi.StringWidth(more)
	switch {
	case room < least:
		return render.Fit(full, width)
	case more == "" || room < 2*least+3:
		return join(render.FitMiddle(name, room), "")
	case nameW+3+min(moreW, 2*least) <= room:
		// The whole name, and as much more as there is room for.
		return join(name, render.Fit(more, room-nameW-3))
	default:
		// The name gets half the room, or what more leaves it.
		n := max(room/2, room-3-moreW)
		return join(render.FitMiddle(name, n), render.Fit(more, room-3-n))
	}
}

// PanelText is the task box of v in at most rows rows (0: no limit), or
// the waiting line.
func PanelText(v *plan.Version, width, rows int, st *render.Styles) string {
	if v == nil || len(v.Todos) == 0 {
		return st.Dim.Render(WaitingText)
	}
	snap := todo.Snapshot{Items: plan.Display(v), Version: uint64(v.N)}
	if rows > 0 {
		return strings.TrimSuffix(render.TaskBoxIn(snap, width, rows, st), "\n")
	}
	return strings.TrimSuffix(render.TaskBox(snap, width, st), "\n")
}

// UpdateText is the panel of an update, or why there is none.
func UpdateText(u follow.Update, width, rows int, st *render.Styles) string {
	if u.Version == nil && u.NoPlan {
		return st.Dim.Render(NoPlanText)
	}
	return PanelText(u.Version, width, rows, st)
}

// Styles returns the styles and width to draw with on out: plain and 80
// columns unless out is a terminal.
func Styles(out io.Writer, noColor bool) (render.Styles, int) {
	f, ok := out.(*os.File)
	if !ok || !painter.IsTerminal(f) {
		return render.PlainStyles(), 80
	}
	width := 80
	if w, _, err := painter.SizeOf(f); err == nil && w > 0 {
		width = w
	}
	st := render.StylesFor(noColor, painter.DarkFromEnv(os.Getenv))
	st.Anchored = true // a terminal (see render/cells.go)
	return st, width
}
