package e2e

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"

	histfile "github.com/todo-shell/todo-shell/repl/history"
)

// startInTerminal starts the binary in a pseudo-terminal with its state
// (history) under state.
func startInTerminal(t *testing.T, state string, args ...string) (*exec.Cmd, *os.File, *screen) {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), "TERM=xterm-256color", "NO_COLOR=1", "XDG_STATE_HOME="+state)
	tty, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 24, Cols: 100})
	if err != nil {
		t.Fatal(err)
	}
	scr := &screen{tty: tty}
	go io.Copy(scr, tty)
	return cmd, tty, scr
}

// leave presses Ctrl+D on an empty line (see quit) and fails the test
// unless the shell ends within 5 s.
func leave(t *testing.T, cmd *exec.Cmd, tty *os.File, scr *screen) {
	t.Helper()
	if ok, _ := quit(cmd, tty, scr, 5*time.Second); !ok {
		t.Errorf("Ctrl+D did not end the shell; the screen's end:\n%s", lastLines(scr.text(), 12))
	}
	tty.Close()
}

// busyNotices are what the shell says of a Ctrl+D that came while a
// command or an agent's turn still ran (repl/model.go): it keeps running.
var busyNotices = []string{"Ctrl+D: the command reads no input", "Press Ctrl+D again to stop the agent"}

// quit presses Ctrl+D and waits up to within for the shell to exit,
// returning whether it exited and how. A command's output (or a turn's
// answer) is on the screen a moment before the shell has seen the command
// end: a press in that moment is the running command's, as a person's
// would be, and the shell says so ("the command reads no input"), unless
// the command ends before that is drawn. So Ctrl+D is pressed again when
// the shell says so, or when a second has passed with neither a word nor
// an exit. (That one press leaves an idle prompt is TestEndOfInputKeys',
// on the model itself.)
func quit(cmd *exec.Cmd, tty io.Writer, scr *screen, within time.Duration) (exited bool, err error) {
	busy := func() int {
		text, n := scr.text(), 0
		for _, m := range busyNotices {
			n += strings.Count(text, m)
		}
		return n
	}
	seen := busy()
	tty.Write([]byte{4})
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(within)
	pressed := time.Now()
	for {
		select {
		case err := <-done:
			return true, err
		case <-tick.C:
			if n := busy(); n > seen || time.Since(pressed) > time.Second {
				seen, pressed = n, time.Now()
				tty.Write([]byte{4})
			}
		case <-deadline:
			_ = cmd.Process.Kill()
			<-done // the test's cleanup may Wait too: two Waits at once race
			return false, nil
		}
	}
}

// TestHistoryTwoShellsAtOnce runs two shells in two terminals typing lines
// at the same time: every line of both lands whole in the history file, and
// a third shell recalls the newest with Up.
func TestHistoryTwoShellsAtOnce(t *testing.T) {
	t.Parallel()
	state := t.TempDir()
	const n = 40
	var wg sync.WaitGroup
	for _, name := range []string{"a", "b"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd, tty, scr := startInTerminal(t, state)
			scr.waitFor(t, "❯", 5*time.Second)
			for i := range n {
				fmt.Fprintf(tty, ": %s-%02d\r", name, i)
			}
			scr.waitFor(t, fmt.Sprintf(": %s-%02d", name, n-1), 10*time.Second)
			// Every line has run when the prompt's echo of a marker shows.
			tty.Write([]byte("echo $((40+2))-" + name + "\r"))
			scr.waitFor(t, "42-"+name, 10*time.Second)
			leave(t, cmd, tty, scr)
		}()
	}
	wg.Wait()
	h, warn := histfile.Open(filepath.Join(state, "todo-shell", "history"))
	if warn != "" {
		t.Fatal(warn)
	}
	seen := map[string]bool{}
	for _, e := range h.Entries() {
		seen[e] = true
	}
	for _, name := range []string{"a", "b"} {
		for i := range n {
			if line := fmt.Sprintf(": %s-%02d", name, i); !seen[line] {
				t.Fatalf("lost %q; history:\n%s", line, strings.Join(h.Entries(), "\n"))
			}
		}
	}
	if h.Len() != 2*n+2 {
		t.Fatalf("%d entries, want %d", h.Len(), 2*n+2)
	}
}

// TestFaultCorruptHistoryFile starts the shell on a history file of
// garbage: one warning, an empty history, and a working shell that then
// saves its lines.
func TestFaultCorruptHistoryFile(t *testing.T) {
	t.Parallel()
	state := t.TempDir()
	path := filepath.Join(state, "todo-shell", "history")
	os.MkdirAll(filepath.Dir(path), 0o700)
	os.WriteFile(path, []byte("\x00\xff\xfe not json at all\n{]\n"), 0o600)
	cmd, tty, scr := startInTerminal(t, state)
	scr.waitFor(t, "history: "+path+" is corrupt (starting with an empty history)", 5*time.Second)
	scr.waitFor(t, "❯", 5*time.Second)
	tty.Write([]byte("echo still-$((6*7))\r"))
	scr.waitFor(t, "still-42", 5*time.Second)
	leave(t, cmd, tty, scr)
	raw, _ := os.ReadFile(path)
	if !strings.HasSuffix(string(raw), "\"echo still-$((6*7))\"\n") {
		t.Fatalf("history file:\n%q", raw)
	}
}

// TestNoHistoryFlag keeps the file untouched.
func TestNoHistoryFlag(t *testing.T) {
	t.Parallel()
	state := t.TempDir()
	cmd, tty, scr := startInTerminal(t, state, "--no-history")
	scr.waitFor(t, "❯", 5*time.Second)
	tty.Write([]byte("echo saved-$((6*7))\r"))
	scr.waitFor(t, "saved-42", 5*time.Second)
	leave(t, cmd, tty, scr)
	if _, err := os.Stat(filepath.Join(state, "todo-shell", "history")); !os.IsNotExist(err) {
		t.Fatalf("history written with --no-history: %v", err)
	}
}
