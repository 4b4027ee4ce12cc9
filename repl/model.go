// Package repl is todo-shell's interactive front end: one Bubble Tea model
// drawn inline in the terminal (no alternate screen), with the live task
// panel and the running command above the prompt and finished output printed
// into the terminal's own scrollback.
package repl

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/spinner"
	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/todo-shell/todo-shell/internal/agent"
	"github.com/todo-shell/todo-shell/internal/painter"
	"github.com/todo-shell/todo-shell/render"
	"github.com/todo-shell/todo-shell/repl/complete"
	histfile "github.com/todo-shell/todo-shell/repl/history"
	"github.com/todo-shell/todo-shell/repl/interactive"
	"github.com/todo-shell/todo-shell/repl/markdown"
	"github.com/todo-shell/todo-shell/router"
	"github.com/todo-shell/todo-shell/tools"
	"github.com/todo-shell/todo-shell/tools/bash"
	"github.com/todo-shell/todo-shell/tools/todo"
)

// Config is what the shell works with; front ends build it.
type Config struct {
	Shell *router.Shell
	// Plan is what the panel shows, as the engine publishes it (the todo
	// list, then the task plan's tasks as rows); the shell reads it as a
	// Latest subscriber, drawing the newest version.
	Plan   *tools.Broker[todo.Snapshot]
	Styles render.Styles
	Dir    func() string    // the working directory, for the prompt
	Now    func() time.Time // nil means time.Now
	Trace  bool             // start with /trace on

	// Agent, when set, turns the shell into agent mode: plain lines are
	// prompts to it; lines starting with '!' run bash.
	Agent Agent

	// Program is the running program, for handing the terminal to
	// another program (see handover.go); nil in tests that hand nothing.
	Program *ProgramHandle
	// Painter is the painter Painted draws the shell with. The model never
	// writes to it; a handover suspends it while another program has the
	// terminal. nil draws nowhere.
	Painter *painter.Painter

	// History is the lasting history (see package history); nil keeps one
	// in memory.
	History *histfile.History
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
	// Permissions, in agent mode, takes the person's answers to the
	// agent's permission questions (the agent's Ask waits on it).
	Permissions *Permissions

	// Transcript, when set, receives a copy of every block printed into the
	// scrollback (tests use it; it must not block).
	Transcript io.Writer

	// CommandColors gives bash lines a pseudo-terminal of the shell's width
	// to write to, and shows their colours (SGR only; every other escape
	// sequence stays neutralised). Off, commands write to a pipe and their
	// output is shown plain. Results stay plain either way.
	CommandColors bool
	// NoColor draws without colour (--no-color, NO_COLOR): the styles the
	// terminal's background answer brings stay plain.
	NoColor bool
}

// Tunables of the live area.
const (
	tailLines      = 5        // output lines shown under a running command
	tailBytes      = 16 << 10 // bytes of output kept for them
	maxPanelWidth  = 100      // the task box is never wider
	previewShown   = 10       // preview lines under an offload pointer
	doubleCtrlCMsg = "Press Ctrl+C again to exit"
	// Ctrl+D while a command runs: see endOfInput.
	eofRunningMsg  = "Ctrl+D: the command reads no input · Ctrl+C stops it"
	doubleCtrlDMsg = "Press Ctrl+D again to stop the agent and exit"
	leavingMsg     = "Stopping the agent, then exiting…"
)

// Model is the shell's one Bubble Tea model, used through a pointer (New
// returns one): Update changes it in place, so what it keeps (the panel
// drawn last, the styles) is its own, never shared with a stale copy.
type Model struct {
	cfg    Config
	spent  agent.TurnDone // the agent's last turn: the session's use and cost so far (/cost)
	keys   keyMap
	sub    *tools.Latest[todo.Snapshot]
	styles render.Styles

	width  int
	height int            // the terminal's rows, 0 before the first size
	input  textarea.Model // the command being typed, one or more lines
	spin   spinner.Model
	dir    string // the working directory shown in the prompt

	history  history
	queue    []string // complete commands waiting for the running one
	dropped  int      // queued commands Ctrl+C dropped, said under the output
	snap     todo.Snapshot
	panels   panelCache // the task panel drawn last
	running  *run
	runs     int // runs started, to tell stale messages apart
	trace    bool
	armed    bool // Ctrl+C was pressed on an empty line
	eofArmed bool // Ctrl+D was pressed on an empty line while the agent works
	arms     int  // armings so far, to tell their expiry ticks apart (see arm.go)
	leaving  bool // Ctrl+D twice: the agent's turn is stopping, the shell leaves when it has
	hint     string
	quitting bool
	exitCode int // the status the shell leaves with

	// out holds what updates printed or cleared, in order, for the one
	// place that writes to the terminal (Painted) to take.
	out []paintOp

	inputScrolls bool     // the input has more rows than it shows
	inputRows    int      // the rows the input's text takes
	rowPrompts   []string // the prompt of each row of the input, nil for one line

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
	stream  []byte      // assistant text streaming in, not yet printed (appended: see handleAgentEvent)
	printed int         // bytes of the current text block already printed
	asking  *asking     // a permission question waiting for the person

	handover *handover // a line attached to the terminal; nil for others

	size *bash.TerminalSize // the width of a command's terminal; nil for a pipe
}

