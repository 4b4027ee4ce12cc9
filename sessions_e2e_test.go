package main

import (
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"
)

// startShell starts the interactive shell in a pseudo-terminal.
func startREPL(t *testing.T, dir string, args ...string) (*exec.Cmd, *screen, io.Writer) {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "TERM=xterm-256color", "NO_COLOR=1")
	tty, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 24, Cols: 80})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tty.Close(); cmd.Process.Kill(); cmd.Wait() })
	scr := &screen{tty: tty}
	go io.Copy(scr, tty)
	return cmd, scr, tty
}

func waitREPLExit(t *testing.T, cmd *exec.Cmd) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(5 * time.Second):
		t.Fatal("the shell did not exit")
		return nil
	}
}

// TestREPLResume: the list written in one interactive shell is on the panel
// of the next, started with --resume (and with --continue); a second shell
// on a session in use says who holds it and exits 1.
func TestREPLResume(t *testing.T) {
	work, off := t.TempDir(), t.TempDir()
	cmd, scr, tty := startREPL(t, work, "--session", "rs", "--offload-dir", off)
	scr.waitFor(t, "❯", 5*time.Second)
	tty.Write([]byte(`TodoWrite '{"todos":[{"content":"Survive a restart","activeForm":"Surviving a restart","status":"in_progress"},{"content":"Ship","activeForm":"Shipping","status":"pending"}]}'` + "\r"))
	scr.waitFor(t, "● Surviving a restart", 5*time.Second)

	// Meanwhile a second shell on the same session is refused.
	second := exec.Command(binary, "--session", "rs", "--offload-dir", off, "-c", "TodoRead")
	out, err := second.CombinedOutput()
	if code := second.ProcessState.ExitCode(); code != 1 || !strings.Contains(string(out), "session rs is in use by process ") {
		t.Fatalf("second process: exit %d (%v): %s", code, err, out)
	}

	tty.Write([]byte{4}) // Ctrl+D
	if err := waitREPLExit(t, cmd); err != nil {
		t.Fatalf("exit: %v", err)
	}

	for _, args := range [][]string{{"--resume", "rs"}, {"--continue"}} {
		cmd, scr, tty := startREPL(t, work, append(args, "--offload-dir", off)...)
		scr.waitFor(t, "Tasks 0/2", 5*time.Second)
		scr.waitFor(t, "● Surviving a restart", 5*time.Second)
		tty.Write([]byte{4})
		if err := waitREPLExit(t, cmd); err != nil {
			t.Fatalf("%v: exit: %v", args, err)
		}
	}
}
