package e2e

import (
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"
)

// TestZeroSizeTerminalDraws: on a terminal that says it is 0×0 (a serial
// console, some CI pty wrappers) the shell draws its prompt within a second,
// at COLUMNS×LINES when they are set, else at 80×24, as bash assumes (it
// drew nothing, waiting for a size that never came).
func TestZeroSizeTerminalDraws(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		env   []string
		width int
	}{
		{"no COLUMNS", nil, 80},
		{"COLUMNS=50 LINES=12", []string{"COLUMNS=50", "LINES=12"}, 50},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(binary, "--offload-dir", t.TempDir())
			cmd.Dir = t.TempDir()
			cmd.Env = append(withoutSize(os.Environ()), "TERM=xterm-256color", "XDG_STATE_HOME="+t.TempDir())
			cmd.Env = append(cmd.Env, tc.env...)
			tty, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 0, Cols: 0})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait(); tty.Close() })
			s := &screen{tty: tty}
			go func() { _, _ = io.Copy(s, tty) }()
			start := time.Now()
			s.waitFor(t, "❯", 5*time.Second)
			if d := time.Since(start); d > time.Second {
				t.Errorf("the first prompt took %v, want within 1 s", d)
			}
			// A command gets a terminal as wide as the shell's.
			_, _ = tty.Write([]byte("stty size <&1\r"))
			s.output(t, "24 "+strconv.Itoa(tc.width), 5*time.Second) // a command's terminal has 24 rows
		})
	}
}

// withoutSize is env without COLUMNS and LINES.
func withoutSize(env []string) []string {
	var out []string
	for _, e := range env {
		if !strings.HasPrefix(e, "COLUMNS=") && !strings.HasPrefix(e, "LINES=") {
			out = append(out, e)
		}
	}
	return out
}