var _ tea.Model = (*Model)(nil)

// New returns the shell model. It subscribes to the plan at once, so no
// change is missed between New and Init.
func New(cfg Config) *Model {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Dir == nil {
		cfg.Dir = func() string { return "" }
	}
	sp := spinner.New(spinner.WithSpinner(spinner.MiniDot))
	store := cfg.History
	if store == nil {
		store, _ = histfile.Open("")
	}
	m := &Model{
		history:   history{store: store, pos: store.Len()},
		offloaded: map[string]string{},
		cfg:       cfg,
		keys:      defaultKeyMap(),
		sub:       cfg.Plan.Latest(),
		spin:      sp,
		dir:       cfg.Dir(),
		trace:     cfg.Trace,
		width:     80,
	}
	m.snap, _ = cfg.Plan.Last()
	m.styles = cfg.Styles
	m.spin.Style = m.styles.Accent
	m.input = newInput(m.styles.Prompt)
	m.prompt.branch = gitBranch(m.dir)
	if c, ok := cfg.Agent.(interface{ ContextUsed() float64 }); ok && c.ContextUsed() > 0 {
		m.prompt.ctx = ctxText(c.ContextUsed()) // a resumed conversation
	}
	if cfg.Painter == nil {
		m.cfg.Painter = painter.New(io.Discard, nil)
	}
	m.layout()
	return m
}

// Messages.
type (
	todosChangedMsg struct{ snap todo.Snapshot }
	outputMsg       struct{ id int }
	runDoneMsg      struct {
		id      int
		out     router.Output
		dir     string // the working directory after the line
		branch  string // its git branch
		colored bool   // out.Stdout is the command's own output, colours included
		text    bool   // out is a tool's answer (TaskGet, TaskList …), not a command's output
	}
)

// Init starts listening for changes of the plan.
func (m *Model) Init() tea.Cmd {
	return waitTodos(m.sub)
}

// waitTodos waits for the next version of the plan.
func waitTodos(sub *tools.Latest[todo.Snapshot]) tea.Cmd {
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

// runLine runs a classified line through the shell and reads the working
// directory it left. Only here, off the event loop, is dir called: it waits
// for the running command.
//
// With a size a bash line writes to a pseudo-terminal that wide (the
// width follows the window's while it runs), and when its output (short
// enough to show) holds escape sequences, Stdout is that output as written,
// for its colours: the result itself is plain.
func runLine(ctx context.Context, sh *router.Shell, dir func() string, id int, line router.Line, t *tailBuffer, size *bash.TerminalSize) tea.Cmd {
	return func() tea.Msg {
		colors := size != nil && line.Kind == router.Bash
		if colors {
			ctx = bash.WithTerminalSize(ctx, size)
		}
		out := sh.Run(ctx, line, t)
		t.close()
		colored := false
		if out.Offloaded != nil {
			out.Offloaded = withTail(out) // reads the file: here, off the event loop
		} else if all, ok := t.whole(); colors && ok && strings.IndexByte(all, 0x1b) >= 0 {
			out.Stdout, colored = strings.TrimSuffix(all, "\n"), true
		}
		d := dir()
		text := line.Kind == router.Agent && line.Name != bash.Name
		return runDoneMsg{id: id, out: out, dir: d, branch: gitBranch(d), colored: colored, text: text}
	}
}

// Update handles one message. It writes nothing: what to print or clear
// is kept in the model (out) for Painted, which draws.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	next, cmd := m.update(msg)
	nm := next.(*Model)
	nm.scrollInput()
	return nm, cmd
}

