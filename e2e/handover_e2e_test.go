package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestHandoverTerminal runs programs that need the terminal from the real
// shell in a pseudo-terminal: /tty gives the command the terminal in its
// normal (canonical, echoing) mode, the result reports the exit status, and
// the shell reads keys in raw mode again afterwards.
func TestHandoverTerminal(t *testing.T) {
	t.Parallel()
	cmd, tty, scr := startInTerminal(t, t.TempDir())
	scr.waitFor(t, "❯", 5*time.Second)
	tty.Write([]byte("/tty stty -a | grep -o ' icanon' ; tty; exit 3\r"))
	scr.waitFor(t, " icanon", 5*time.Second) // not -icanon: the terminal is in normal mode
	scr.waitFor(t, "/dev/pts/", 5*time.Second)
	scr.waitFor(t, "(ran in the terminal; exit status 3)", 5*time.Second)
	tty.Write([]byte("echo back-$((1+1))\r"))
	scr.waitFor(t, "back-2", 5*time.Second)
	if _, err := exec.LookPath("python3"); err == nil {
		tty.Write([]byte("python3\r")) // a REPL with no arguments gets the terminal by itself
		scr.waitFor(t, ">>> ", 10*time.Second)
		tty.Write([]byte("print(6*7)\r"))
		scr.waitFor(t, "42", 5*time.Second)
		tty.Write([]byte("exit()\r"))
		scr.waitFor(t, "(ran in the terminal; exit status 0)", 5*time.Second)
		tty.Write([]byte("echo again-$((2+2))\r"))
		scr.waitFor(t, "again-4", 5*time.Second)
	}
	leave(t, cmd, tty, scr)
}

// TestTmuxResizeDuringHandoverKeepsTheProgramsOutput: a resize while a
// program has the terminal (python3, cat) must leave all it printed; the
// shell's next draw used to climb over it as if the old, wider panel were
// still on the screen.
func TestTmuxResizeDuringHandoverKeepsTheProgramsOutput(t *testing.T) {
	t.Parallel()
	tt := startTmux(t, 80, 24)
	tt.command(todoWrite(2, 3), "Todo list updated: 2 completed, 1 in_progress, 3 pending")
	tt.run("send-keys", "-t", "t", "/tty cat", "Enter")
	// Keys typed before cat has the terminal are the shell's: wait for cat.
	shell := strings.TrimSpace(tt.run("display-message", "-p", "-t", "t", "#{pane_pid}"))
	tt.waitUntil("cat to run", func() bool { return hasChild(shell, "cat") })
	tt.run("send-keys", "-t", "t", "first line typed", "Enter")
	tt.waitScreen("cat's echo of the first line", func(s string) bool { return count(s, "first line typed") == 2 })
	tt.resize(60, 20)
	tt.run("send-keys", "-t", "t", "second line", "Enter")
	tt.waitScreen("cat's echo of the second line", func(s string) bool { return count(s, "second line") == 2 })
	tt.run("send-keys", "-t", "t", "C-d")
	s := tt.waitScreen("the shell back", func(s string) bool {
		return strings.Contains(s, "(ran in the terminal; exit status 0)") && idle(s)
	})
	if count(s, "first line typed") != 2 || count(s, "second line") != 2 {
		t.Fatalf("the program's output was erased:\n%s", s)
	}
}

// hasChild reports whether the process pid has a child named name.
func hasChild(pid, name string) bool {
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, f := range stats {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...
		s := string(b)
		open, end := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
		if open < 0 || end < open {
			continue
		}
		fields := strings.Fields(s[end+1:])
		if s[open+1:end] == name && len(fields) > 1 && fields[1] == pid {
			return true
		}
	}
	return false
}

// TestReplWithArgumentsGetsTheTerminal holds issue 29 item 15: a REPL
// started with arguments that keep it a REPL (python3 -q, sqlite3 DB, node
// --no-warnings) gets the terminal by what the program is; on the build
// before, only a REPL with no arguments did, and these ran with an empty
// input and ended at once. python3 -c still runs captured.
func TestReplWithArgumentsGetsTheTerminal(t *testing.T) {
	t.Parallel()
	repls := []struct {
		line, prompt, input, output, exit string
	}{
		{"python3 -q", ">>> ", "print(6*7)", "42", "exit()"},
		{"sqlite3 -batch -interactive notes.db", "sqlite> ", "select 6*7;", "42", ".quit"},
		{"node --no-warnings", "> ", "6*7", "42", ".exit"},
	}
	cmd, tty, scr := startInTerminal(t, t.TempDir())
	scr.waitFor(t, "❯", 5*time.Second)
	ran := 0
	for _, r := range repls {
		if _, err := exec.LookPath(strings.Fields(r.line)[0]); err != nil {
			t.Logf("%s: not installed", r.line)
			continue
		}
		ran++
		before := strings.Count(scr.text(), "(ran in the terminal; exit status 0)")
		tty.Write([]byte(r.line + "\r"))
		scr.waitUntil(t, r.line+"'s prompt", 10*time.Second, func(s string) bool {
			return strings.HasSuffix(strings.TrimRight(s, " \n"), strings.TrimSpace(r.prompt))
		})
		tty.Write([]byte(r.input + "\r"))
		scr.waitFor(t, r.output, 5*time.Second)
		tty.Write([]byte(r.exit + "\r"))
		scr.waitUntil(t, "the shell back after "+r.line, 10*time.Second, func(s string) bool {
			return strings.Count(s, "(ran in the terminal; exit status 0)") > before
		})
	}
	if ran == 0 {
		t.Skip("no REPL installed")
	}
	tty.Write([]byte("python3 -c 'print(7*6)' | tr 4 X\r")) // captured, not handed over
	scr.waitFor(t, "X2", 5*time.Second)
	leave(t, cmd, tty, scr)
}
