package e2e

import (
	"bufio"
	"errors"
	"io"
	"os/exec"
	"strings"
	"sync"
	"testing"
)

// The waits look at a test's screen every few milliseconds, and a tmux
// process for each look (capture-pane) costs about 4 ms of CPU: with
// three thousand looks, a fifth of the end-to-end tests' CPU. A
// control-mode client (tmux -C) takes the same commands on its input, one
// connection for all of a test's looks, and for its keys (send-keys,
// paste-buffer: another thousand processes a run) and resizes.
//
// The client is attached to a session of its own ("look", running cat),
// never to the test's session "t": a client attached to the window under
// test would be a second terminal for it (its size, focus, the terminal
// that answers a query). From another session it only names the pane
// (-t t), as a tmux process does, and the window under test has no client
// at all, as before. (A replay's blank dead pane, seen once in some 1,500
// runs with the first version of this client, was tmux losing the output
// of a process that exits at once, with or without it: see newSession.)

// tmuxControl is a control-mode client of a test's tmux server: commands
// go to it one line at a time, and each answer comes back between %begin
// and %end (or %error) lines that carry the command's number.
type tmuxControl struct {
	mu  sync.Mutex
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
}

// lookSession is the control client's session, beside the test's "t".
const lookSession = "look"

// startTmuxControl starts the client, and its session, in the running
// server at socket: -N has it fail rather than start a server when there
// is none (the test has not started it, or killed it).
func startTmuxControl(socket string) (*tmuxControl, error) {
	// Its window is named (-n), which also stops tmux renaming it after
	// what runs there: a target "t" is looked for among the current
	// session's windows, by the start of their names, before the sessions,
	// and a window renamed "tmux" or "todo-shell" would take the test's
	// commands.
	cmd := exec.Command("tmux", "-S", socket, "-N", "-C", "new-session", "-s", lookSession, "-n", lookSession, "-f", "ignore-size,no-output", "-x", "10", "-y", "2", "cat")
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return &tmuxControl{cmd: cmd, in: in, out: bufio.NewReader(out)}, nil
}

// do runs one command line and returns what it printed. Lines outside a
// command's answer (notifications such as %session-changed, the answer
// to the new-session itself, whose flags are 0) are passed over.
func (c *tmuxControl) do(line string) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, err := io.WriteString(c.in, line+"\n"); err != nil {
		return "", err
	}
	var out strings.Builder
	end := ""
	for {
		l, err := c.out.ReadString('\n')
		if err != nil {
			return "", err
		}
		l = strings.TrimSuffix(l, "\n")
		if end == "" {
			if f := strings.Fields(l); len(f) == 4 && f[0] == "%begin" && f[3] == "1" {
				end = strings.Join(f[1:], " ")
			}
			continue
		}
		switch l {
		case "%end " + end:
			return out.String(), nil
		case "%error " + end:
			return "", errors.New(out.String())
		}
		out.WriteString(l + "\n")
	}
}

// close detaches the client (the end of its input) and waits for it.
func (c *tmuxControl) close() {
	c.in.Close()
	c.cmd.Wait()
}

// controlled reports whether the control client carries the command
// name: one that reads the test's pane, types into it or resizes its
// window. Any other (new-session, kill-server, load-buffer with its
// input) starts a process.
func controlled(name string) bool {
	switch name {
	case "capture-pane", "display-message", "display", "send-keys", "paste-buffer", "resize-window":
		return true
	}
	return false
}

// viaControl runs a command of the test's session (one that is controlled)
// through the control client, started at the first such command. ok is
// false for any other command, one that names no target in "t", or when
// the command fails or the client cannot be had (no server, or it has
// gone): run then starts a tmux process, as before, which reports the
// error. (A command that fails did nothing: tmux checks its target and
// flags first.)
func (tt *tmuxTerm) viaControl(args []string) (out string, ok bool) {
	if len(args) == 0 || !controlled(args[0]) {
		return "", false
	}
	line, ok := tmuxCommandLine(args)
	if !ok {
		return "", false
	}
	tt.controlOnce.Do(func() {
		c, err := startTmuxControl(tt.socket)
		if err != nil {
			return
		}
		tt.control = c
		tt.t.Cleanup(c.close) // before the server is killed (cleanups run last first)
	})
	if tt.control == nil {
		return "", false
	}
	out, err := tt.control.do(line)
	return out, err == nil
}

// tmuxCommandLine quotes each of args in single quotes for tmux's command
// parser. ok is false for an argument with a single quote or a newline in
// it, which a single-quoted word cannot hold, and for a command without
// "-t t", which it makes exact ("=t:"): from the control
// client's session, a command without a target would read that session
// instead of the test's.
func tmuxCommandLine(args []string) (line string, ok bool) {
	words := make([]string, len(args))
	target := false
	for i, a := range args {
		if strings.ContainsAny(a, "'\n") {
			return "", false
		}
		if i > 0 && args[i-1] == "-t" && a == "t" {
			target, a = true, "=t:" // the session named exactly t, whatever the client's own
		}
		words[i] = "'" + a + "'"
	}
	return strings.Join(words, " "), target
}