func (m *Model) update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		return m.resized(msg), nil
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
		return m.runDone(msg)
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
	case armExpiredMsg:
		m.armExpired(msg)
		return m, nil
	case handoverSyncMsg:
		msg.h.synchronized()
		return m, nil
	case handoverDoneMsg:
		return m.attachedDone(msg)
	case offloadsMsg:
		return m.showOffloads(msg)
	case tea.KeyPressMsg:
		return m.handleKey(msg)
	case tea.PasteMsg:
		return m.handlePaste(msg)
	case tea.BackgroundColorMsg, tea.ModeReportMsg:
		return m.terminalAnswer(msg), nil
	}
	return m, nil
}

// resized takes the terminal's new size.
func (m *Model) resized(msg tea.WindowSizeMsg) *Model {
	if msg.Width <= 0 || msg.Height <= 0 {
		return m // no size: the one known stays
	}
	m.width, m.height = msg.Width, msg.Height
	m.layout()
	if m.running != nil && m.running.size != nil {
		m.running.size.Set(m.commandCols()) // the running command is told, as by a terminal
	}
	return m
}

func (m *Model) handleKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	// Any other key between two presses of Ctrl+C, or of Ctrl+D, forgets
	// the first (a search, a completion, an answer too).
	if !matches(msg, m.keys.Interrupt) {
		m.disarm()
	}
	if !matches(msg, m.keys.EOF) {
		m.disarmEOF()
	}
	if h := m.running.attaching(); h != nil && !matches(msg, m.keys.Interrupt) {
		h.typeahead(keyBytes(msg)) // typed for the program about to get the terminal
		return m, nil
	}
	if m.search != nil {
		return m.searchKey(msg)
	}
	if q := m.running.question(); q != nil && !matches(msg, m.keys.Interrupt) && (q.reasoning || !matches(msg, m.keys.EOF)) {
		return m.permissionKey(msg) // a permission question waits (Ctrl+D asks to leave, as while the agent works)
	}
	if msg.Code == tea.KeyTab && msg.Mod == 0 {
		return m.tabKey()
	}
	m.tab = nil
	if msg.String() == "ctrl+r" {
		return m.startSearch()
	}
	if text := typedText(msg); text != "" {
		return m.typed(text)
	}
	return m.bindingKey(msg)
}

// typesIntoInput reports whether k is text typed into the input (not a
// search, a permission question's answer, or keys for a program about to
// get the terminal).
func (m *Model) typesIntoInput(k tea.KeyPressMsg) bool {
	return typedText(k) != "" && m.search == nil && m.running.attaching() == nil &&
		(m.running == nil || m.running.asking == nil)
}

// handlePaste takes a bracketed paste: text, never keys, wherever it goes.
func (m *Model) handlePaste(msg tea.PasteMsg) (tea.Model, tea.Cmd) {
	if h := m.running.attaching(); h != nil {
		h.typeahead([]byte(msg.Content))
		return m, nil
	}
	if m.search != nil {
		return m.searchPaste(msg.Content)
	}
	if m.running != nil && m.running.asking != nil {
		return m.permissionPaste(msg.Content)
	}
	m.tab = nil
	if msg.Content == "" {
		return m, nil
	}
	return m.typed(msg.Content)
}

// terminalAnswer takes the terminal's answers to the shell's questions
// (cmd/repl.go asks them): its background colour, and whether it can
// measure text by grapheme cluster (mode 2027).
func (m *Model) terminalAnswer(msg tea.Msg) *Model {
	switch msg := msg.(type) {
	case tea.BackgroundColorMsg:
		return m.restyle(msg.IsDark())
	case tea.ModeReportMsg:
		if msg.Mode == ansi.ModeUnicodeCore && !m.styles.Graphemes &&
			(msg.Value == ansi.ModeSet || msg.Value == ansi.ModeReset || msg.Value == ansi.ModePermanentlySet) {
			// The terminal can measure by grapheme cluster: it is turned
			// on (Painted), and the panel counts as it does.
			m.styles.Graphemes = true
			m.cfg.Styles = m.styles
			m.panels = panelCache{}
			m.out = append(m.out, paintOp{graphemes: true})
		}
	}
	return m
}

