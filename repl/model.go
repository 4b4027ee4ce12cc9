// Package repl is todo-shell's interactive front end: one Bubble Tea model
// drawn inline in the terminal (no alternate screen), with the live task
// panel and the running command above the prompt and finished output printed
// into the terminal's own scrollback.
package repl

import (
	"context"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/spinner"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/todo-shell/todo-shell/render"
	"github.com/todo-shell/todo-shell/router"
	"github.com/todo-shell/todo-shell/tools/todo"
)

// Config is what the shell works with; front ends build it.
type Config struct {
	Shell  *router.Shell
	Store  *todo.Store
	Styles render.Styles
	Dir    func() string    // the working directory, for the prompt
	Now    func() time.Time // nil means time.Now
	Trace  bool             // start with /trace on

	// Agent, when set, turns the shell into agent mode: plain lines are
	// prompts to it; lines starting with '!' run bash.
	Agent Agent

	// Screen, when set, draws the shell instead of Bubble Tea's renderer
	// (run the program with tea.WithoutRenderer): it redraws only on change,
	// so the shell costs no CPU at its prompt.
	Screen *Screen

	// Transcript, when set, receives a copy of every block printed into the
	// scrollback (tests use it; it must not block).
	Transcript io.Writer
}

// Tunables of the live area.
const (
	tailLines      = 5        // output lines shown under a running command
	tailBytes      = 16 << 10 // bytes of output kept for them
	maxPanelWidth  = 100      // the task box is never wider
	previewShown   = 10       // preview lines under an offload pointer
	doubleCtrlCMsg = "Press Ctrl+C again to exit"
)

// Model is the shell's one Bubble Tea model.
type Model struct {
	cfg    Config
	keys   keyMap
	sub    *todo.Subscription
	styles *render.Styles

	width int
	input textinput.Model
	spin  spinner.Model

	history  []string
	histPos  int    // len(history) when not browsing
	draft    string // the line being typed before browsing history
	pending  []string
	queue    []string // complete lines waiting for the running one
	snap     todo.Snapshot
	height   int         // terminal rows, 0 when unknown
	panels   *panelCache // the task panel drawn last, shared by copies
	running  *run
	runs     int // runs started, to tell stale messages apart
	trace    bool
	armed    bool // Ctrl+C was pressed on an empty line
	hint     string
	quitting bool
	frame    string // with a Screen: the live area drawn after the last update
}

// run is the command in flight.
type run struct {
	id      int
	line    string
	started time.Time
	elapsed time.Duration
	cancel  context.CancelFunc
	tail    *tailBuffer
	lines   []string

	events agentEvents // a prompt's events; nil for a command
	stream string      // assistant text streaming in
}

var _ tea.Model = Model{}

// New returns the shell model. It subscribes to the store at once, so no
// change is missed between New and Init.
func New(cfg Config) Model {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Dir == nil {
		cfg.Dir = func() string { return "" }
	}
	in := textinput.New()
	in.Cursor.SetMode(cursor.CursorStatic) // nothing animates at idle
	in.Focus()
	in.Prompt = ""
	sp := spinner.New(spinner.WithSpinner(spinner.MiniDot))
	m := Model{
		cfg:   cfg,
		keys:  defaultKeyMap(),
		sub:   cfg.Store.Subscribe(),
		input: in,
		spin:  sp,
		snap:  cfg.Store.Snapshot(),
		trace: cfg.Trace,
		width: 80,
	}
	m.styles = &cfg.Styles // shared by every copy of the model
	m.panels = new(panelCache)
	m.spin.Style = m.styles.Accent
	m.input.PromptStyle = m.styles.Prompt
	m.layout()
	if cfg.Screen != nil {
		m.frame = m.draw()
	}
	return m
}

// Messages.
type (
	todosChangedMsg struct{ snap todo.Snapshot }
	outputMsg       struct{ id int }
	runDoneMsg      struct {
		id  int
		out router.Output
	}
)

// Init starts listening for store changes.
func (m Model) Init() tea.Cmd {
	return waitTodos(m.sub)
}

// waitTodos waits for the next store change.
func waitTodos(sub *todo.Subscription) tea.Cmd {
	return func() tea.Msg {
		snap, ok := <-sub.C()
		if !ok {
			return nil
		}
		return todosChangedMsg{snap}
	}
}

// waitOutput waits for news from a running command's output.
func waitOutput(id int, t *tailBuffer) tea.Cmd {
	return func() tea.Msg {
		if _, ok := <-t.notify; !ok {
			return nil
		}
		return outputMsg{id}
	}
}

// runLine runs a classified line through the shell.
func runLine(ctx context.Context, sh *router.Shell, id int, line router.Line, t *tailBuffer) tea.Cmd {
	return func() tea.Msg {
		out := sh.Run(ctx, line, t)
		t.close()
		return runDoneMsg{id: id, out: out}
	}
}

