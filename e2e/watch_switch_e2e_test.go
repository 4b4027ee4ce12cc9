package e2e

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/todo-shell/todo-shell/internal/testwait"
)

// pipedSession is a shell of its own session in off, reading its lines
// from a pipe: live (holding the session's lock) until its input closes.
type pipedSession struct {
	t     *testing.T
	cmd   *exec.Cmd
	stdin io.WriteCloser
	dir   string
}

// startPiped starts session id in off and waits for its lock, so that it
// counts as live.
func startPiped(t *testing.T, off, id string) *pipedSession {
	t.Helper()
	cmd := exec.Command(binary, "--offload-dir", off, "--session", id)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &pipedSession{t: t, cmd: cmd, stdin: stdin, dir: filepath.Join(off, id)}
	t.Cleanup(func() { stdin.Close(); cmd.Wait() })
	testwait.For(t, 5*time.Second, "session "+id+" to take its lock", func() bool {
		b, _ := os.ReadFile(filepath.Join(s.dir, "lock"))
		return len(b) > 0
	})
	return s
}

// plan writes a one-item plan and waits for it on disk.
func (s *pipedSession) plan(step string) {
	s.t.Helper()
	s.todoWrite(`{"todos":[{"content":"` + step + `","activeForm":"Doing ` + step + `","status":"in_progress"}]}`)
}

// todoWrite runs TodoWrite with input and waits for the version on disk.
func (s *pipedSession) todoWrite(input string) {
	s.t.Helper()
	before, _ := os.ReadFile(filepath.Join(s.dir, "todos.jsonl"))
	if _, err := io.WriteString(s.stdin, "TodoWrite '"+input+"'\n"); err != nil {
		s.t.Fatal(err)
	}
	testwait.For(s.t, 5*time.Second, "the plan "+input+" on disk", func() bool {
		b, _ := os.ReadFile(filepath.Join(s.dir, "todos.jsonl"))
		return len(b) > len(before)
	})
}

// end closes the session's input and waits for it to exit.
func (s *pipedSession) end() {
	s.t.Helper()
	s.stdin.Close()
	waitExit(s.t, s.cmd, "the session did not end when its input closed")
}

// watchOffload runs `watch` (no id) over off in a rows×cols terminal.
func watchOffload(t *testing.T, off string, rows, cols uint16) *screen {
	t.Helper()
	watch := exec.Command(binary, "watch", "--offload-dir", off)
	watch.Env = append(os.Environ(), "TERM=xterm-256color", "NO_COLOR=1")
	tty, err := pty.StartWithSize(watch, &pty.Winsize{Rows: rows, Cols: cols})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tty.Close(); watch.Process.Kill(); watch.Wait() })
	scr := &screen{tty: tty}
	go io.Copy(scr, tty)
	return scr
}

