package e2e

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/todo-shell/todo-shell/internal/testwait"
)

// TestKeysTypedBeforeTheProgramHasTheTerminal: keys typed right after
// `/tty cat` + Enter, before cat has the terminal, reach cat — in the same
// read as the Enter or just after it — and none is taken by the shell.
func TestKeysTypedBeforeTheProgramHasTheTerminal(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		writes []string
	}{
		{"in the same read", []string{"/tty cat > out.txt\rtyped-early\r"}},
		{"just after", []string{"/tty cat > out.txt\r", "typed-early\r"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd, tty, scr := startInTerminal(t, t.TempDir())
			scr.waitFor(t, "❯", 5*time.Second)
			for _, w := range tc.writes {
				tty.Write([]byte(w))
			}
			out := filepath.Join(cmd.Dir, "out.txt")
			testwait.For(t, 5*time.Second, "cat to run", func() bool { _, err := os.Stat(out); return err == nil })
			if !tiocsti() {
				// Keys cannot be put back into the terminal's queue here:
				// they wait in the shell's input, not run.
				tty.Write([]byte{4}) // cat's end of file
				scr.waitFor(t, "(what you typed before the program had the terminal is in the input, not run)", 5*time.Second)
				scr.waitFor(t, "❯ typed-early", 5*time.Second)
				return
			}
			testwait.For(t, 5*time.Second, "cat to have the early line", func() bool {
				b, _ := os.ReadFile(out)
				return string(b) == "typed-early\n"
			}, func() string {
				b, _ := os.ReadFile(out)
				return "out.txt: " + strconv.Quote(string(b)) + "\nscreen: " + strconv.Quote(scr.text())
			})
			tty.Write([]byte{4}) // cat's end of file
			scr.waitFor(t, "(ran in the terminal; exit status 0)", 5*time.Second)
			tty.Write([]byte("echo after-$((1+1))\r"))
			scr.output(t, "after-2", 5*time.Second)
			leave(t, cmd, tty, scr)
		})
	}
}

// tiocsti reports whether this process may put keys back into a terminal's
// input queue (TIOCSTI): root may, others where Linux's
// dev.tty.legacy_tiocsti is not 0 (or where there is no such setting).
func tiocsti() bool {
	b, err := os.ReadFile("/proc/sys/dev/tty/legacy_tiocsti")
	return os.Getuid() == 0 || err != nil || strings.TrimSpace(string(b)) != "0"
}

// TestLineTypedBeforeTheShellStartsRuns: a line typed (with Enter) before
// the shell has the terminal in raw mode runs once it is ready: typed in
// cooked mode, the terminal turned its CR into LF (ICRNL), which the shell
// took for Ctrl+J, a new line in the input (trial finding: `echo early`
// and an empty "…" row were left in the input).
func TestLineTypedBeforeTheShellStartsRuns(t *testing.T) {
	t.Parallel()
	cmd, tty, scr := startInTerminal(t, t.TempDir())
	tty.Write([]byte("echo early-$((1+1))\r")) // before the first prompt
	scr.output(t, "early-2", 5*time.Second)
	leave(t, cmd, tty, scr) // Ctrl+D ends it only on an empty input
}

// TestEscapeSequencesTypedBeforeTheShellStarts: cursor keys typed before
// the shell has the terminal (arrows, Home, End, in the CSI and the SS3
// form) edit the line as they would once it runs, instead of being dropped
// with everything typed after them.
func TestEscapeSequencesTypedBeforeTheShellStarts(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, typed, output string
	}{
		{"left arrow", "echo left-2\x1b[DX\r", "left-X2"},
		{"SS3 left arrow", "echo ss3-2\x1bODX\r", "ss3-X2"},
		{"Home and End", "cho ends-\x1b[He\x1b[F$((1+1))\r", "ends-2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd, tty, scr := startInTerminal(t, t.TempDir())
			tty.Write([]byte(tc.typed)) // before the first prompt
			scr.output(t, tc.output, 5*time.Second)
			leave(t, cmd, tty, scr)
		})
	}
}
