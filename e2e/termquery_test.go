package e2e

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"
)

// silentTerminal runs the binary with args in a pseudo-terminal that never
// answers a query (as a serial console or `script` with nothing behind it
// does), and returns everything it wrote once it has exited.
func silentTerminal(t *testing.T, args ...string) string {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), "TERM=xterm-256color", "XDG_STATE_HOME="+t.TempDir())
	tty, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 24, Cols: 80})
	if err != nil {
		t.Fatal(err)
	}
	defer tty.Close()
	var out bytes.Buffer
	copied := make(chan struct{})
	go func() { _, _ = io.Copy(&out, tty); close(copied) }()
	waitExit(t, cmd, strings.Join(args, " ")+": did not exit")
	<-copied // the pty reads end of file (EIO) once the child is gone
	return out.String()
}

// TestNoTerminalQueryOutsideTheShell: `--help`, `version`, `-c` and the
// other one-shot commands ask the terminal nothing, so a terminal that never
// answers cannot make them wait (it did: 5 s each, 10 s for -c, from Bubble
// Tea's package init asking for the background colour).
func TestNoTerminalQueryOutsideTheShell(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"--help"},
		{"version"},
		{"-c", "echo hi"},
		{"-c", `TodoWrite '{"todos":[{"content":"A","activeForm":"Doing A","status":"in_progress"}]}'`},
		{"sessions"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			out := silentTerminal(t, args...)
			for _, q := range []string{"\x1b]11;", "\x1b]10;", "\x1b[6n", "\x1b[c"} {
				if strings.Contains(out, q) {
					t.Errorf("asked the terminal %q:\n%q", q, out)
				}
			}
		})
	}
}

// TestShellWaitsBrieflyOnASilentTerminal: the interactive shell asks for the
// background once, and on a terminal that never answers shows its prompt
// anyway: it waits for no answer (the styles follow one when it comes;
// BenchmarkProcessFirstPromptSilentTerminal measures it).
func TestShellWaitsBrieflyOnASilentTerminal(t *testing.T) {
	t.Parallel()
	cmd := exec.Command(binary, "--offload-dir", t.TempDir())
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), "TERM=xterm-256color", "XDG_STATE_HOME="+t.TempDir())
	tty, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 24, Cols: 80})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait(); tty.Close() })
	s := &screen{tty: io.Discard} // answers nothing
	go func() { _, _ = io.Copy(s, tty) }()
	s.waitFor(t, "❯", 10*time.Second)
	if n := strings.Count(s.raw(), "\x1b]11;?"); n != 1 {
		t.Errorf("asked for the background %d times, want once", n)
	}
	_, _ = tty.Write([]byte("echo typed\r"))
	s.output(t, "typed", 10*time.Second)
}