// restyle draws with the styles for the background the terminal reported.
func (m *Model) restyle(dark bool) *Model {
	st := render.StylesFor(m.cfg.NoColor, dark)
	st.Anchored, st.Graphemes = m.styles.Anchored, m.styles.Graphemes
	m.styles, m.cfg.Styles = st, st
	m.spin.Style = st.Accent
	m.input = restyleInput(m.input, st.Prompt)
	if m.cfg.Markdown != nil && !m.cfg.NoColor {
		md := markdown.DefaultStyles(dark)
		m.cfg.Markdown = &md
	}
	m.panels = panelCache{} // drawn again in the new colours
	m.layout()
	return m
}

// typed inserts typed or pasted text, however many words or lines: never
// a key binding. Inserted directly: the textarea's Update re-wraps the
// line to find the cursor's row, for each character of a long line
// arriving in one read.
func (m *Model) typed(text string) (tea.Model, tea.Cmd) {
	m.disarm()
	m.disarmEOF()
	m.input.InsertString(toInput(normalizeNewlines(text)))
	m.layout()
	return m, nil
}

// bindingKey handles a key that is not text: its binding, or else the
// textarea's own editing.
func (m *Model) bindingKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	switch {
	case matches(msg, m.keys.Interrupt):
		return m.interrupt()
	case matches(msg, m.keys.EOF):
		if m.input.Value() == "" {
			return m.endOfInput()
		}
	case matches(msg, m.keys.Clear):
		m.clearScreen()
		return m, nil
	case matches(msg, m.keys.Newline):
		m.input.InsertString("\n")
		m.layout()
		return m, nil
	case matches(msg, m.keys.Submit):
		if text := m.text(); !m.shellText(text) || router.Waiting(text) == "" {
			return m.submit(text)
		}
		// An open quote, a trailing backslash, a here-document: go on on
		// the next line.
		m.input.InsertString("\n")
		m.layout()
		return m, nil
	case matches(msg, m.keys.Prev) && m.input.Line() == 0:
		if text, ok := m.history.prev(m.text()); ok {
			m.setInput(text)
			m.toFirstRow() // the next Up goes on to the older entry
		}
		return m, nil
	case matches(msg, m.keys.Next) && m.input.Line() == m.input.LineCount()-1:
		if text, ok := m.history.next(); ok {
			m.setInput(text)
		}
		return m, nil
	}
	if key.Matches(msg, m.input.KeyMap.DeleteBeforeCursor) && m.input.LineCount() > 1 {
		// Ctrl+U on an entry of several lines (a recalled one, a paste)
		// clears it whole: the textarea cleared the cursor's row only —
		// the first, after Up — and Enter ran the rows left, which the
		// person took to be gone with it (issue 29, item 5). One line
		// keeps readline's Ctrl+U: back to the start.
		m.input.Reset()
		m.layout()
		return m, nil
	}
	if key.Matches(msg, m.input.KeyMap.WordBackward) && strings.TrimSpace(m.text()[:m.inputCursor()]) == "" {
		// Only blanks before the cursor: the textarea's word-left would
		// look for a word there for ever (an empty or spaces-only line
		// froze the shell). readline goes to the start of the line.
		m.setInputCursor(m.text(), 0)
		return m, nil
	}
	var cmd tea.Cmd
	m.input, cmd = m.input.Update(msg)
	m.layout()
	return m, cmd
}

// question is the permission question r waits on; nil when none.
func (r *run) question() *asking {
	if r == nil {
		return nil
	}
	return r.asking
}

// attaching is the handover of a line about to be given the terminal; nil
// when r is not such a line or its program has the terminal already.
func (r *run) attaching() *handover {
	if r == nil || r.handover == nil || r.handover.started {
		return nil
	}
	return r.handover
}

