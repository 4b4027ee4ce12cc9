package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/todo-shell/todo-shell/internal/testwait"
)

// These tests drive the built todo-shell in a real tmux, the terminal a
// person would use, and read back what it shows with capture-pane. They
// wait for the output they assert on (polling capture-pane), never for a
// fixed time. TODO_SHELL_BINARY runs them against another build (to see
// them fail before a fix).

// tmuxTerm is todo-shell running in its own tmux server.
type tmuxTerm struct {
	t      *testing.T
	socket string // path of its server's socket

	controlOnce sync.Once
	control     *tmuxControl // its reads' client (tmux_control_test.go); nil when it could not be started
}

// startTmux runs todo-shell in a cols×rows tmux window.
func startTmux(t *testing.T, cols, rows int) *tmuxTerm {
	t.Helper()
	return startTmuxIn(t, cols, rows, t.TempDir())
}

// startTmuxIn runs todo-shell in dir (offload directory dir/.offload)
// with args, in a cols×rows tmux window, and waits for the shell's first
// prompt (unless args start with a subcommand).
func startTmuxIn(t *testing.T, cols, rows int, dir string, args ...string) *tmuxTerm {
	t.Helper()
	return startTmuxEnv(t, cols, rows, dir, "NO_COLOR=1", args...)
}

// startTmuxEnv is startTmuxIn with env (NAME=value words) instead of
// NO_COLOR=1: with "", the shell runs in colour and its commands write to
// a terminal of their own, as for a person.
func startTmuxEnv(t *testing.T, cols, rows int, dir, env string, args ...string) *tmuxTerm {
	t.Helper()
	return startTmuxConf(t, cols, rows, dir, env, tmuxConfig(t), args...)
}

// startTmuxConf is startTmuxEnv with the tmux configuration file conf.
func startTmuxConf(t *testing.T, cols, rows int, dir, env, conf string, args ...string) *tmuxTerm {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		skipUnlessCI(t, "tmux is not installed: the terminal tests need a real tmux (apt-get install tmux)")
	}
	bin := binary
	tt := &tmuxTerm{t: t, socket: filepath.Join(dir, "tmux.sock")} // a server of its own, removed with dir
	// A state directory of its own (history, plans), unless env names
	// one: tests run in parallel.
	cmd := fmt.Sprintf("cd %s && XDG_STATE_HOME=%s %s TERM=tmux-256color exec %s --offload-dir %s %s", dir, t.TempDir(), env, bin, filepath.Join(dir, ".offload"), strings.Join(args, " "))
	tt.newSession(conf, cols, rows, cmd)
	t.Cleanup(func() { exec.Command("tmux", "-S", tt.socket, "kill-server").Run() })
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		return tt // a subcommand (watch, replay): no prompt to wait for
	}
	tt.waitScreen("the first prompt", func(s string) bool { return strings.Contains(s, "❯") })
	return tt
}

