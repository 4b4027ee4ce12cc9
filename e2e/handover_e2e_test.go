package e2e

import (
	"os/exec"
	"testing"
	"time"
)

// TestHandoverTerminal runs programs that need the terminal from the real
// shell in a pseudo-terminal: /tty gives the command the terminal in its
// normal (canonical, echoing) mode, the result reports the exit status, and
// the shell reads keys in raw mode again afterwards.
func TestHandoverTerminal(t *testing.T) {
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
	leave(t, cmd, tty)
}
