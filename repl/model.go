// Package repl is todo-shell's interactive front end: one Bubble Tea model
// drawn inline in the terminal (no alternate screen), with the live task
// panel and the running command above the prompt and finished output printed
// into the terminal's own scrollback.
package repl

import (
	"context"
	"io"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/cursor"
	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/spinner"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/todo-shell/todo-shell/complete"
	"github.com/todo-shell/todo-shell/history"
	"github.com/todo-shell/todo-shell/interactive"
	"github.com/todo-shell/todo-shell/markdown"
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

	// History is the lasting history (see package history); nil keeps one
	// in memory.
	History *history.History
	// Terminal, when set, is handed to programs that need it (Interactive
	// lines and /tty); see handover.go.
	Terminal Terminal
	// Interactive tells which lines need the terminal; nil means none do
	// except /tty ones.
	Interactive *interactive.Detector
	// Completer completes words on Tab; nil turns Tab off.
	Completer *complete.Completer
	// Markdown, when set, renders the agent's answers with these styles;
	// nil prints them raw.
	Markdown *markdown.Styles
	// Pager is $PAGER, for /open.
	Pager string

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

	hist     *history.History
	histPos  int    // hist.Len() when not browsing
	draft    string // the line being typed before browsing history
	pending  []string
	queue    []string // complete lines waiting for the running one
	snap     todo.Snapshot
	panel    string // the drawn task box, "" when hidden
	running  *run
	runs     int // runs started, to tell stale messages apart
	trace    bool
	armed    bool // Ctrl+C was pressed on an empty line
	hint     string
	quitting bool
	frame    string // with a Screen: the live area drawn after the last update

	prompt    promptState
	search    *searchState      // Ctrl+R in progress
	tab       *tabState         // Tab completion in progress
	offloaded map[string]string // tool_use id → the line whose result was offloaded
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

	events  agentEvents // a prompt's events; nil for a command
	stream  string      // assistant text streaming in (not yet printed)
	printed int         // bytes of the current text block already printed
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
	hist := cfg.History
	if hist == nil {
		hist, _ = history.Open("")
	}
	m := Model{
		hist:      hist,
		histPos:   hist.Len(),
		offloaded: map[string]string{},
		cfg:       cfg,
		keys:      defaultKeyMap(),
		sub:       cfg.Store.Subscribe(),
		input:     in,
		spin:      sp,
		snap:      cfg.Store.Snapshot(),
		trace:     cfg.Trace,
		width:     80,
	}
	m.styles = &cfg.Styles // shared by every copy of the model
	m.spin.Style = m.styles.Accent
	m.input.PromptStyle = m.styles.Prompt
	m.refreshPrompt()
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
			scr.SetWidth(ws.Width)
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
		m.width = msg.Width
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
		m.noteOffload(msg.out, m.running.line)
		m.running = nil
		m.hint = ""
		m.prompt.status = msg.out.ExitCode
		m.refreshPrompt()
		m.layout()
		if msg.out.Help {
			msg.out.Stdout = render.WrapHelp(msg.out.Stdout, max(m.width-1, 20))
		}
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
	case handoverDoneMsg:
		return m.attachedDone(msg)
	case tea.KeyMsg:
		return m.handleKey(msg)
	}
	return m, nil
}

func (m Model) handleKey(msg tea.KeyMsg) (tea.Model, tea.Cmd) {
	if m.search != nil {
		return m.searchKey(msg)
	}
	if msg.Type == tea.KeyTab && !msg.Paste {
		return m.tabKey()
	}
	m.tab = nil
	if msg.Type == tea.KeyCtrlR {
		return m.startSearch()
	}
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
		m.histPos = m.hist.Len()
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
	next, cmd := m.run(text)
	return next, tea.Sequence(echo, cmd)
}

// submitWhole runs a complete entry (from Ctrl+R), echoing it whole.
func (m Model) submitWhole(text string) (tea.Model, tea.Cmd) {
	echo := m.println(m.styles.Prompt.Render(m.promptText()) + render.Sanitize(oneLine(text)))
	m.hint = ""
	next, cmd := m.run(text)
	return next, tea.Sequence(echo, cmd)
}

// run records a complete line in the history and runs it, or queues it
// behind the running one.
func (m Model) run(text string) (tea.Model, tea.Cmd) {
	m.addHistory(text)
	if strings.TrimSpace(text) == "" {
		m.layout()
		return m, nil
	}
	if m.running != nil {
		m.queue = append(m.queue, text)
		m.layout()
		return m, nil
	}
	return m.execute(text)
}

// execute starts a complete line: a builtin at once, anything else as a
// tool call in a command.
func (m Model) execute(text string) (Model, tea.Cmd) {
	line := router.Classify(text, m.cfg.Shell.Registry)
	switch line.Kind {
	case router.Empty:
		return m, nil
	case router.Builtin:
		if next, cmd, ok := m.frontBuiltin(line); ok {
			return next, cmd
		}
		b := m.cfg.Shell.Builtin(line)
		m.prompt.status = b.ExitCode
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
	if line.Kind == router.Bash && (m.cfg.Agent == nil || line.Forced) && m.cfg.Interactive != nil && m.cfg.Interactive.Needs(line.Text) {
		return m.attach(line.Text, text)
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

// addHistory records a line in the lasting history (which skips blanks,
// lines starting with a space and repeats of the last one). A failure to
// write the file is shown once as a hint; the line stays in memory.
func (m *Model) addHistory(text string) {
	if err := m.hist.Add(text); err != nil && m.hist.Path != "" {
		m.hint = err.Error() + " (history kept in memory only)"
		m.hist.Path = ""
	}
	m.histPos = m.hist.Len()
	m.draft = ""
}

// browse moves through history; a multi-line entry comes back on one line.
func (m *Model) browse(step int) {
	entries := m.hist.Entries()
	if len(entries) == 0 {
		return
	}
	if m.histPos >= len(entries) {
		m.histPos = len(entries)
		m.draft = m.input.Value()
	}
	pos := m.histPos + step
	if pos < 0 || pos > len(entries) {
		return
	}
	m.histPos = pos
	if pos == len(entries) {
		m.input.SetValue(m.draft)
	} else {
		m.input.SetValue(oneLine(entries[pos]))
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
	m.panel = render.TaskBox(m.snap, min(w, maxPanelWidth), m.styles)
	prompt := m.promptText()
	m.input.Prompt = prompt
	m.input.Width = max(w-ansi.StringWidth(prompt)-1, 1)
}

// promptText is "dir (branch) ✗N ❯ " (see promptParts), or "… " aligned
// under it for continuation lines.
func (m Model) promptText() string {
	main := m.promptParts()
	if len(m.pending) > 0 {
		return continuationPrompt(main)
	}
	return main
}

// inputValue is the text being typed.
func (m Model) inputValue() string { return m.input.Value() }

// setInput replaces the text being typed, with the cursor at its end.
func (m *Model) setInput(v string) {
	m.input.SetValue(v)
	m.input.CursorEnd()
}

// inputCursor is the cursor's byte offset in the input.
func (m Model) inputCursor() int {
	r := []rune(m.input.Value())
	pos := min(m.input.Position(), len(r))
	return len(string(r[:pos]))
}

// setInputCursor replaces the text and puts the cursor at byte offset at.
func (m *Model) setInputCursor(v string, at int) {
	m.input.SetValue(v)
	m.input.SetCursor(len([]rune(v[:min(at, len(v))])))
}