// Update handles one message and, with a Screen, hands it the new view.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	next, cmd := m.update(msg)
	if scr := m.cfg.Screen; scr != nil {
		if ws, ok := msg.(tea.WindowSizeMsg); ok {
			scr.SetSize(ws.Width, ws.Height)
		}
		nm := next.(Model)
		nm.frame = nm.draw()
		scr.SetView(nm.frame)
		next = nm
	}
	return next, cmd
}

func (m Model) update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.layout()
		return m, nil
	case todosChangedMsg:
		m.snap = msg.snap
		m.layout()
		return m, waitTodos(m.sub)
	case outputMsg:
		if m.running == nil || m.running.id != msg.id {
			return m, nil
		}
		m.running.lines = m.running.tail.lines(tailLines)
		return m, waitOutput(m.running.id, m.running.tail)
	case runDoneMsg:
		if m.running == nil || m.running.id != msg.id {
			return m, nil
		}
		m.running.cancel()
		m.running = nil
		m.hint = ""
		return m.finish(m.println(m.formatOutput(msg.out)))
	case spinner.TickMsg:
		if m.running == nil {
			return m, nil // stop ticking: nothing animates at idle
		}
		m.running.elapsed = m.cfg.Now().Sub(m.running.started)
		var cmd tea.Cmd
		m.spin, cmd = m.spin.Update(msg)
		return m, cmd
	case agentEventMsg:
		return m.handleAgentEvent(msg)
	case tea.KeyMsg:
		return m.handleKey(msg)
	}
	return m, nil
}

func (m Model) handleKey(msg tea.KeyMsg) (tea.Model, tea.Cmd) {
	if msg.Paste {
		return m.paste(string(msg.Runes))
	}
	if !key.Matches(msg, m.keys.Interrupt) {
		m.armed = false
		if m.hint == doubleCtrlCMsg {
			m.hint = ""
		}
	}
	switch {
	case key.Matches(msg, m.keys.Interrupt):
		return m.interrupt()
	case key.Matches(msg, m.keys.EOF):
		if m.input.Value() == "" && len(m.pending) == 0 {
			return m.quit()
		}
	case key.Matches(msg, m.keys.Clear):
		return m, m.clearScreen()
	case key.Matches(msg, m.keys.Submit):
		return m.submit(m.input.Value())
	case key.Matches(msg, m.keys.Prev):
		m.browse(-1)
		return m, nil
	case key.Matches(msg, m.keys.Next):
		m.browse(+1)
		return m, nil
	}
	var cmd tea.Cmd
	m.input, cmd = m.input.Update(msg)
	return m, cmd
}

// finish runs print once a line is done, then starts the next queued line.
func (m Model) finish(print tea.Cmd) (tea.Model, tea.Cmd) {
	if len(m.queue) == 0 {
		return m, print
	}
	next := m.queue[0]
	m.queue = m.queue[1:]
	m, start := m.execute(next)
	return m, tea.Sequence(print, start)
}

// interrupt is Ctrl+C: stop the running command, else clear the line, else
// (twice on an empty line) leave.
func (m Model) interrupt() (tea.Model, tea.Cmd) {
	switch {
	case m.running != nil:
		m.running.cancel()
		m.queue = nil
		m.hint = "Interrupting…"
		return m, nil
	case m.input.Value() != "" || len(m.pending) > 0:
		m.input.Reset()
		m.pending = nil
		m.histPos = len(m.history)
		m.layout()
		return m, nil
	case m.armed:
		return m.quit()
	}
	m.armed = true
	m.hint = doubleCtrlCMsg
	return m, nil
}

func (m Model) quit() (tea.Model, tea.Cmd) {
	if m.running != nil {
		m.running.cancel()
	}
	m.sub.Close()
	m.quitting = true
	return m, tea.Quit
}

// paste feeds pasted text line by line, as if each line had been typed and
// Enter pressed; the text after the last newline stays in the input.
func (m Model) paste(text string) (tea.Model, tea.Cmd) {
	text = strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\r", "\n")
	parts := strings.Split(text, "\n")
	var cmds []tea.Cmd
	for i, part := range parts {
		if i == len(parts)-1 {
			m.input.SetValue(m.input.Value() + part)
			m.input.CursorEnd()
			break
		}
		var cmd tea.Cmd
		var next tea.Model
		next, cmd = m.submit(m.input.Value() + part)
		m = next.(Model)
		cmds = append(cmds, cmd)
	}
	return m, tea.Sequence(cmds...)
}

