package repl

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"

	tea "charm.land/bubbletea/v2"

	"github.com/todo-shell/todo-shell/internal/painter"
	"github.com/todo-shell/todo-shell/router"
	"github.com/todo-shell/todo-shell/tools"
	"github.com/todo-shell/todo-shell/tools/bash"
)

// Terminal is the terminal the shell can hand to another program: Release
// restores its normal (cooked) mode, Acquire takes raw mode back. cmd
// implements it over the tty; nil means no handing over (tests without a
// terminal run the program anyway).
type Terminal interface {
	Release() error
	Acquire() error
}

// ProgramHandle is the running Bubble Tea program, as the shell needs it
// to hand the terminal to another program: set once the program exists
// (Set), before it runs.
type ProgramHandle struct {
	p *tea.Program
}

// Set records the program.
func (h *ProgramHandle) Set(p *tea.Program) { h.p = p }

// handover runs a command attached to the terminal: Bubble Tea stops
// reading input, the painter stops drawing and the terminal leaves raw
// mode; afterwards all three come back and the live area is redrawn.
//
// It does not use tea.Exec, which runs the command inside the event loop:
// keys Bubble Tea had read and not yet delivered wait, with the loop
// stopped, until the command has ended, and then go to the shell (see
// docs/upstream/bubbletea-exec-typeahead.md). The handover runs in a
// command's goroutine instead, and the event loop goes on while Bubble
// Tea's reader stops (ReleaseTerminal): every key it read reaches the
// model, which keeps it for the program (typeahead), and a message sent
// after the release (handoverSyncMsg) comes back through the loop once
// the model has all of them.
//
// Keys typed between the Enter that started the command and the command's
// start are the command's: those the shell read are put back into the
// terminal's input queue, in the order typed, with what the queue held
// (read in raw mode) behind them, once the terminal is back in cooked mode
// (see typeaheadTerminal); what cannot be put back is kept, and the shell
// puts it in its input, not run (kept).
type handover struct {
	cmd     *exec.Cmd
	painter *painter.Painter
	term    Terminal
	program *tea.Program

	started bool          // the program has the terminal: keys from now on are the shell's again
	synced  chan struct{} // closed by the model once it has every key read before the release
	early   []byte        // keys the shell read while the command was starting
	kept    []byte        // what could not be given to the command
}

// handoverSyncMsg comes back through the event loop after the release:
// every key read before it has reached the model.
type handoverSyncMsg struct{ h *handover }

// typeaheadTerminal is a Terminal that can give keys read too early back
// to the next program: Pending takes what its input queue holds (in raw
// mode), Inject puts bytes back into it (after Release) and returns what it
// could not. painter.Terminal is one.
type typeaheadTerminal interface {
	Pending() []byte
	Inject(b []byte) (rest []byte)
}

var _ typeaheadTerminal = (*painter.Terminal)(nil)

// synchronized is the model's answer to handoverSyncMsg: every key read
// before the release has come, the program gets the terminal, and keys
// from now on are the shell's.
func (h *handover) synchronized() {
	h.started = true
	close(h.synced)
}

// typeahead keeps b, typed for the program about to get the terminal.
func (h *handover) typeahead(b []byte) { h.early = append(h.early, b...) }

// run hands the terminal over for the command's run, in a command's
// goroutine (never the event loop's).
func (h *handover) run() error {
	if h.program != nil {
		if err := h.program.ReleaseTerminal(); err != nil {
			return err
		}
		defer func() { _ = h.program.RestoreTerminal() }() // reads keys again; nothing to tell if it cannot
		h.program.Send(handoverSyncMsg{h})
		<-h.synced
	} else {
		h.started = true
	}
	return h.runCommand()
}

// runCommand runs the command with the terminal in cooked mode, the keys
// typed for it put back into the terminal's queue.
func (h *handover) runCommand() (err error) {
	h.painter.Suspend()
	defer h.painter.Resume()
	typed := h.early
	h.early = nil
	tt, _ := h.term.(typeaheadTerminal)
	if tt != nil {
		// Keys still in the terminal's queue reached it in raw mode, so
		// untranslated (a CR stays a CR; cat would read "line\r", not a
		// line): the line discipline does not translate them again when
		// cooked mode comes back. Take them now, whether or not the shell
		// read any (typed after those: behind them), and put them back
		// after Release, so they go through cooked mode as a typed key does.
		typed = append(typed, tt.Pending()...)
	}
	typed = withoutSignalKeys(typed)
	if h.term != nil {
		if err := h.term.Release(); err != nil {
			h.kept = typed
			return err
		}
		if tt != nil {
			// Keys that reached the terminal between Pending and Release
			// came in raw mode too (untranslated); cooked mode makes them
			// readable as they are. Take them as well, behind the others.
			typed = withoutSignalKeys(append(typed, tt.Pending()...))
		}
		if tt != nil && len(typed) > 0 {
			typed = tt.Inject(typed) // cooked now: translated as typed
		}
		defer func() {
			// A terminal left out of raw mode is worth saying.
			if aerr := h.term.Acquire(); aerr != nil && err == nil {
				err = aerr
			}
		}()
	}
	h.kept = typed
	err = h.cmd.Run()
	if h.cmd.ProcessState != nil {
		return nil // an exit status is a result, not a failure to run
	}
	return err
}

