//go:build linux

package repl

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"

	"github.com/todo-shell/todo-shell/internal/painter"
	"github.com/todo-shell/todo-shell/internal/testwait"
)

// TestHandoverGivesQueuedKeysAsTyped: on a real pseudo-terminal, a line
// that reached the terminal while the shell had it in raw mode, and that
// the shell never read, reaches the command as a typed line: "\n"-ended
// (ICRNL), not "\r"-ended.
func TestHandoverGivesQueuedKeysAsTyped(t *testing.T) {
	if !canInject() {
		t.Skip("TIOCSTI is not allowed here")
	}
	ptm, pts, err := pty.Open()
	if err != nil {
		t.Skip("no pseudo-terminal:", err)
	}
	defer ptm.Close()
	defer pts.Close()
	go func() { _, _ = io.Copy(io.Discard, ptm) }() // the echo
	tty, err := painter.Open(pts, pts, painter.Modes{Raw: true})
	if err != nil {
		t.Fatal(err)
	}
	defer tty.Close()
	if _, err := ptm.Write([]byte("typed-early\r")); err != nil {
		t.Fatal(err)
	}
	testwait.For(t, 5*time.Second, "the line to reach the terminal in raw mode", func() bool {
		n, err := unix.IoctlGetInt(int(pts.Fd()), unix.TIOCINQ)
		return err == nil && n == len("typed-early\r")
	})
	out := filepath.Join(t.TempDir(), "out")
	c := exec.Command("head", "-c", strconv.Itoa(len("typed-early\n")))
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	c.Stdin, c.Stdout = pts, f
	h := &handover{cmd: c, painter: painter.New(io.Discard, tty.Size), term: tty}
	if err := h.run(); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(out); string(b) != "typed-early\n" {
		t.Errorf("the command read %q, want %q", b, "typed-early\n")
	}
}

// canInject reports whether this process may put keys into a terminal's
// input queue (TIOCSTI): root may, others where Linux's
// dev.tty.legacy_tiocsti is not 0 (or where there is no such setting).
func canInject() bool {
	b, err := os.ReadFile("/proc/sys/dev/tty/legacy_tiocsti")
	return os.Getuid() == 0 || err != nil || strings.TrimSpace(string(b)) != "0"
}