// TestWatchSwitchesToTheLiveSessionWithAPlan: watch with no id follows the
// most recent live session that has a plan. Shown an empty session (the
// newest), it moves to an older live one as soon as that one gets a plan;
// shown a session that then ends, it moves to the live one with a plan
// left. Each move is said in one line.
func TestWatchSwitchesToTheLiveSessionWithAPlan(t *testing.T) {
	t.Parallel()
	t.Run("an older live session gets a plan", func(t *testing.T) {
		off := filepath.Join(t.TempDir(), "off")
		a := startPiped(t, off, "a")
		startPiped(t, off, "b") // newer, live, and stays empty
		scr := watchOffload(t, off, 24, 80)
		scr.waitFor(t, "watching b", 5*time.Second)
		written := time.Now()
		a.plan("step one")
		scr.waitFor(t, "Doing step one", 5*time.Second)
		scr.waitFor(t, "switched from b to a", 5*time.Second)
		t.Logf("plan written to switch on screen: %v", time.Since(written))
	})
	t.Run("the session shown ends", func(t *testing.T) {
		off := filepath.Join(t.TempDir(), "off")
		a := startPiped(t, off, "a")
		a.plan("from a")
		b := startPiped(t, off, "b")
		b.plan("from b")
		scr := watchOffload(t, off, 24, 80)
		scr.waitFor(t, "Doing from b", 5*time.Second)
		b.end()
		scr.waitFor(t, "switched from b to a: b has ended", 5*time.Second)
		scr.waitFor(t, "Doing from a", 5*time.Second)
		// A throwaway run (an empty session that ends) never takes a
		// live session with a plan away.
		if out, err := exec.Command(binary, "--offload-dir", off, "-c", "echo hi").CombinedOutput(); err != nil {
			t.Fatalf("echo hi: %v %s", err, out)
		}
		a.plan("a again")
		scr.waitFor(t, "Doing a again", 5*time.Second)
		if text := scr.text(); strings.Contains(text, "switched from a") {
			t.Fatalf("watch left session a:\n%s", text)
		}
	})
	for _, sig := range []syscall.Signal{syscall.SIGHUP, syscall.SIGKILL} {
		// A session killed by a signal writes nothing as it ends (its
		// terminal closed, say): watch still sees that it has ended, as
		// `sessions` does, and moves to the live one.
		t.Run("the session shown is killed by "+sig.String(), func(t *testing.T) {
			off := filepath.Join(t.TempDir(), "off")
			a := startPiped(t, off, "a")
			a.plan("from a")
			b := startPiped(t, off, "b")
			b.plan("from b")
			scr := watchOffload(t, off, 24, 80)
			scr.waitFor(t, "Doing from b", 5*time.Second)
			if err := b.cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			_ = b.cmd.Wait() // killed: its status is the signal's
			scr.waitFor(t, "switched from b to a: b has ended", 5*time.Second)
			scr.waitFor(t, "Doing from a", 5*time.Second)
		})
	}
}

// TestWatchAllShowsLivePlansOnly: `watch --all` lists a live shared task
// plan (--plan NAME); a todo-shell session with an empty list is shown
// while its process is live and not once it has ended (its lock released),
// and one that had ended before watch started is never shown.
func TestWatchAllShowsLivePlansOnly(t *testing.T) {
	t.Parallel()
	for _, sz := range sizes {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			home := t.TempDir()
			off, state := filepath.Join(home, "off"), filepath.Join(home, "state")
			env := []string{"HOME=" + home, "XDG_STATE_HOME=" + state, "CODEX_HOME=", "CLAUDE_CONFIG_DIR="}
			run := func(args ...string) {
				cmd := exec.Command(binary, args...)
				cmd.Env = append(os.Environ(), env...)
				if out, err := cmd.CombinedOutput(); err != nil {
					t.Fatalf("%v: %v %s", args, err, out)
				}
			}
			run("--offload-dir", off, "--session", "gone", "-c", `TodoWrite '{"todos":[]}'`)
			run("--plan", "build", "-c", `TaskCreate '{"subject":"Read the spec","description":""}'`)
			live := startPiped(t, off, "live")
			live.todoWrite(`{"todos":[]}`)
			tt := startTmuxWith(t, sz[0], sz[1], home, "live plan", env, "watch", "--all", "--offload-dir", off)
			boxes := func(s string) int { return strings.Count(s, "╭─ todo-shell · ") }
			tt.waitUntil("the shared plan and the live session", func() bool {
				s := tt.screen()
				return strings.Contains(s, "2 live plans") && strings.Contains(s, "╭─ todo-shell plan · build") && boxes(s) == 1
			})
			// The session's box names its id, for `todo-shell watch ID`.
			if s := tt.screen(); !strings.Contains(s, "╭─ todo-shell · live · ") {
				t.Fatalf("the session's box has no id:\n%s", s)
			}
			live.end()
			tt.waitUntil("the ended session's box gone", func() bool {
				s := tt.screen()
				return strings.Contains(s, "1 live plan ") && strings.Contains(s, "╭─ todo-shell plan · build") && boxes(s) == 0
			})
		})
	}
}
