package cmd

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/term"
	"github.com/muesli/termenv"
	"github.com/spf13/cobra"

	"github.com/todo-shell/todo-shell/internal/live"
	"github.com/todo-shell/todo-shell/internal/plan"
	"github.com/todo-shell/todo-shell/internal/readgate"
	"github.com/todo-shell/todo-shell/render"
	"github.com/todo-shell/todo-shell/tools/todo"
)

// ReplayOptions are the flags of `todo-shell replay`.
type ReplayOptions struct {
	*Options
	File    string
	Summary bool
	JSON    bool
	Step    bool
	Speed   float64
}

func newCmdReplay(o *Options) *cobra.Command {
	ro := &ReplayOptions{Options: o}
	cmd := &cobra.Command{
		Use:   "replay <file>",
		Short: "Replay how a recorded session's plan evolved",
		Long: `Replay reads a todo-shell transcript.jsonl or todos.jsonl, or a Claude Code session
transcript (~/.claude/projects/<dir>/<uuid>.jsonl), and shows each version of the plan.

On a terminal it plays the session back in the shell's look: each tool call as a line,
the assistant's text, and the task panel as each plan version arrives. With --summary,
or whenever standard output is not a terminal, it prints a timeline: one block per
version with its counts and what changed (added, started, completed, and items
dropped without being completed, flagged), plus every rule of todo-shell's validator
the version breaks. --json prints one object per version.`,
		Example: `  $ todo-shell replay .offload/my-session/transcript.jsonl
  $ todo-shell replay --step ~/.claude/projects/-home-me-app/6f1c2a9e.jsonl
  $ todo-shell replay --summary .offload/my-session/todos.jsonl
  $ todo-shell replay --json session.jsonl | jq '.dropped'`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return &UsageError{fmt.Errorf("replay takes one FILE")}
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			ro.File = args[0]
			if ro.Speed <= 0 {
				return &UsageError{fmt.Errorf("--speed must be more than 0, got %g", ro.Speed)}
			}
			if ro.JSON && (ro.Summary || ro.Step) {
				return &UsageError{fmt.Errorf("--json cannot be used with --summary or --step")}
			}
			return replayRun(ro)
		},
	}
	f := cmd.Flags()
	f.BoolVar(&ro.Summary, "summary", false, "print the timeline of plan versions (the default when stdout is not a terminal)")
	f.BoolVar(&ro.JSON, "json", false, "print one JSON object per plan version")
	f.BoolVar(&ro.Step, "step", false, "step through the playback: → or space next, ← back, q quit")
	f.Float64Var(&ro.Speed, "speed", 1, "play N times faster than recorded (each gap is capped at one second)")
	return cmd
}

