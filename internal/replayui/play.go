package replayui

import (
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/todo-shell/todo-shell/internal/painter"
	"github.com/todo-shell/todo-shell/internal/plan"
	"github.com/todo-shell/todo-shell/render"
	"github.com/todo-shell/todo-shell/tools/todo"
)

// player draws a playback through the painter: lines printed above, the
// panel of the newest version as the live area.
type player struct {
	pnt    *painter.Painter
	styles render.Styles
	limits todo.Limits
	width  int
	rows   int
	prev   *plan.Version // the version shown last, for its changes
	status string        // a line under the panel (--step: where it is, the keys)
}

// draw shows the panel of v with the status line under it.
func (pl *player) draw(v *plan.Version) {
	view := strings.TrimSuffix(pl.panel(v), "\n")
	if pl.status != "" {
		if view != "" {
			view += "\n"
		}
		view += pl.styles.Dim.Render(render.Fit(pl.status, pl.width-1))
	}
	pl.pnt.SetView(view, nil)
}

// line returns an event as the shell shows it ("" for none).
func (pl *player) line(e plan.Event) string {
	switch e.Kind {
	case plan.KindCall:
		s := render.IconActive + " " + render.Sanitize(e.Text) + "(" + render.Sanitize(e.Detail) + ")"
		return pl.styles.Accent.Render(ansi.Truncate(s, pl.width-1, "…"))
	case plan.KindText:
		return ansi.Wrap(render.SanitizeOutput(e.Text), pl.width-1, "")
	case plan.KindFailed:
		// As the shell shows a failed call's result: under the call.
		s := "  ⎿ failed"
		if e.Reason != "" {
			s += ": " + render.Sanitize(e.Reason)
		}
		return pl.styles.Error.Render(render.Fit(s, pl.width-1))
	}
	return ""
}

// warnings are a version's warnings, as they happen: items dropped without
// being completed, and the rules it breaks.
func (pl *player) warnings(v *plan.Version) []string {
	var out []string
	for _, s := range plan.Changes(pl.prev, v).Dropped {
		out = append(out, pl.styles.Warning.Render(ansi.Truncate("! DROPPED without being completed: "+render.Sanitize(s), pl.width-1, "…")))
	}
	for _, s := range plan.Check(v, pl.limits) {
		out = append(out, pl.styles.Warning.Render(ansi.Truncate("! breaks a rule: "+render.Sanitize(s), pl.width-1, "…")))
	}
	return out
}

// panel is v's task box, in at most a third of the rows (never less than
// six), as the shell draws it.
func (pl *player) panel(v *plan.Version) string {
	if v == nil {
		return ""
	}
	snap := todo.Snapshot{Items: plan.Display(v), Version: uint64(v.N)}
	rows := max(6, pl.rows/3)
	w := min(pl.width-1, render.TaskBoxWidthIn(snap, rows))
	return render.TaskBoxIn(snap, w, rows, &pl.styles)
}

// show draws one event: a version updates the panel in place (its
// warnings printed above it); anything else is printed.
func (pl *player) show(e plan.Event) {
	if e.Kind == plan.KindVersion {
		for _, w := range pl.warnings(e.Version) {
			pl.pnt.Print(w)
		}
		pl.draw(e.Version)
		pl.prev = e.Version
		return
	}
	if l := pl.line(e); l != "" {
		pl.pnt.Print(l)
	}
}

// play plays f back on the terminal out; in (nil for none) is the
// terminal the keys come from.
func play(ctx context.Context, o Options, f *os.File, in, out *os.File) error {
	tty, err := painter.Open(in, out, painter.Modes{Raw: in != nil})
	if err != nil {
		return err
	}
	defer func() { _ = tty.Close() }() // the terminal as it was, however it went
	keys := make(chan painter.Key, 16)
	if tty.In != nil {
		go painter.ReadKeys(tty.In, keys)
	}
	pnt := painter.New(painter.Writer(out, os.Environ()), tty.Size)
	pl := &player{pnt: pnt, styles: styles(o.NoColor), limits: o.Limits, width: 80, rows: 24}
	if w, h, err := tty.Size(); err == nil && w > 0 && h > 0 {
		pl.width, pl.rows = w, h
	}
	pnt.SetSize(pl.width, pl.rows)
	pnt.Start()
	defer func() {
		pnt.Stop()
		// The panel ends without a newline: the shell's prompt after
		// replay starts on a line of its own.
		if pl.drawn() {
			_, _ = out.WriteString("\r\n")
		}
	}()
	p := plan.Parser{Playback: true}
	lines := &badLines{file: o.File, p: &p, errOut: io.Discard}
	if o.Step {
		return playSteps(o, f, &p, lines, pl, keys)
	}
	return playTimed(ctx, o, f, &p, lines, pl, keys)
}

// playSteps plays f back one event a key (--step).
func playSteps(o Options, f *os.File, p *plan.Parser, lines *badLines, pl *player, keys <-chan painter.Key) error {
	var events []plan.Event
	if err := plan.Scan(f, p, func(e plan.Event) { events = append(events, e) }, lines.add); err != nil {
		return fmt.Errorf("replay: %s: %w", o.File, err)
	}
	if err := lines.finish(); err != nil {
		return err
	}
	return stepThrough(pl, events, keys)
}