// TestTmuxControlReadsAsCapturePaneDoes: what the waits read through the
// control-mode client is, byte for byte, what a tmux process prints for
// the same command (the screen, the scrollback, colours, joined lines, a
// format), so a test sees the same text on either path; a command the
// control client cannot carry goes to a process; and the window under
// test has no client attached.
func TestTmuxControlReadsAsCapturePaneDoes(t *testing.T) {
	t.Parallel()
	line := `printf '\033[31mred\033[0m tab\there \\ back ❯ 表\n   indented\n'; seq 1 40; printf '%080d' 0 | tr 0 w; echo; echo ready; exec cat`
	tt := tmuxSh(t, 60, 10, t.TempDir(), line)
	tt.waitScreen("the text", func(s string) bool { return hasLine(s, "ready") })
	for _, args := range [][]string{
		{"capture-pane", "-p", "-t", "t"},
		{"capture-pane", "-p", "-S", "-", "-t", "t"},
		{"capture-pane", "-p", "-e", "-S", "-", "-t", "t"},
		{"capture-pane", "-p", "-J", "-S", "-", "-t", "t"},
		{"display-message", "-p", "-t", "t", "#{pane_dead} #{window_width}x#{window_height} #{cursor_x},#{cursor_y} #{session_name} #{session_attached}"},
	} {
		fast, ok := tt.viaControl(args)
		if !ok {
			t.Fatalf("%q did not go through the control client", args)
		}
		slow, err := exec.Command("tmux", append([]string{"-S", tt.socket}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("tmux %q: %v\n%s", args, err, slow)
		}
		if fast != string(slow) {
			t.Errorf("%q: the control client read\n%q\na tmux process printed\n%q", args, fast, slow)
		}
	}
	if !strings.Contains(tt.all(), "red tab") {
		t.Fatalf("no first line in the scrollback:\n%s", tt.all())
	}
	if got := tt.run("display-message", "-p", "-t", "t", "#{session_attached} #{window_width}x#{window_height}"); got != "0 60x10\n" {
		t.Errorf("the test's session: %q clients and size, want none attached and 60x10", got)
	}
	for _, args := range [][]string{
		{"display-message", "-p", "-t", "t", "it's"},
		{"display-message", "-p", "#{session_name}"},
		{"new-session", "-d", "-s", "u", "cat"},
		{"send-keys", "-t", "t", "-l", "it's"},
	} {
		if _, ok := tt.viaControl(args); ok {
			t.Errorf("%q went through the control client", args)
		}
	}
}

// TestTmuxControlTypesAndResizesAsAProcessDoes: keys, a paste and a resize
// given through the control client reach the test's pane as a tmux
// process's do (a key name, literal text with tmux's own specials in it,
// a paste), and one that tmux refuses is not taken as done (run then
// starts a process, which reports it).
func TestTmuxControlTypesAndResizesAsAProcessDoes(t *testing.T) {
	t.Parallel()
	tt := tmuxSh(t, 60, 10, t.TempDir(), `echo ready; exec cat -v`)
	tt.waitScreen("cat", func(s string) bool { return hasLine(s, "ready") })
	for _, args := range [][]string{
		{"send-keys", "-t", "t", "-l", `a;b $HOME ~ #{pane_id} \x`},
		{"send-keys", "-t", "t", "Escape", "Enter"},
		{"resize-window", "-t", "t", "-x", "50", "-y", "8"},
	} {
		if _, ok := tt.viaControl(args); !ok {
			t.Fatalf("%q did not go through the control client", args)
		}
	}
	tt.waitScreen("the keys", func(s string) bool {
		return hasLine(s, `a;b $HOME ~ #{pane_id} \x^[`)
	})
	if got := tt.run("display-message", "-p", "-t", "t", "#{window_width}x#{window_height} #{session_attached}"); got != "50x8 0\n" {
		t.Errorf("after resize-window: %q, want 50x8 and no client attached", got)
	}
	cmd := exec.Command("tmux", "-S", tt.socket, "load-buffer", "-")
	cmd.Stdin = strings.NewReader("pasted")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("load-buffer: %v\n%s", err, out)
	}
	if _, ok := tt.viaControl([]string{"paste-buffer", "-p", "-d", "-t", "t"}); !ok {
		t.Fatal("paste-buffer did not go through the control client")
	}
	tt.run("send-keys", "-t", "t", "Enter")
	tt.waitScreen("the paste", func(s string) bool { return hasLine(s, "pasted") })
	if _, ok := tt.viaControl([]string{"send-keys", "-t", "t", "-X", "cancel"}); ok {
		t.Error("a command tmux refuses (copy-mode command outside copy mode) was taken as done")
	}
}
