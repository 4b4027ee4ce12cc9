package repl

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"syscall"

	tea "github.com/charmbracelet/bubbletea"

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

// handover runs a command attached to the terminal: Bubble Tea stops
// reading input (tea.Exec), the painter stops drawing and the terminal leaves
// raw mode; afterwards all three come back and the live area is redrawn.
//
// Keys typed between the Enter that started the command and the command's
// start are the command's: those the shell had read (as key messages, early,
// or as bytes Bubble Tea had not delivered, SetTypeahead) are put back into
// the terminal's input queue, in the order typed, with what the queue held
// (read in raw mode) behind them, once the terminal is back in cooked mode
// (see typeaheadTerminal); what cannot be put back is kept, and the shell
// puts it in its input, not run (kept).
type handover struct {
	cmd     *exec.Cmd
	painter *painter.Painter
	term    Terminal

	started bool   // Run was called: keys from now on are the shell's again
	early   []byte // keys the shell read while the command was starting
	unread  []byte // bytes Bubble Tea read and had not delivered
	kept    []byte // what could not be given to the command
}

// typeaheadTerminal is a Terminal that can give keys read too early back
// to the next program: Pending takes what its input queue holds (in raw
// mode), Inject puts bytes back into it (after Release) and returns what it
// could not. painter.Terminal is one.
type typeaheadTerminal interface {
	Pending() []byte
	Inject(b []byte) (rest []byte)
}

var (
	_ tea.ExecCommand   = (*handover)(nil)
	_ tea.Typeahead     = (*handover)(nil)
	_ typeaheadTerminal = (*painter.Terminal)(nil)
)

func (h *handover) SetStdin(r io.Reader)     { h.cmd.Stdin = r }
func (h *handover) SetStdout(w io.Writer)    { h.cmd.Stdout = w }
func (h *handover) SetStderr(w io.Writer)    { h.cmd.Stderr = w }
func (h *handover) SetTypeahead(b []byte)    { h.unread = append(h.unread, b...) }
func (h *handover) typeahead(msg tea.KeyMsg) { h.early = append(h.early, keyBytes(msg)...) }

// Run hands the terminal over for the command's run.
func (h *handover) Run() (err error) {
	h.started = true
	h.painter.Suspend()
	defer h.painter.Resume()
	typed := append(append([]byte(nil), h.early...), h.unread...)
	h.early, h.unread = nil, nil
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

// keyBytes is what the terminal sent for a key (as far as the command
// needs: text, control keys, arrows); nil for a key it cannot say.
func keyBytes(msg tea.KeyMsg) []byte {
	var b []byte
	if msg.Alt {
		b = append(b, 0x1b)
	}
	switch {
	case msg.Type == tea.KeyRunes:
		return append(b, string(msg.Runes)...)
	case msg.Type == tea.KeySpace:
		return append(b, ' ')
	case msg.Type >= 0 && msg.Type <= 31, msg.Type == 127: // control keys are their bytes
		return append(b, byte(msg.Type))
	}
	if seq, ok := keySequences[msg.Type]; ok {
		return append(b, seq...)
	}
	return nil
}

// keySequences are the sequences of the cursor keys (xterm's).
var keySequences = map[tea.KeyType]string{
	tea.KeyUp: "\x1b[A", tea.KeyDown: "\x1b[B", tea.KeyRight: "\x1b[C", tea.KeyLeft: "\x1b[D",
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
func (m Model) runAttached(id int, text string, h *handover) tea.Cmd {
	input, _ := json.Marshal(struct {
		Command string `json:"command"`
	}{text})
	use := tools.ToolUse{Type: "tool_use", ID: tools.NewToolUseID(), Name: bash.Name, Input: input}
	c := exec.Command(bashPath(), "-c", text)
	c.Dir = m.cfg.Dir()
	c.Env = os.Environ()
	h.cmd, h.painter, h.term = c, m.cfg.Painter, m.cfg.Terminal
	return tea.Exec(h, func(err error) tea.Msg {
		return handoverDoneMsg{id: id, use: use, cmd: c, err: err, line: text, kept: h.kept}
	})
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