// tmuxConfig writes a tmux.conf of its own (not in the shell's directory,
// where a test may list or complete files), the options a test's tmux server has
// before its window exists (tmux -f): a scrollback to read, and the window
// kept after its command ends, to look at the terminal after. Set after
// new-session, a command that ends at once (replay --speed 100) could end
// the session, and the server, before remain-on-exit was on.
func tmuxConfig(t *testing.T, more ...string) string {
	t.Helper()
	conf := filepath.Join(t.TempDir(), "tmux.conf")
	text := "set-option -g history-limit 10000\nset-option -g remain-on-exit on\n" + strings.Join(more, "")
	if err := os.WriteFile(conf, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return conf
}

// newSession starts the server, with the configuration file conf, and
// its session "t", a cols×rows window running the shell command cmd, its
// output piped to nothing. The pipe is for tmux (3.3a to 3.6a at least):
// it closes a pane as soon as the pane's process has exited, and what the
// process wrote last and tmux had not yet read is lost (a replay that
// ends at once left a blank pane, once in some 1,500 runs under load;
// "seq 1 300" in a bare tmux lost its end once in 150). A piped pane is
// kept until tmux has read it all (window_pane_destroy_ready). Given in
// the same tmux command, the pipe is there before the server can see the
// process end.
func (tt *tmuxTerm) newSession(conf string, cols, rows int, cmd string) {
	tt.t.Helper()
	tt.run("-f", conf, "new-session", "-d", "-s", "t", "-x", fmt.Sprint(cols), "-y", fmt.Sprint(rows), cmd,
		";", "pipe-pane", "-t", "t", "exec cat >/dev/null")
}

func (tt *tmuxTerm) run(args ...string) string {
	tt.t.Helper()
	if out, ok := tt.viaControl(args); ok {
		return out
	}
	out, err := exec.Command("tmux", append([]string{"-S", tt.socket}, args...)...).CombinedOutput()
	if err != nil {
		tt.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// screen is what the window shows; all is the scrollback and the window.
func (tt *tmuxTerm) screen() string { return tt.run("capture-pane", "-p", "-t", "t") }
func (tt *tmuxTerm) all() string    { return tt.run("capture-pane", "-p", "-S", "-", "-t", "t") }

// waitScreen waits until ok holds for the scrollback and window.
func (tt *tmuxTerm) waitScreen(what string, ok func(string) bool) string {
	tt.t.Helper()
	var s string
	testwait.For(tt.t, 10*time.Second, what, func() bool { s = tt.all(); return ok(s) },
		func() string { return "the terminal holds:\n" + s })
	return s
}

// waitUntil waits until ok holds, for a check that reads the terminal
// itself (only the window, the joined lines, a format): a capture of the
// scrollback besides would be a second look for nothing. On failure it
// shows the scrollback and window.
func (tt *tmuxTerm) waitUntil(what string, ok func() bool) {
	tt.t.Helper()
	testwait.For(tt.t, 10*time.Second, what, ok, func() string { return "the terminal holds:\n" + tt.all() })
}

// paste types text as a bracketed paste (one line: it waits for Enter).
func (tt *tmuxTerm) paste(text string) {
	tt.t.Helper()
	cmd := exec.Command("tmux", "-S", tt.socket, "load-buffer", "-")
	cmd.Stdin = strings.NewReader(text)
	if out, err := cmd.CombinedOutput(); err != nil {
		tt.t.Fatalf("load-buffer: %v\n%s", err, out)
	}
	tt.run("paste-buffer", "-p", "-d", "-t", "t")
}

// command runs a line and waits for the output line want.
func (tt *tmuxTerm) command(line, want string) string {
	tt.t.Helper()
	tt.paste(line)
	tt.run("send-keys", "-t", "t", "Enter")
	return tt.waitScreen(fmt.Sprintf("%q after %q", want, line), func(s string) bool {
		return hasLine(s, want) && idle(s)
	})
}

// hasLine reports whether a line of s is exactly want (trailing blanks aside).
func hasLine(s, want string) bool {
	for _, l := range strings.Split(s, "\n") {
		if strings.TrimRight(l, " ") == want {
			return true
		}
	}
	return false
}

// idle reports that the last non-blank row is an empty prompt.
func idle(s string) bool {
	lines := strings.Split(strings.TrimRight(s, "\n "), "\n")
	last := strings.TrimRight(lines[len(lines)-1], " ")
	return strings.HasSuffix(last, "❯")
}

// count counts the lines of s containing sub.
func count(s, sub string) int {
	n := 0
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			n++
		}
	}
	return n
}

// todoWrite is a TodoWrite line: done completed items, one in progress,
// pending items, with extra contents placed just after the item in progress.
func todoWrite(done, pending int, extra ...string) string {
	type item struct {
		Content    string `json:"content"`
		ActiveForm string `json:"activeForm"`
		Status     string `json:"status"`
	}
	var items []item
	for i := 0; i < done; i++ {
		items = append(items, item{fmt.Sprintf("Finished step %d", i), "x", "completed"})
	}
	items = append(items, item{"Current step", "Working on the current step", "in_progress"})
	for _, e := range extra {
		items = append(items, item{e, "x", "pending"})
	}
	for i := 0; i < pending; i++ {
		items = append(items, item{fmt.Sprintf("Later step %d", i), "x", "pending"})
	}
	b, _ := json.Marshal(map[string]any{"todos": items})
	return "TodoWrite '" + string(b) + "'"
}

// skipUnlessCI skips a test that lacks what it needs on a developer's
// machine, but fails it under CI (CI set), where .ci/run installs
// everything: a terminal test that skips there would pass by running nothing.
func skipUnlessCI(t *testing.T, why string) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatal(why)
	}
	t.Skip(why)
}
