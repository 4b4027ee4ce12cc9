package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"
)

// binary is the todo-shell built for the end-to-end tests.
var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "todo-shell-e2e-")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "todo-shell")
	if out, err := exec.Command("go", "build", "-o", binary, ".").CombinedOutput(); err != nil {
		os.Stderr.Write(out)
		panic(err)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// screen collects everything the program writes to its terminal and, like
// a terminal emulator, answers the two queries Bubble Tea's start-up sends
// (background color, cursor position).
type screen struct {
	mu  sync.Mutex
	buf bytes.Buffer
	tty io.Writer
}

func (s *screen) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if bytes.Contains(p, []byte("\x1b]11;?")) {
		s.tty.Write([]byte("\x1b]11;rgb:1e1e/1e1e/1e1e\x1b\\"))
	}
	if bytes.Contains(p, []byte("\x1b[6n")) {
		s.tty.Write([]byte("\x1b[1;1R"))
	}
	return s.buf.Write(p)
}

func (s *screen) waitFor(t *testing.T, what string, within time.Duration) {
	t.Helper()
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		s.mu.Lock()
		ok := strings.Contains(s.buf.String(), what)
		s.mu.Unlock()
		if ok {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	t.Fatalf("%q did not appear within %v; screen:\n%q", what, within, s.buf.String())
}

// TestEndToEndInTerminal runs the built binary in a pseudo-terminal, types a
// TodoWrite line, sees the task panel and leaves with Ctrl+D.
func TestEndToEndInTerminal(t *testing.T) {
	cmd := exec.Command(binary, "--session", "e2e", "--offload-dir", t.TempDir())
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), "TERM=xterm-256color", "NO_COLOR=1", "XDG_STATE_HOME="+t.TempDir())
	tty, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 24, Cols: 80})
	if err != nil {
		t.Fatal(err)
	}
	defer tty.Close()
	scr := &screen{tty: tty}
	go io.Copy(scr, tty)

	scr.waitFor(t, "❯", 5*time.Second)
	tty.Write([]byte(`TodoWrite '{"todos":[{"content":"Write the e2e test","activeForm":"Writing the e2e test","status":"in_progress"},{"content":"Ship","activeForm":"Shipping","status":"pending"}]}'` + "\r"))
	scr.waitFor(t, "Todo list updated: 0 completed, 1 in_progress, 1 pending", 5*time.Second)
	scr.waitFor(t, "Tasks 0/2", 5*time.Second)
	scr.waitFor(t, "● Writing the e2e test", 5*time.Second)
	tty.Write([]byte("echo from-bash\r"))
	scr.waitFor(t, "from-bash", 5*time.Second)

	tty.Write([]byte{4}) // Ctrl+D on an empty line
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("exit: %v", err)
		}
	case <-time.After(5 * time.Second):
		cmd.Process.Kill()
		t.Fatal("Ctrl+D did not end the shell")
	}
	scr.mu.Lock()
	defer scr.mu.Unlock()
	if strings.Contains(scr.buf.String(), "\x1b[38;") {
		t.Error("NO_COLOR set but colors were drawn")
	}
}
