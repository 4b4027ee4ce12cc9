// Package replayui is the front end of `todo-shell replay`: a recorded
// session's plan played back on a terminal through the painter — lines
// scrolling above one task panel updated in place, the warnings as they
// happen — or printed as a timeline (--summary) or JSON lines (--json).
package replayui

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/todo-shell/todo-shell/internal/painter"
	"github.com/todo-shell/todo-shell/internal/plan"
	"github.com/todo-shell/todo-shell/render"
	"github.com/todo-shell/todo-shell/tools/todo"
)

// Options say what to replay and how.
type Options struct {
	File    string  // the transcript or todos.jsonl
	Summary bool    // print the timeline
	JSON    bool    // print one JSON object per version
	Step    bool    // step with the keys instead of playing
	Speed   float64 // play this many times faster than recorded (> 0)
	NoColor bool
	Limits  todo.Limits
	In      io.Reader // the keys: a terminal, or anything else for none
	Out     io.Writer
	ErrOut  io.Writer
}

// ErrStepNeedsKeys is returned for Step without a terminal to read keys from.
var ErrStepNeedsKeys = fmt.Errorf("--step needs a terminal on standard input for its keys")

// Run replays o.File until its end, q, or ctx's end.
func Run(ctx context.Context, o Options) error {
	f, err := os.Open(o.File)
	if err != nil {
		return fmt.Errorf("replay: %w", err)
	}
	defer func() { _ = f.Close() }() // read only
	out, isFile := o.Out.(*os.File)
	if !o.JSON && !o.Summary && isFile && painter.IsTerminal(out) {
		in, ok := o.In.(*os.File)
		if !ok || !painter.IsTerminal(in) {
			if o.Step {
				return ErrStepNeedsKeys
			}
			in = nil // play without keys
		}
		return play(ctx, o, f, in, out)
	}
	return printAll(o, f)
}

// printAll writes the timeline or the JSON lines.
func printAll(o Options, f io.Reader) error {
	w := bufio.NewWriterSize(o.Out, 64<<10)
	defer func() { _ = w.Flush() }() // a reader that went away: nothing to tell
	var p plan.Parser
	lines := &badLines{file: o.File, p: &p, errOut: o.ErrOut}
	var emit func(plan.Event)
	var tl *timeline
	if o.JSON {
		var prev *plan.Version
		var buf []byte
		emit = func(e plan.Event) {
			if e.Kind != plan.KindVersion {
				return
			}
			v := e.Version
			buf = plan.AppendRecord(buf[:0], v, plan.Changes(prev, v), plan.Problems(v.Todos, o.Limits))
			buf = append(buf, '\n')
			_, _ = w.Write(buf) // an error shows in Flush
			prev = v
		}
	} else {
		tl = &timeline{w: w, limits: o.Limits, file: o.File, p: &p}
		emit = tl.add
	}
	if err := plan.Scan(f, &p, emit, lines.add); err != nil {
		return fmt.Errorf("replay: %s: %w", o.File, err)
	}
	if err := lines.finish(); err != nil {
		return err
	}
	if tl != nil {
		tl.finish()
	}
	return nil
}

// badLines reports lines the parser cannot read: as warnings once the file
// has shown it is a transcript, and as the reason it is not one otherwise.
type badLines struct {
	file   string
	p      *plan.Parser
	errOut io.Writer
	first  error
	held   int
}

func (b *badLines) add(err error) {
	if b.p.Records() == 0 {
		if b.first == nil {
			b.first = err
		}
		b.held++
		return
	}
	b.flushHeld()
	fmt.Fprintf(b.errOut, "todo-shell: replay: %s:%v (skipped)\n", b.file, strings.TrimPrefix(err.Error(), "line "))
}

func (b *badLines) flushHeld() {
	if b.first != nil {
		fmt.Fprintf(b.errOut, "todo-shell: replay: %s:%v (skipped)\n", b.file, strings.TrimPrefix(b.first.Error(), "line "))
		if b.held > 1 {
			fmt.Fprintf(b.errOut, "todo-shell: replay: %s: %d more unreadable lines before the first record\n", b.file, b.held-1)
		}
		b.first = nil
	}
}

// finish returns the error for a file with no record at all.
func (b *badLines) finish() error {
	if b.p.Records() > 0 {
		b.flushHeld()
		return nil
	}
	if b.first != nil {
		return fmt.Errorf("replay: %s is not a transcript: no line is a todo-shell or Claude Code record (%s:%v)",
			b.file, b.file, strings.TrimPrefix(b.first.Error(), "line "))
	}
	return fmt.Errorf("replay: %s is not a transcript: it has no todo-shell or Claude Code record", b.file)
}

// timeline prints the --summary blocks.
type timeline struct {
	w        *bufio.Writer
	limits   todo.Limits
	file     string
	p        *plan.Parser
	prev     *plan.Version
	start    time.Time
	versions int
	dropped  int
	broken   int
}

func (t *timeline) add(e plan.Event) {
	if e.Kind != plan.KindVersion {
		return
	}
	v := e.Version
	if t.versions == 0 {
		t.start = v.Time
		fmt.Fprintf(t.w, "%s (%s)", t.file, t.p.Format())
		if !v.Time.IsZero() {
			fmt.Fprintf(t.w, ", from %s", v.Time.UTC().Format("2006-01-02 15:04:05 UTC"))
		}
		_ = t.w.WriteByte('\n') // an error shows in Flush
	}
	t.versions++
	c := plan.Changes(t.prev, v)
	problems := plan.Problems(v.Todos, t.limits)
	done, active, pending := todo.Snapshot{Items: v.Todos}.Counts()
	when := "--:--:--"
	if !v.Time.IsZero() {
		when = v.Time.UTC().Format("15:04:05")
		if d := v.Time.Sub(t.start); d > 0 && t.versions > 1 {
			when += " (+" + elapsed(d) + ")"
		}
	}
	fmt.Fprintf(t.w, "\nv%d  %s  %d/%d done, %d in progress, %d pending  %s (line %d)\n",
		v.N, when, done, len(v.Todos), active, pending, v.ToolUseID, v.Line)
	for _, s := range c.Added {
		fmt.Fprintf(t.w, "    + added      %s\n", render.Sanitize(s))
	}
	for _, s := range c.Started {
		fmt.Fprintf(t.w, "    %s started    %s\n", render.IconActive, render.Sanitize(s))
	}
	for _, s := range c.Completed {
		fmt.Fprintf(t.w, "    %s completed  %s\n", render.IconDone, render.Sanitize(s))
	}
	for _, s := range c.Dropped {
		fmt.Fprintf(t.w, "    ! DROPPED without being completed: %s\n", render.Sanitize(s))
	}
	for _, s := range problems {
		fmt.Fprintf(t.w, "    ! breaks a rule: %s\n", render.Sanitize(s))
	}
	t.dropped += len(c.Dropped)
	if len(problems) > 0 {
		t.broken++
	}
	t.prev = v
}

func (t *timeline) finish() {
	if t.versions == 0 {
		fmt.Fprintf(t.w, "%s (%s): no plan versions in %d lines\n", t.file, t.p.Format(), t.p.Lines())
		return
	}
	fmt.Fprintf(t.w, "\n%s; %s dropped without being completed; %s a rule\n",
		count(t.versions, "version", "versions"), count(t.dropped, "item", "items"), count(t.broken, "version breaks", "versions break"))
}

// count is "1 thing" or "n things".
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// elapsed formats a duration as m:ss or h:mm:ss.
func elapsed(d time.Duration) string {
	s := int(d.Round(time.Second) / time.Second)
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}
