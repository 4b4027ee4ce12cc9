package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"
)

// titleOf is the pane's title, as the program in it last set it.
func (tt *tmuxTerm) title() string {
	return strings.TrimSpace(tt.run("display-message", "-p", "-t", "t", "#{pane_title}"))
}

// TestTmuxCommandsCannotReachTheTerminal: a command has no controlling
// terminal, so one that opens /dev/tty — to ask for a password, to set
// the terminal's modes, to write to it past its captured output — fails
// at once with a clear error, where it used to be stopped by the terminal
// (SIGTTIN, SIGTTOU: a spinner until Ctrl+C) or to retitle and clear the
// person's terminal raw. In colour (a terminal of its own for output) and
// without (a pipe).
func TestTmuxCommandsCannotReachTheTerminal(t *testing.T) {
	t.Parallel()
	for _, env := range []string{"", "NO_COLOR=1"} {
		t.Run("env="+env, func(t *testing.T) {
			tt := startTmuxEnv(t, 100, 30, t.TempDir(), env)
			title := tt.title()
			lines := []struct{ line, want string }{
				{`stty -echo </dev/tty; echo "stty-status $?"`, "stty-status 1"},
				{`read x </dev/tty; echo "read-status $?"`, "read-status 1"},
				{`printf '\e]0;PWNED\a\e[2J' >/dev/tty; echo "printf-status $?"`, "printf-status 1"},
			}
			if _, err := exec.LookPath("python3"); err == nil {
				lines = append(lines, struct{ line, want string }{
					`python3 -c "import getpass; getpass.getpass()" 2>&1 | tail -1; echo "getpass-done"`, "getpass-done"})
			}
			for _, l := range lines {
				tt.paste(l.line)
				tt.run("send-keys", "-t", "t", "Enter")
				tt.waitScreen(l.want, func(s string) bool { return hasLine(s, l.want) && idle(s) })
			}
			s := tt.all()
			if n := strings.Count(s, "/dev/tty: No such device or address"); n != 3 {
				t.Errorf("%d of 3 commands said /dev/tty is no device:\n%s", n, s)
			}
			if got := tt.title(); got != title || strings.Contains(got, "PWNED") {
				t.Errorf("the pane's title went from %q to %q", title, got)
			}
			if !strings.Contains(tt.screen(), "stty-status 1") {
				t.Errorf("the screen was cleared:\n%s", tt.screen())
			}
		})
	}
}

// TestCommandLineCommandsCannotReachTheTerminal: `todo-shell -c`, started
// from a terminal, runs its command with no controlling terminal either: a
// command opening /dev/tty fails at once instead of being stopped.
func TestCommandLineCommandsCannotReachTheTerminal(t *testing.T) {
	t.Parallel()
	cmd := exec.Command(binary, "--offload-dir", t.TempDir(), "-c", `stty -echo </dev/tty; echo "stty-status $?"`)
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), "TERM=xterm-256color", "NO_COLOR=1")
	tty, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 24, Cols: 80})
	if err != nil {
		t.Fatal(err)
	}
	defer tty.Close()
	scr := &screen{tty: tty}
	go io.Copy(scr, tty)
	scr.waitFor(t, "stty-status 1", 5*time.Second)
	waitExit(t, cmd, "todo-shell -c did not end")
	if !strings.Contains(scr.text(), "/dev/tty: No such device or address") {
		t.Errorf("output: %q", scr.text())
	}
}

// TestTmuxResizeReachesTheRunningCommand: a command running when the
// window is resized is told, as a terminal tells its programs: its
// terminal's width (stty size) follows the window's, 100 columns, then 60.
func TestTmuxResizeReachesTheRunningCommand(t *testing.T) {
	t.Parallel()
	tt := startTmuxEnv(t, 100, 30, t.TempDir(), "")
	gate := filepath.Join(tt.dir(), "go-on")
	tt.paste(fmt.Sprintf(`until [ -e %s ]; do echo "size $(stty size <&2)"; sleep 0.05; done; echo finished-running`, gate))
	tt.run("send-keys", "-t", "t", "Enter")
	tt.waitScreen("the command's first size", func(s string) bool { return strings.Contains(s, "size 24 100") })
	tt.resize(60, 30)
	tt.waitUntil("the command's new size", func() bool { return strings.Contains(tt.screen(), "size 24 60") })
	if err := os.WriteFile(gate, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	tt.waitScreen("the command's end", func(s string) bool { return hasLine(s, "finished-running") && idle(s) })
}

// TestOneMegabyteCommand: a command longer than one argument of exec may
// be (MAX_ARG_STRLEN, 128 KiB) runs, through serve's Bash tool and in
// script mode, where it failed with "argument list too long".
func TestOneMegabyteCommand(t *testing.T) {
	t.Parallel()
	heredoc := "cat <<'EOF' | wc -c\n" + strings.Repeat(strings.Repeat("x", 99)+"\n", 10000) + "EOF"
	dir := t.TempDir()
	input, err := json.Marshal(map[string]string{"command": heredoc})
	if err != nil {
		t.Fatal(err)
	}
	if got, isErr := serveAnswer(t, dir, "Bash", string(input)); isErr || strings.TrimSpace(got) != "1000000" {
		t.Errorf("serve: %q (is_error %v)", got, isErr)
	}
	cmd := exec.Command(binary, "--offload-dir", filepath.Join(dir, "script-off"))
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(heredoc + "\necho after\n")
	out, err := cmd.CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != "1000000\nafter" {
		t.Errorf("script mode: %v %q", err, out)
	}
}