// runDone shows the output of the line that ended, takes its directory
// and status, and starts the next queued line (or leaves, after `exit N`).
func (m *Model) runDone(msg runDoneMsg) (tea.Model, tea.Cmd) {
	if m.running == nil || m.running.id != msg.id {
		return m, nil
	}
	m.running.cancel()
	m.noteOffload(msg.out, m.running.line)
	m.running = nil
	m.hint = ""
	if msg.dir != "" {
		m.dir = msg.dir
		m.prompt.branch = msg.branch
	}
	m.prompt.status = msg.out.ExitCode
	m.layout()
	if msg.text { // a list shown whole (see showWhole) is text a tool quotes too
		msg.out.Full = render.SanitizeText(msg.out.Full)
	}
	switch {
	case msg.text && msg.out.Offloaded == nil:
		// Text a tool quotes (a task's description) is shown as it is:
		// a carriage return or an escape sequence in it visible, not
		// acting as in a command's output (drawing over the line).
		msg.out.Stdout, msg.out.Stderr = render.SanitizeText(msg.out.Stdout), render.SanitizeText(msg.out.Stderr)
	case !msg.colored: // only a command's own colours are shown
		msg.out.Stdout, msg.out.Stderr = stripEscapes(msg.out.Stdout), stripEscapes(msg.out.Stderr)
	}
	if msg.out.Help {
		msg.out.Stdout = render.WrapHelp(msg.out.Stdout, max(m.width-1, 20))
	}
	m.println(m.formatOutput(msg.out))
	m.noteDropped()
	if code, ok := shellExited(msg.out); ok { // the line ran `exit N`
		m.queue = nil
		next, quit := m.quit()
		nm := next.(*Model)
		nm.exitCode = code
		return nm, quit
	}
	return m.finish(nil)
}

// noteDropped says, under the output of the line that ended, how many
// queued lines an interrupt dropped.
func (m *Model) noteDropped() {
	if n := m.dropped; n > 0 {
		m.dropped = 0
		m.println(m.styles.Dim.Render(fmt.Sprintf("Dropped %d queued %s", n, plural(n, "command", "commands"))))
	}
}

// disarm forgets a first Ctrl+C on an empty line.
func (m *Model) disarm() {
	m.armed = false
	if m.hint == doubleCtrlCMsg {
		m.hint = ""
	}
}

// disarmEOF forgets a first Ctrl+D while the agent works, and the note
// that a running command reads no input.
func (m *Model) disarmEOF() {
	m.eofArmed = false
	if m.hint == doubleCtrlDMsg || m.hint == eofRunningMsg {
		m.hint = ""
	}
}

// endOfInput is Ctrl+D on an empty input. With nothing running the shell
// leaves, as bash does. A running command is neither stopped nor left
// behind: Ctrl+D is end of input for it, as in bash, and its input has
// ended already (it reads /dev/null: what is typed while it runs is the
// next command's), so it goes on, and a hint says so and how to stop it.
// The agent's turn takes a second press, as in Claude Code: it stops the
// turn, and the shell leaves once the turn has ended, its text and the
// interruption printed (see agentFinished); a third press leaves at once,
// what the turn said so far printed.
func (m *Model) endOfInput() (tea.Model, tea.Cmd) {
	switch {
	case m.running == nil:
		return m.quit()
	case m.running.events == nil: // a command, or a '!' line in agent mode
		// Said whatever the hint was: a press that seems to do nothing
		// is the one a person presses again and again.
		m.hint = eofRunningMsg
		return m, nil
	case m.leaving: // the turn has not ended yet: what it said stays all the same
		if said := string(m.running.stream); said != "" {
			m.println(render.SanitizeOutput(said))
		}
		m.println(m.styles.Warning.Render("Interrupted: the shell left before the agent's turn ended"))
		return m.quit()
	case m.eofArmed:
		m.eofArmed = false
		m.leaving = true
		m.running.cancel()
		m.hint = leavingMsg
		m.dropped += len(m.queue)
		m.queue = nil
		return m, nil
	}
	m.eofArmed = true
	m.hint = doubleCtrlDMsg
	tick := m.arm() // before m is returned: it counts the arming
	return m, tick
}