// playTimed plays f back at the pace it was recorded, times o.Speed, until
// its end, q or ctx's end.
func playTimed(ctx context.Context, o Options, f *os.File, p *plan.Parser, lines *badLines, pl *player, keys <-chan painter.Key) error {
	c := &clock{speed: o.Speed, keys: keys, ctx: ctx}
	versions := 0
	emit := func(e plan.Event) {
		if c.stopped {
			return
		}
		if !c.wait(e.Time) {
			_ = f.Close() // ends the scan
			return
		}
		if e.Kind == plan.KindVersion {
			versions++
		}
		pl.show(e)
	}
	err := plan.Scan(f, p, emit, lines.add)
	if c.stopped {
		return nil
	}
	if err != nil {
		return fmt.Errorf("replay: %s: %w", o.File, err)
	}
	if err := lines.finish(); err != nil {
		return err
	}
	pl.pnt.Print(pl.styles.Dim.Render(render.Fit("— end of replay: "+strconv.Itoa(versions)+" plan versions —", pl.width-1)))
	return nil
}

// drawn reports whether a panel (or a status line) is on the screen.
func (pl *player) drawn() bool { return pl.prev != nil || pl.status != "" }

// clock keeps a playback's pace: the recorded gap before each event,
// divided by the speed and capped at one second; q (or ctx's end) stops it.
type clock struct {
	speed   float64
	keys    <-chan painter.Key
	ctx     context.Context
	prev    time.Time
	stopped bool
}

// wait waits for the event recorded at t; false means stop.
func (c *clock) wait(t time.Time) bool {
	if c.quit() {
		return false
	}
	var gap time.Duration
	if !c.prev.IsZero() && !t.IsZero() {
		gap = min(max(time.Duration(float64(t.Sub(c.prev))/c.speed), 0), time.Second)
	}
	if !t.IsZero() {
		c.prev = t
	}
	if gap <= 0 {
		return true
	}
	timer := time.NewTimer(gap)
	defer timer.Stop()
	for {
		select {
		case <-timer.C:
			return true
		case k, ok := <-c.keys:
			if !ok {
				c.keys = nil // no more keys: play on
				continue
			}
			if k == painter.KeyQuit {
				c.stopped = true
				return false
			}
		case <-c.ctx.Done():
			c.stopped = true
			return false
		}
	}
}

// quit takes the keys pressed so far: true when one was q.
func (c *clock) quit() bool {
	for {
		select {
		case k, ok := <-c.keys:
			if !ok {
				c.keys = nil
				return false
			}
			if k == painter.KeyQuit {
				c.stopped = true
				return true
			}
		case <-c.ctx.Done():
			c.stopped = true
			return true
		default:
			return false
		}
	}
}

// stepThrough shows events one at a time: space or → (also Enter, j, l,
// n) next, ← (also h, k, p) back, q quit. Under the panel a line says
// which plan version is shown, of how many, and the keys.
func stepThrough(pl *player, events []plan.Event, keys <-chan painter.Key) error {
	if len(events) == 0 {
		pl.pnt.Print("no events to replay")
		return nil
	}
	// upTo[i] is the number of the plan versions among events[:i+1].
	upTo := make([]int, len(events))
	total := 0
	for i, e := range events {
		if e.Kind == plan.KindVersion {
			total++
		}
		upTo[i] = total
	}
	at := 0
	setStatus := func() { pl.status = StepStatus(upTo[at], total, at == 0, at == len(events)-1) }
	defer func() {
		// The keys mean nothing once replay has quit: the panel stays.
		pl.status = ""
		pl.draw(pl.prev)
	}()
	setStatus()
	pl.show(events[0])
	pl.draw(pl.prev)
	for k := range keys {
		switch k {
		case painter.KeyQuit:
			return nil
		case painter.KeyNext:
			if at+1 < len(events) {
				at++
				setStatus()
				pl.show(events[at])
				pl.draw(pl.prev)
			}
		case painter.KeyBack:
			if at > 0 {
				at--
				setStatus()
				pl.redrawTo(events, at)
			}
		}
	}
	return nil
}

// StepStatus is the line under replay --step's panel: the plan version
// shown (n of total) and the keys that do something there.
func StepStatus(n, total int, first, last bool) string {
	s := "version " + strconv.Itoa(n) + "/" + strconv.Itoa(total)
	if last {
		s += " (end)"
	} else {
		s += " · space/→ next"
	}
	if !first {
		s += " · ← back"
	}
	return s + " · q quit"
}

// redrawTo redraws from scratch: the lines of the last screenful up to
// step at, and the panel as it stood then. Each version's warnings are
// printed where stepping forward printed them: stepping back to a
// version shows what stepping forward to it showed.
func (pl *player) redrawTo(events []plan.Event, at int) {
	pl.pnt.Clear()
	from := max(0, at-200)
	pl.prev = nil
	for i := 0; i <= at; i++ {
		e := events[i]
		if e.Kind == plan.KindVersion {
			if i >= from {
				for _, w := range pl.warnings(e.Version) {
					pl.pnt.Print(w)
				}
			}
			pl.prev = e.Version
			continue
		}
		if i >= from {
			if l := pl.line(e); l != "" {
				pl.pnt.Print(l)
			}
		}
	}
	pl.draw(pl.prev)
}

// styles are the colours to draw with: none with noColor, else for the
// background COLORFGBG tells (dark when it tells nothing; replay asks the
// terminal nothing).
func styles(noColor bool) render.Styles {
	st := render.StylesFor(noColor, painter.DarkFromEnv(os.Getenv))
	st.Anchored = true // on a terminal (see render/cells.go)
	return st
}