func replayRun(ro *ReplayOptions) error {
	limits, err := limitsOf(ro.Options)
	if err != nil {
		return err
	}
	if fi, err := os.Stat(ro.File); err == nil && fi.IsDir() {
		return taskListReplayError(render.Sanitize(ro.File))
	}
	f, _, err := readgate.Open(ro.File)
	if err != nil {
		return fmt.Errorf("replay: %s cannot be read: %s", render.Sanitize(ro.File), readgate.Reason(err))
	}
	defer func() { _ = f.Close() }() // only read
	out := ro.Streams.Out
	if !ro.JSON && !ro.Summary && isTerminal(out) {
		in, ok := ro.Streams.In.(*os.File)
		if !ok || !isTerminal(in) {
			if ro.Step {
				return &UsageError{fmt.Errorf("--step needs a terminal on standard input for its keys")}
			}
			in = nil // play without keys
		}
		return replayPlay(ro, f, in, out.(*os.File))
	}
	w := bufio.NewWriterSize(out, 64<<10)
	defer func() { _ = w.Flush() }() // on an error return, that error is the one to report; see below
	var p plan.Parser
	lines := &badLines{file: ro.File, p: &p, errOut: ro.Streams.ErrOut}
	var emit func(plan.Event)
	var tl *timeline
	if ro.JSON {
		var prev *plan.Version
		var buf []byte
		emit = func(e plan.Event) {
			if e.Kind != plan.KindVersion {
				return
			}
			v := e.Version
			buf = plan.AppendRecord(buf[:0], v, plan.Changes(prev, v), plan.Check(v, limits))
			buf = append(buf, '\n')
			_, _ = w.Write(buf) // a bufio.Writer keeps its first error: the final Flush reports it
			prev = v
		}
	} else {
		tl = &timeline{w: w, limits: limits, file: ro.File, p: &p}
		emit = tl.add
	}
	if err := plan.Scan(f, &p, emit, lines.add); err != nil {
		return fmt.Errorf("replay: %s: %w", ro.File, err)
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
		fmt.Fprintf(t.w, "%s (%s)", render.Sanitize(t.file), t.p.Format())
		if !v.Time.IsZero() {
			fmt.Fprintf(t.w, ", from %s", v.Time.UTC().Format("2006-01-02 15:04:05 UTC"))
		}
		_, _ = t.w.WriteString("\n") // a bufio.Writer: the final Flush reports its error
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
	fmt.Fprintf(t.w, "\nv%d  %s  %d/%d done, %d in progress, %d pending  %s (line %d)\n",
		v.N, when, done, len(v.Todos), active, pending, render.Sanitize(v.ToolUseID), v.Line)
	for _, s := range c.Added {
		fmt.Fprintf(t.w, "    + added      %s\n", render.Sanitize(s))
	}
	for _, r := range c.Renamed {
		fmt.Fprintf(t.w, "    ~ renamed    %s → %s\n", render.Sanitize(r.From), render.Sanitize(r.To))
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

func (t *timeline) finish() {
	if t.versions == 0 {
		fmt.Fprintf(t.w, "%s (%s): no plan versions in %d %s\n", render.Sanitize(t.file), t.p.Format(), t.p.Lines(), plural(t.p.Lines(), "line", "lines"))
		if t.p.KeepsNoPlan() {
			fmt.Fprintf(t.w, "%s\n", noPlanText)
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

// player draws a playback on a terminal.
type player struct {
	scroll *live.Scroll
	styles render.Styles
	width  int
}

// line returns an event as the shell shows it ("" for none).
func (pl *player) line(e plan.Event) string {
	switch e.Kind {
	case plan.KindCall:
		s := render.IconActive + " " + render.Sanitize(e.Text) + "(" + render.Sanitize(e.Detail) + ")"
		return pl.styles.Accent.Render(ansi.Truncate(s, pl.width, "…"))
	case plan.KindText:
		return ansi.Wrap(render.SanitizeOutput(e.Text), pl.width, "")
	}
	return ""
}

func (pl *player) panel(v *plan.Version) string {
	if v == nil {
		return ""
	}
	return render.TaskBox(todo.Snapshot{Items: plan.Display(v), Version: uint64(v.N)}, pl.width, &pl.styles)
}

// show draws one event.
func (pl *player) show(e plan.Event) {
	if e.Kind == plan.KindVersion {
		pl.scroll.SetPanel(pl.panel(e.Version))
		return
	}
	pl.scroll.Print(pl.line(e))
}

// replayPlay plays f back on the terminal out; in (nil for none) is the
// terminal the keys come from.
func replayPlay(ro *ReplayOptions, f *os.File, in, out *os.File) error {
	width := 80
	if w, _, err := term.GetSize(out.Fd()); err == nil && w > 0 {
		width = w
	}
	r := lipgloss.NewRenderer(out)
	if ro.NoColor || ro.Getenv("NO_COLOR") != "" {
		r.SetColorProfile(termenv.Ascii)
	}
	r.SetHasDarkBackground(true)
	keys := make(chan live.Key, 16)
	if in != nil {
		state, err := term.MakeRaw(in.Fd())
		if err != nil {
			return err
		}
		defer func() { _ = term.Restore(in.Fd(), state) }() // on the way out: nothing left to do if it fails
		go live.ReadKeys(in, keys)
	}
	_, _ = out.WriteString(ansi.HideCursor) // the terminal: nothing to do on failure
	defer func() { _, _ = out.WriteString(ansi.ShowCursor) }()
	pl := &player{scroll: live.NewScroll(out), styles: render.DefaultStyles(r), width: width}
	p := plan.Parser{Playback: true}
	lines := &badLines{file: ro.File, p: &p, errOut: io.Discard}

	if ro.Step {
		var events []plan.Event
		if err := plan.Scan(f, &p, func(e plan.Event) { events = append(events, e) }, lines.add); err != nil {
			return fmt.Errorf("replay: %s: %w", ro.File, err)
		}
		if err := lines.finish(); err != nil {
			return err
		}
		return stepThrough(pl, events, keys)
	}

	var prev time.Time
	var stopped bool
	versions := 0
	emit := func(e plan.Event) {
		if stopped {
			return
		}
		if e.Kind == plan.KindVersion {
			versions++
		}
		select {
		case k := <-keys:
			if k == live.KeyQuit {
				stopped = true
				_ = f.Close() // ends the scan (only read)
				return
			}
		default:
		}
		if !prev.IsZero() && !e.Time.IsZero() && e.Kind != plan.KindVersion {
			gap := time.Duration(float64(e.Time.Sub(prev)) / ro.Speed)
			gap = min(max(gap, 0), time.Second)
			if gap > 0 {
				timer := time.NewTimer(gap)
				select {
				case <-timer.C:
				case k := <-keys:
					timer.Stop()
					if k == live.KeyQuit {
						stopped = true
						_ = f.Close() // ends the scan (only read)
						return
					}
				}
			}
		}
		if !e.Time.IsZero() {
			prev = e.Time
		}
		pl.show(e)
	}
	err := plan.Scan(f, &p, emit, lines.add)
	if stopped {
		return nil
	}
	if err != nil {
		return fmt.Errorf("replay: %s: %w", ro.File, err)
	}
	if err := lines.finish(); err != nil {
		return err
	}
	pl.scroll.Print(pl.styles.Dim.Render("— end of replay: " + strconv.Itoa(versions) + " plan versions —"))
	return nil
}

// stepThrough shows events one at a time: → or space next, ← back, q quit.
func stepThrough(pl *player, events []plan.Event, keys <-chan live.Key) error {
	if len(events) == 0 {
		pl.scroll.Print("no events to replay")
		return nil
	}
	hint := pl.styles.Dim.Render("→/space next · ← back · q quit")
	at := 0
	pl.show(events[0])
	for {
		k := <-keys
		switch k {
		case live.KeyQuit:
			return nil
		case live.KeyNext:
			if at+1 < len(events) {
				at++
				pl.show(events[at])
			} else {
				pl.scroll.Print(hint + pl.styles.Dim.Render(" (end)"))
			}
		case live.KeyBack:
			if at == 0 {
				continue
			}
			at--
			// Redraw from scratch: the lines of the last screenful up to
			// the step, and the panel as it stood then.
			pl.scroll.Clear()
			from := max(0, at-200)
			var last *plan.Version
			for i := 0; i <= at; i++ {
				if events[i].Kind == plan.KindVersion {
					last = events[i].Version
				}
			}
			for i := from; i <= at; i++ {
				if events[i].Kind != plan.KindVersion {
					pl.scroll.Print(pl.line(events[i]))
				}
			}
			pl.scroll.SetPanel(pl.panel(last))
		}
	}
}