// submit takes one physical line typed at the prompt.
func (m Model) submit(value string) (tea.Model, tea.Cmd) {
	echo := m.println(m.styles.Prompt.Render(m.promptText()) + render.Sanitize(value))
	m.input.Reset()
	m.hint = ""
	text := value
	if len(m.pending) > 0 {
		text = strings.Join(m.pending, "\n") + "\n" + value
	}
	if router.Incomplete(text) {
		m.pending = append(m.pending, value)
		m.layout()
		return m, echo
	}
	m.pending = nil
	m.addHistory(text)
	if strings.TrimSpace(text) == "" {
		m.layout()
		return m, echo
	}
	if m.running != nil {
		m.queue = append(m.queue, text)
		m.layout()
		return m, echo
	}
	var cmd tea.Cmd
	m, cmd = m.execute(text)
	return m, tea.Sequence(echo, cmd)
}

// execute starts a complete line: a builtin at once, anything else as a
// tool call in a command.
func (m Model) execute(text string) (Model, tea.Cmd) {
	line := router.Classify(text, m.cfg.Shell.Registry)
	switch line.Kind {
	case router.Empty:
		return m, nil
	case router.Builtin:
		b := m.cfg.Shell.Builtin(line)
		switch b.Action {
		case router.ActionExit:
			next, cmd := m.quit()
			return next.(Model), cmd
		case router.ActionClear:
			return m, m.clearScreen()
		case router.ActionTrace:
			m.trace = b.Trace
		}
		return m, m.println(m.formatText(b.Stdout, b.Stderr))
	}
	ctx, cancel := context.WithCancel(context.Background())
	m.runs++
	r := &run{id: m.runs, line: text, started: m.cfg.Now(), cancel: cancel, tail: newTailBuffer(tailBytes)}
	m.running = r
	m.layout()
	if m.cfg.Agent != nil && line.Kind == router.Bash && !line.Forced {
		r.events = make(agentEvents, 1024)
		return m, tea.Batch(
			runPrompt(ctx, m.cfg.Agent, line.Text, r.events),
			waitAgent(r.id, r.events),
			m.spin.Tick,
		)
	}
	return m, tea.Batch(
		runLine(ctx, m.cfg.Shell, r.id, line, r.tail),
		waitOutput(r.id, r.tail),
		m.spin.Tick,
	)
}

// println prints text into the scrollback above the live area (nothing for
// empty text), copying it to the transcript.
func (m Model) println(text string) tea.Cmd {
	if text == "" {
		return nil
	}
	if m.cfg.Transcript != nil {
		io.WriteString(m.cfg.Transcript, text+"\n")
	}
	// Wrap here rather than let the terminal do it: the renderer clears
	// only the rows it knows it wrote.
	if m.width > 0 {
		text = ansi.Hardwrap(text, m.width, true)
	}
	if m.cfg.Screen != nil {
		m.cfg.Screen.Print(text) // queued, in order; drawn by the Screen
		return nil
	}
	return tea.Println(text)
}

// clearScreen clears the terminal.
func (m Model) clearScreen() tea.Cmd {
	if m.cfg.Screen != nil {
		m.cfg.Screen.Clear()
		return nil
	}
	return tea.ClearScreen
}

// addHistory records a line, skipping blanks and repeats of the last one.
func (m *Model) addHistory(text string) {
	if strings.TrimSpace(text) != "" && (len(m.history) == 0 || m.history[len(m.history)-1] != text) {
		m.history = append(m.history, text)
	}
	m.histPos = len(m.history)
	m.draft = ""
}

// browse moves through history; a multi-line entry comes back on one line.
func (m *Model) browse(step int) {
	if len(m.history) == 0 {
		return
	}
	if m.histPos == len(m.history) {
		m.draft = m.input.Value()
	}
	pos := m.histPos + step
	if pos < 0 || pos > len(m.history) {
		return
	}
	m.histPos = pos
	if pos == len(m.history) {
		m.input.SetValue(m.draft)
	} else {
		m.input.SetValue(oneLine(m.history[pos]))
	}
	m.input.CursorEnd()
}

// oneLine joins a multi-line entry: backslash-newlines vanish, other newlines
// become spaces.
func oneLine(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "\\\n", ""), "\n", " ")
}

// layout recomputes what depends on the width, the list and the prompt.
func (m *Model) layout() {
	w := m.width
	if w <= 0 {
		w = 80
	}
	prompt := m.promptText()
	m.input.Prompt = prompt
	m.input.Width = max(w-ansi.StringWidth(prompt)-1, 1)
}

// promptText is "dir ❯ ", or "… " aligned under it for continuation lines.
func (m Model) promptText() string {
	base := filepath.Base(m.cfg.Dir())
	if base == "." || base == "" {
		base = "todo-shell"
	}
	main := render.Sanitize(base) + " ❯ "
	if len(m.pending) > 0 {
		return strings.Repeat(" ", max(ansi.StringWidth(main)-2, 0)) + "… "
	}
	return main
}
