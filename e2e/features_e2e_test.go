package e2e

import (
	"strings"
	"testing"
	"time"
)

// TestCtrlRAndTabInTerminal drives the real binary: Ctrl+R finds and runs
// an earlier line, Tab completes a builtin, and the prompt shows a failed
// status.
func TestCtrlRAndTabInTerminal(t *testing.T) {
	cmd, tty, scr := startInTerminal(t, t.TempDir())
	scr.waitFor(t, "❯", 5*time.Second)
	tty.Write([]byte("echo alpha-$((20+1))\r"))
	scr.waitFor(t, "alpha-21", 5*time.Second)
	tty.Write([]byte("false\r"))
	scr.waitFor(t, "✗1 ❯", 5*time.Second)
	tty.Write([]byte("\x12alp")) // Ctrl+R
	scr.waitFor(t, "(reverse-i-search)'alp': echo alpha-$((20+1))", 5*time.Second)
	tty.Write([]byte("\r"))
	scr.waitFor(t, "❯ echo alpha-$((20+1))\r\nalpha-21", 5*time.Second)
	tty.Write([]byte("/sess\t"))
	scr.waitFor(t, "❯ /session", 5*time.Second) // completed (the trailing blank is not drawn)
	tty.Write([]byte("\r"))
	scr.waitFor(t, "Offloaded:", 5*time.Second)
	leave(t, cmd, tty)
	scr.mu.Lock()
	defer scr.mu.Unlock()
	if n := strings.Count(scr.buf.String(), "alpha-21\r\n"); n < 2 {
		t.Fatalf("the searched line ran %d times", n)
	}
}