// normalizeNewlines turns CRLF and CR (what terminals send for Enter inside
// a paste) into LF.
func normalizeNewlines(s string) string {
	if !strings.ContainsRune(s, '\r') {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
}

// setInput replaces the input with text, the cursor at its end.
func (m *Model) setInput(text string) {
	m.input.SetValue(toInput(text)) // leaves the cursor at the end
	m.layout()
}

// finish runs cmd once a line is done, and starts the next queued line.
func (m *Model) finish(cmd tea.Cmd) (tea.Model, tea.Cmd) {
	if len(m.queue) == 0 {
		return m, cmd
	}
	next := m.queue[0]
	m.queue = m.queue[1:]
	if !m.clears(next) {
		m.println(m.echoText(next)) // shown dim under the running one until now
	}
	m, start := m.execute(next)
	return m, tea.Batch(cmd, start)
}

// interrupt is Ctrl+C: stop the running command (dropping the commands
// queued behind it), else clear the input, else (twice on an empty input)
// leave.
func (m *Model) interrupt() (tea.Model, tea.Cmd) {
	switch {
	case m.running != nil:
		m.running.cancel()
		m.hint = "Interrupting…"
		// Said under the interrupted command's output, when it ends.
		m.dropped += len(m.queue)
		m.queue = nil
		m.layout()
		return m, nil
	case m.input.Value() != "":
		m.input.Reset()
		m.history.reset()
		m.layout()
		return m, nil
	case m.armed:
		return m.quit()
	}
	m.armed = true
	m.hint = doubleCtrlCMsg
	tick := m.arm() // before m is returned: it counts the arming
	return m, tick
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// ExitCode is the status the shell leaves with: N after a line ran
// `exit N`, else 0.
func (m *Model) ExitCode() int { return m.exitCode }

// shellExited reports that a bash line ended the shell with `exit N`, and
// N: the runner saw the line's own shell run exit at its top level.
func shellExited(out router.Output) (code int, ok bool) {
	return out.ExitCode, out.Exit
}

func (m *Model) quit() (tea.Model, tea.Cmd) {
	if m.running != nil {
		m.running.cancel()
	}
	m.sub.Close()
	m.quitting = true
	return m, tea.Quit
}

// submit runs a complete command from the input, or queues it behind the
// running one: a queued command shows under the running one and is echoed
// into the scrollback when it starts, after the output before it.
func (m *Model) submit(text string) (tea.Model, tea.Cmd) {
	m.input.Reset()
	m.hint = ""
	if err := m.history.add(text); err != nil {
		m.hint = err.Error() + " (history kept in memory only)"
	}
	var rest []string
	if m.cfg.Agent == nil { // a paste is run as bash runs it: command by command
		cmds := router.Commands(text, m.cfg.Shell.Executor)
		text, rest = cmds[0], cmds[1:]
	}
	if m.running != nil && strings.TrimSpace(text) != "" {
		m.queue = append(append(m.queue, text), rest...)
		m.layout()
		return m, nil
	}
	if len(rest) > 0 {
		m.queue = append(rest, m.queue...) // run after the first, as typed ahead
		next, cmd := m.submitOne(text)
		if next.running == nil { // a builtin, done at once
			return next.finish(cmd)
		}
		return next, cmd
	}
	return m.submitOne(text)
}

// submitOne starts one command, or queues it behind the running one.
func (m *Model) submitOne(text string) (*Model, tea.Cmd) {
	if m.clears(text) { // leaves the prompt alone at the top, as in bash
		m.layout()
		return m.execute(text)
	}
	m.println(m.echoText(text))
	if strings.TrimSpace(text) == "" {
		m.layout()
		return m, nil
	}
	return m.execute(text)
}

// echoText is a submitted command as the scrollback shows it: each line
// after its prompt.
func (m *Model) echoText(text string) string {
	lines := strings.Split(text, "\n")
	main := m.linePrompt(0)
	labels := m.waitLabels(text)
	for i, l := range lines {
		p := main
		if i > 0 {
			p = labelledPrompt(main, labels[i])
		}
		lines[i] = m.styles.Prompt.Render(p) + render.Sanitize(l)
	}
	return strings.Join(lines, "\n")
}

// execute starts a complete line: a builtin at once, anything else as a
// tool call in a command.
func (m *Model) execute(text string) (*Model, tea.Cmd) {
	line := router.Classify(text, m.cfg.Shell.Executor)
	switch line.Kind {
	case router.Empty:
		return m, nil
	case router.Builtin:
		if next, cmd, ok := m.frontBuiltin(line); ok {
			next.layout() // the prompt shows the status
			return next, cmd
		}
		b := m.cfg.Shell.Builtin(line)
		m.prompt.status = b.ExitCode
		m.layout()
		switch b.Action {
		case router.ActionExit:
			next, cmd := m.quit()
			return next.(*Model), cmd
		case router.ActionClear:
			m.clearScreen()
			return m, nil
		case router.ActionTrace:
			m.trace = b.Trace
		}
		m.println(m.formatText(stripEscapes(b.Stdout), stripEscapes(b.Stderr)))
		return m, nil
	}
	if line.Kind == router.Bash && (m.cfg.Agent == nil || line.Forced) && isClear(line.Text) {
		m.prompt.status = 0 // as /clear and Ctrl+L: the shell clears, not the command
		m.layout()
		m.clearScreen()
		return m, nil
	}
	if line.Kind == router.Bash && (m.cfg.Agent == nil || line.Forced) && m.cfg.Interactive != nil && m.cfg.Interactive.Needs(line.Text) {
		return m.attach(line.Text, text)
	}
	ctx, cancel := context.WithCancel(context.Background())
	m.runs++
	r := &run{id: m.runs, line: text, started: m.cfg.Now(), cancel: cancel, tail: newTailBuffer(tailBytes)}
	if cols := m.commandCols(); cols > 0 {
		r.size = bash.NewTerminalSize(cols)
	}
	m.running = r
	m.layout()
	if m.cfg.Agent != nil && line.Kind == router.Bash && !line.Forced {
		r.events = make(agentEvents, 1024)
		return m, tea.Batch(
			runPrompt(ctx, m.cfg.Agent, m.cfg.Dir, line.Text, r.events),
			waitAgent(r.id, r.events),
			m.spin.Tick,
		)
	}
	return m, tea.Batch(
		runLine(ctx, m.cfg.Shell, m.cfg.Dir, r.id, line, r.tail, r.size),
		waitOutput(r.id, r.tail),
		m.spin.Tick,
	)
}

// paintOp is one thing an update asks the terminal for: text to print into
// the scrollback above the live area, or a clear screen.
type paintOp struct {
	text      string
	clear     bool
	graphemes bool // turn the terminal's grapheme clustering (mode 2027) on
}

// println prints text into the scrollback above the live area (nothing for
// empty text), copying it to the transcript. It is recorded in the model;
// Painted writes it.
func (m *Model) println(text string) {
	if text == "" {
		return
	}
	if m.cfg.Transcript != nil {
		_, _ = io.WriteString(m.cfg.Transcript, text+"\n") // a copy for tests, not a record: nothing to report
	}
	// No line breaks at the window's width: the terminal wraps a long line
	// itself, so it reflows when the window is resized and copies as one
	// line (an offloaded result's path, a long output line).
	m.out = append(m.out, paintOp{text: text})
}

// clearScreen clears the terminal (recorded, as println).
func (m *Model) clearScreen() {
	m.out = append(m.out, paintOp{clear: true})
}

// takeOutput returns what was printed and cleared since the last take, and
// the model without it.
func (m *Model) takeOutput() ([]paintOp, *Model) {
	out := m.out
	m.out = nil
	return out, m
}

// maxInputRows caps the rows the input takes; longer text scrolls in it.
const maxInputRows = 12

// layout recomputes what depends on the width, the list, the prompt and the
// input's lines.
func (m *Model) layout() {
	w := m.width
	if w <= 0 {
		w = 80
	}
	pw := ansi.StringWidth(m.linePrompt(0))
	m.input.SetPromptFunc(pw, m.promptOf)
	m.input.SetWidth(max(w-1, pw+2))
	rows, prompts := m.inputRowPrompts(m.linePrompt(0), m.input.Width())
	if prompts != nil || m.rowPrompts != nil {
		m.rowPrompts = prompts
		m.input.SetPromptFunc(pw, m.promptOf) // bound to the new prompts
	}
	m.inputRows = rows
	m.input.SetHeight(min(rows, maxInputRows))
	m.inputScrolls = rows > m.input.Height()
	if off := m.input.ScrollYOffset(); off > 0 && off+m.input.Height() > rows {
		// The textarea keeps its scroll offset when its text gets fewer
		// rows (a wider window, a deleted line), or when it was scrolled
		// while it was lower (text of several lines put in at once, as
		// Tab's template on an empty list), and would show empty rows
		// under the text: back to the top at the new height, and
		// scrollInput scrolls to the cursor again.
		m.placeInput(m.inputValue(), m.inputCursor())
	}
}

// scrollInput scrolls an input taller than its rows to its cursor, before
// a draw. The textarea scrolls against the content its last View gave its
// viewport: give it the current one first, or a paste of many lines shows
// its top, not the cursor.
func (m *Model) scrollInput() {
	if m.inputScrolls {
		m.input.View()
		m.input, _ = m.input.Update(nil)
	}
}

// wrappedRows counts the rows bubbles/textarea's word wrap gives a line at
// width (the same rules, counted in one pass: the textarea's own wrap is not
// exported).
func wrappedRows(line string, width int) int {
	rows, rowW, wordW, spaces := 1, 0, 0, 0
	for _, r := range line {
		if unicode.IsSpace(r) {
			spaces++
		} else {
			wordW += runeWidth(r)
		}
		if spaces > 0 {
			if rowW+wordW+spaces > width {
				rows++
				rowW = 0
			}
			rowW += wordW + spaces
			wordW, spaces = 0, 0
		} else if wordW+runeWidth(r) > width {
			if rowW > 0 {
				rows++
				rowW = 0
			}
			rowW += wordW
			wordW = 0
		}
	}
	if rowW+wordW+spaces >= width {
		rows++
	}
	return rows
}

// runeWidth is the cells a rune takes.
func runeWidth(r rune) int {
	if r >= 0x20 && r < 0x7f {
		return 1
	}
	return ansi.StringWidth(string(r))
}

// linePrompt is the prompt (see promptParts) for the first row of the
// input; for the others, what the line waits for (see labelledPrompt) or
// "… ", aligned under it.
func (m *Model) linePrompt(row int) string {
	main := m.promptParts()
	switch {
	case row == 0:
		return main
	case row < len(m.rowPrompts):
		return m.rowPrompts[row]
	}
	return continuationPrompt(main)
}

// promptOf is linePrompt for the textarea's prompt function.
func (m *Model) promptOf(pi textarea.PromptInfo) string { return m.linePrompt(pi.LineNumber) }

// newInput returns the shell's multi-line input: no line numbers, no
// character or size limit, no colors but the prompt's, and the terminal's
// own cursor (placed by the painter at the insertion point, shown in every
// mode, --no-color too) rather than a drawn one.
func newInput(prompt lipgloss.Style) textarea.Model {
	in := textarea.New()
	in.ShowLineNumbers = false
	in.CharLimit = 0
	in.MaxHeight = 0
	in.MaxWidth = 0
	in.Placeholder = ""
	in.EndOfBufferCharacter = ' '
	in = restyleInput(in, prompt)
	in.SetVirtualCursor(false)
	// Enter and the newline keys are the shell's (see handleKey).
	in.KeyMap.InsertNewline.SetEnabled(false)
	// Ctrl+Left and Ctrl+Right move by words, as in bash (the textarea
	// binds Alt+Left/Right and Alt+b/f only).
	in.KeyMap.WordForward.SetKeys(append([]string{"ctrl+right"}, in.KeyMap.WordForward.Keys()...)...)
	in.KeyMap.WordBackward.SetKeys(append([]string{"ctrl+left"}, in.KeyMap.WordBackward.Keys()...)...)
	in.Focus()
	return in
}

// restyleInput gives the input plain styles but for the prompt's.
func restyleInput(in textarea.Model, prompt lipgloss.Style) textarea.Model {
	plain := textarea.StyleState{Prompt: prompt}
	st := in.Styles()
	st.Focused, st.Blurred = plain, plain
	st.Cursor.Blink = false // nothing animates at idle
	in.SetStyles(st)
	return in
}

// oneLine shows a multi-line command on one line, its line breaks marked
// (tools.CommandLine), for the running and queued rows. History keeps the
// text.
func oneLine(s string) string { return tools.CommandLine(s) }

// previewLines is the preview of an offloaded result as the REPL shows it,
// with the lines it leaves out. Carriage returns overwrite, and a trailer
// ("Command interrupted") that ends the preview is left out: the REPL
// prints it under the preview already.
func previewLines(out router.Output) (lines []string, more int) {
	lines, more = render.Preview(out.Offloaded)
	for i, l := range lines {
		lines[i] = bash.ApplyCarriageReturns(l)
	}
	if n := len(lines); more == 0 && n > 0 && out.Stderr != "" && lines[n-1] == out.Stderr {
		lines = lines[:n-1]
	}
	return lines, more
}

// cleanOutput makes finished output safe to print, carriage returns
// overwriting as in a terminal.
// Colours and styles (SGR) pass: the text that may hold them is a command's
// own output (see runLine); any other is stripped before (stripEscapes).
func cleanOutput(s string) string { return render.SanitizeOutputColors(bash.ApplyCarriageReturns(s)) }

// stripEscapes removes escape sequences from text that is not a command's
// own output, so that cleanOutput shows it plain.
func stripEscapes(s string) string {
	if strings.IndexByte(s, 0x1b) < 0 {
		return s
	}
	return ansi.Strip(s)
}

// commandCols is the width of the terminal commands write to, 0 for a
// pipe (see Config.CommandColors).
func (m *Model) commandCols() int {
	if !m.cfg.CommandColors {
		return 0
	}
	return max(m.width, 20)
}