// withoutSignalKeys drops Ctrl+C, Ctrl+\ and Ctrl+Z: put back into the
// queue before the command runs, they would signal the shell itself.
func withoutSignalKeys(b []byte) []byte {
	out := b[:0]
	for _, c := range b {
		if c != 0x03 && c != 0x1c && c != 0x1a {
			out = append(out, c)
		}
	}
	return out
}

// keyBytes is what a terminal in its ordinary (legacy) mode sends for a
// key, as far as a command needs: text, control keys, the cursor keys;
// nil for a key it cannot say. Keys reported in an enhanced form (CSI u,
// modifyOtherKeys) are given to the command as the plain keys they are.
func keyBytes(msg tea.KeyPressMsg) []byte {
	var b []byte
	mod := msg.Mod
	if mod.Contains(tea.ModAlt) {
		b = append(b, 0x1b)
		mod &^= tea.ModAlt
	}
	if msg.Text != "" && mod&^tea.ModShift == 0 {
		return append(b, msg.Text...)
	}
	if mod == tea.ModCtrl {
		switch c := msg.Code; {
		case c >= 'a' && c <= 'z':
			return append(b, byte(c-'a'+1))
		case c >= '@' && c <= '_':
			return append(b, byte(c-'@'))
		}
		return nil
	}
	if mod != 0 && mod != tea.ModShift {
		return nil
	}
	if seq, ok := keySequences[msg.Code]; ok {
		return append(b, seq...)
	}
	if mod == 0 && msg.Code > 0x20 && msg.Code < 0x7f { // Alt and a letter
		return append(b, byte(msg.Code))
	}
	return nil
}

// keySequences are the legacy sequences of keys with no text (xterm's).
var keySequences = map[rune]string{
	tea.KeyEnter: "\r", tea.KeyTab: "\t", tea.KeyBackspace: "\x7f", tea.KeyEscape: "\x1b",
	tea.KeySpace: " ",
	tea.KeyUp:    "\x1b[A", tea.KeyDown: "\x1b[B", tea.KeyRight: "\x1b[C", tea.KeyLeft: "\x1b[D",
	tea.KeyHome: "\x1b[H", tea.KeyEnd: "\x1b[F", tea.KeyDelete: "\x1b[3~",
}

// handoverDoneMsg says a program that had the terminal ended.
type handoverDoneMsg struct {
	id   int
	use  tools.ToolUse
	cmd  *exec.Cmd
	err  error
	line string
	kept []byte // keys typed for the program that it could not be given
}

// runAttached runs a bash line attached to the terminal as a Bash tool call,
// through h (see newHandover).
func (m *Model) runAttached(id int, text string, h *handover) tea.Cmd {
	input, _ := json.Marshal(struct {
		Command string `json:"command"`
	}{text})
	use := tools.ToolUse{Type: "tool_use", ID: tools.NewToolUseID(), Name: bash.Name, Input: input}
	c := exec.Command(bashPath(), "-c", text)
	c.Dir = m.cfg.Dir()
	c.Env = os.Environ()
	// The program reads and writes the terminal; without one (tests) it
	// reads nothing and writes where the painter draws.
	c.Stdin, c.Stdout, c.Stderr = strings.NewReader(""), m.cfg.Painter.Output(), os.Stderr
	if f, ok := m.cfg.Terminal.(interface{ Files() (in, out *os.File) }); ok {
		c.Stdin, c.Stdout = f.Files()
	}
	h.cmd, h.painter, h.term = c, m.cfg.Painter, m.cfg.Terminal
	if m.cfg.Program != nil {
		h.program = m.cfg.Program.p
	}
	h.synced = make(chan struct{})
	return func() tea.Msg {
		err := h.run()
		return handoverDoneMsg{id: id, use: use, cmd: c, err: err, line: text, kept: h.kept}
	}
}

// attachedOutput is the tool call's output: the result says where the
// output went and how the program ended.
func attachedOutput(msg handoverDoneMsg) router.Output {
	code := -1
	if ps := msg.cmd.ProcessState; ps != nil {
		code = ps.ExitCode()
		if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			code = 128 + int(ws.Signal()) // as bash reports it: 130 for Ctrl+C
		}
	}
	content := fmt.Sprintf("Ran attached to the terminal; its output went to the terminal, not into this result.\nExit status: %d", code)
	if msg.err != nil {
		content = fmt.Sprintf("Could not run attached to the terminal: %v", msg.err)
	}
	res := tools.ToolResult{Type: "tool_result", ToolUseID: msg.use.ID, Content: content, IsError: code != 0}
	out := router.Output{Call: &msg.use, Result: &res, ExitCode: code}
	if code != 0 {
		out.Stderr = content
	}
	return out
}

// bashPath is bash, or sh where there is no bash.
func bashPath() string {
	if p, err := exec.LookPath("bash"); err == nil {
		return p
	}
	return "sh"
}
