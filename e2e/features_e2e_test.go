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
	t.Parallel()
	cmd, tty, scr := startInTerminal(t, t.TempDir())
	scr.waitFor(t, "❯", 5*time.Second)
	tty.Write([]byte("echo alpha-$((20+1))\r"))
	scr.waitFor(t, "alpha-21", 5*time.Second)
	tty.Write([]byte("false\r"))
	scr.waitFor(t, "✗1 ❯", 5*time.Second)
	tty.Write([]byte("\x12alp")) // Ctrl+R
	scr.waitFor(t, "(reverse-i-search)'alp': echo alpha-$((20+1))", 5*time.Second)
	// The found line runs again: its output appears a second time. (How the
	// echo and the output are split into frames depends on how fast the
	// command is, so the test counts outputs rather than matching bytes.)
	ran := strings.Count(scr.text(), "alpha-21")
	tty.Write([]byte("\r"))
	scr.waitUntil(t, "the searched line to run again", 5*time.Second, func(text string) bool {
		return strings.Count(text, "alpha-21") > ran
	})
	tty.Write([]byte("/sess\t"))
	scr.waitFor(t, "❯ /session", 5*time.Second) // completed (the trailing blank is not drawn)
	tty.Write([]byte("\r"))
	scr.waitFor(t, "Offloaded:", 5*time.Second)
	leave(t, cmd, tty, scr)
	if n := strings.Count(scr.text(), "alpha-21"); n < 2 {
		t.Fatalf("the searched line ran %d times", n)
	}
}
