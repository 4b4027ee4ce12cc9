// Package replayui is the front end of `todo-shell replay`: a recorded
// session's plan played back on a terminal through the painter — lines
// scrolling above one task panel updated in place, the warnings as they
// happen — or printed as a timeline (--summary) or JSON lines (--json).
package replayui

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/todo-shell/todo-shell/internal/painter"
	"github.com/todo-shell/todo-shell/internal/plan"
	"github.com/todo-shell/todo-shell/internal/readgate"
	"github.com/todo-shell/todo-shell/internal/watchui"
	"github.com/todo-shell/todo-shell/render"
	"github.com/todo-shell/todo-shell/tools/todo"
)

// Options say what to replay and how.
type Options struct {
	File    string  // the transcript, todos.jsonl, tasks.jsonl, or opencode's database
	Session string  // in opencode's database, the session ("": the newest)
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
var ErrStepNeedsKeys = errors.New("--step needs a terminal on standard input for its keys")

// Run replays o.File until its end, q, or ctx's end.
func Run(ctx context.Context, o Options) error {
	orig, _, err := readgate.Open(o.File)
	if err != nil {
		return fmt.Errorf("replay: %s cannot be read: %s", render.Sanitize(o.File), readgate.Reason(err))
	}
	defer func() { _ = orig.Close() }() // only read
	// opencode's database is replayed as the export of a session.
	f, dbDone, name, err := opencodeDBAsExport(orig, o.File, o.Session)
	if err != nil {
		return fmt.Errorf("replay: %w", err)
	}
	defer dbDone()
	format := "" // the parser's
	if f != orig {
		format = opencodeDBFormat
	}
	o.File = name
	// A task plan's journal is replayed as the versions of its tasks.
	f, cleanup, err := taskJournalAsTodos(f)
	if err != nil {
		return fmt.Errorf("replay: %w", err)
	}
	defer cleanup()
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
	return printAll(o, f, format)
}

// printAll writes the timeline or the JSON lines. format, when not "",
// is what the timeline calls the file's format in place of the parser's.
func printAll(o Options, f io.Reader, format string) error {
	w := bufio.NewWriterSize(o.Out, 64<<10)
	defer func() { _ = w.Flush() }() // on an error return, that error is the one to report; see below
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
			buf = plan.AppendRecord(buf[:0], v, plan.Changes(prev, v), plan.Check(v, o.Limits))
			buf = append(buf, '\n')
			_, _ = w.Write(buf) // a bufio.Writer keeps its first error: the final Flush reports it
			prev = v
		}
	} else {
		tl = &timeline{w: w, limits: o.Limits, file: o.File, p: &p, format: format}
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
	if err := w.Flush(); err != nil {
		return fmt.Errorf("replay: %w", err)
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
	fmt.Fprintf(b.errOut, "todo-shell: replay: %s:%v (skipped)\n", render.Sanitize(b.file), render.Sanitize(strings.TrimPrefix(err.Error(), "line ")))
}

func (b *badLines) flushHeld() {
	if b.first != nil {
		fmt.Fprintf(b.errOut, "todo-shell: replay: %s:%v (skipped)\n", render.Sanitize(b.file), render.Sanitize(strings.TrimPrefix(b.first.Error(), "line ")))
		if b.held > 1 {
			fmt.Fprintf(b.errOut, "todo-shell: replay: %s: %d more unreadable %s before the first record\n", render.Sanitize(b.file), b.held-1, plural(b.held-1))
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
		return fmt.Errorf("replay: %s is not a transcript: no line is a record of todo-shell, Claude Code, Codex, Gemini CLI or opencode (%s:%v)",
			render.Sanitize(b.file), render.Sanitize(b.file), render.Sanitize(strings.TrimPrefix(b.first.Error(), "line ")))
	}
	return fmt.Errorf("replay: %s is not a transcript: it has no record of todo-shell, Claude Code, Codex, Gemini CLI or opencode", render.Sanitize(b.file))
}

// timeline prints the --summary blocks.
type timeline struct {
	w        *bufio.Writer
	limits   todo.Limits
	file     string
	p        *plan.Parser
	format   string // the file's format as said, when not the parser's
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
		t.header(v)
	}
	t.versions++
	c := plan.Changes(t.prev, v)
	problems := plan.Check(v, t.limits)
	done, active, pending := todo.Snapshot{Items: v.Todos}.Counts()
	when := "--:--:--"
	if !v.Time.IsZero() {
		when = v.Time.UTC().Format("15:04:05")
		if d := v.Time.Sub(t.start); d > 0 && t.versions > 1 {
			when += " (+" + elapsed(d) + ")"
		}
	}
	fmt.Fprintf(t.w, "\nv%d  %s  %d/%d done, %d in progress, %d pending  %s",
		v.N, when, done, len(v.Todos), active, pending, render.Sanitize(v.ToolUseID))
	if t.p.Format() != plan.FormatOpencodeExport { // one JSON document: every version is on line 1
		fmt.Fprintf(t.w, " (line %d)", v.Line)
	}
	_, _ = t.w.WriteString("\n")
	for _, s := range c.Added {
		fmt.Fprintf(t.w, "    + added      %s\n", render.Sanitize(s))
	}
	for _, r := range c.Renamed {
		fmt.Fprintf(t.w, "    ~ renamed    %s\n", render.Sanitize(r.String()))
	}
	for _, s := range c.Pending {
		fmt.Fprintf(t.w, "    %s pending    %s\n", render.IconPending, render.Sanitize(s))
	}
	for _, s := range c.Started {
		fmt.Fprintf(t.w, "    %s started    %s\n", render.IconActive, render.Sanitize(s))
	}
	for _, s := range c.Completed {
		fmt.Fprintf(t.w, "    %s completed  %s\n", render.IconDone, render.Sanitize(s))
	}
	for _, s := range c.Notes {
		fmt.Fprintf(t.w, "    · %s\n", render.Sanitize(s))
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

// header writes the timeline's first line, before its first version v.
func (t *timeline) header(v *plan.Version) {
	t.start = v.Time
	fmt.Fprintf(t.w, "%s (%s)", render.Sanitize(t.file), t.formatName())
	if !v.Time.IsZero() {
		fmt.Fprintf(t.w, ", from %s", v.Time.UTC().Format("2006-01-02 15:04:05 UTC"))
	}
	_, _ = t.w.WriteString("\n") // a bufio.Writer: the final Flush reports its error
}

// formatName is what the timeline calls the file's format.
func (t *timeline) formatName() string {
	if t.format != "" {
		return t.format
	}
	return t.p.Format().String()
}

func (t *timeline) finish() {
	if t.versions == 0 {
		fmt.Fprintf(t.w, "%s (%s): no plan versions in %d %s\n", render.Sanitize(t.file), t.formatName(), t.p.Lines(), plural(t.p.Lines()))
		if t.p.KeepsNoPlan() {
			fmt.Fprintf(t.w, "%s\n", watchui.NoPlanText)
		}
		return
	}
	if tool := t.p.MCPTool(); tool != "" {
		where := "the session's todos.jsonl in todo-shell's offload directory"
		if cwd := t.p.Cwd(); cwd != "" {
			// todo-shell mcp keeps its sessions in .offload/ of the directory it runs in.
			where = filepath.Join(cwd, ".offload") + "/SESSION/todos.jsonl (todo-shell sessions --offload-dir " + filepath.Join(cwd, ".offload") + ")"
		}
		fmt.Fprintf(t.w, "\nthe plan was kept by todo-shell over MCP (%s): its own record is %s\n", render.Sanitize(tool), render.Sanitize(where))
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

// plural is "line" or "lines".
func plural(n int) string {
	if n == 1 {
		return "line"
	}
	return "lines"
}
