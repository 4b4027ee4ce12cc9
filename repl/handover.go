package repl

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

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

// Suspend draws what is pending, erases the live area and stops drawing
// until Resume, so that another program can use the terminal.
func (s *Screen) Suspend() {
	s.drawMu.Lock()
	s.mu.Lock()
	printed := s.printed
	s.printed = nil
	s.mu.Unlock()
	var b strings.Builder
	b.WriteByte('\r')
	if s.height > 1 {
		b.WriteString(ansi.CursorUp(s.height - 1))
	}
	b.WriteString(ansi.EraseScreenBelow)
	for _, line := range printed {
		b.WriteString(line)
		b.WriteString("\r\n")
	}
	b.WriteString(ansi.ShowCursor + ansi.ResetModeBracketedPaste)
	_, _ = io.WriteString(s.out, b.String()) // the terminal: nothing to do on failure
	s.height, s.last = 1, ""
}

// Resume starts drawing again, below whatever the other program left.
func (s *Screen) Resume() {
	_, _ = io.WriteString(s.out, ansi.HideCursor+ansi.SetModeBracketedPaste) // the terminal
	s.drawMu.Unlock()
	s.poke()
}

// handover runs a command attached to the terminal: Bubble Tea stops
// reading input (tea.Exec), the Screen stops drawing and the terminal leaves
// raw mode; afterwards all three come back and the live area is redrawn.
type handover struct {
	cmd    *exec.Cmd
	screen *Screen
	term   Terminal
}

var _ tea.ExecCommand = (*handover)(nil)

func (h *handover) SetStdin(r io.Reader)  { h.cmd.Stdin = r }
func (h *handover) SetStdout(w io.Writer) { h.cmd.Stdout = w }
func (h *handover) SetStderr(w io.Writer) { h.cmd.Stderr = w }

// Run hands the terminal over for the command's run.
func (h *handover) Run() (err error) {
	if h.screen != nil {
		h.screen.Suspend()
		defer h.screen.Resume()
	}
	if h.term != nil {
		if err := h.term.Release(); err != nil {
			return err
		}
		defer func() {
			// A terminal left out of raw mode is worth saying.
			if aerr := h.term.Acquire(); aerr != nil && err == nil {
				err = aerr
			}
		}()
	}
	err = h.cmd.Run()
	if h.cmd.ProcessState != nil {
		return nil // an exit status is a result, not a failure to run
	}
	return err
}

// handoverDoneMsg says a program that had the terminal ended.
type handoverDoneMsg struct {
	id   int
	use  tools.ToolUse
	cmd  *exec.Cmd
	err  error
	line string
}

// runAttached runs a bash line attached to the terminal as a Bash tool call.
func (m Model) runAttached(id int, text string) tea.Cmd {
	input, _ := json.Marshal(struct {
		Command string `json:"command"`
	}{text})
	use := tools.ToolUse{Type: "tool_use", ID: tools.NewToolUseID(), Name: bash.Name, Input: input}
	c := exec.Command(bashPath(), "-c", text)
	c.Dir = m.cfg.Dir()
	c.Env = os.Environ()
	h := &handover{cmd: c, screen: m.cfg.Screen, term: m.cfg.Terminal}
	return tea.Exec(h, func(err error) tea.Msg {
		return handoverDoneMsg{id: id, use: use, cmd: c, err: err, line: text}
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
