package e2e

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/creack/pty"
)

// TestWatchSeesAnotherProcess runs `todo-shell watch` in a pseudo-terminal
// and has another process (sh) append plan versions to the session's
// todos.jsonl; each version reaches the screen. How fast is measured by
// BenchmarkWatchLag, not asserted here: a busy machine must not fail a test.
func TestWatchSeesAnotherProcess(t *testing.T) {
	t.Parallel()
	w := startWatch(t)
	for n := 1; n <= 5; n++ {
		w.append(t, n)
		w.scr.waitFor(t, fmt.Sprintf("● Doing step %d", n), 5*time.Second)
	}
	w.quit(t)
}

// BenchmarkWatchLag is the time from another process's append to
// todos.jsonl to the new version on watch's screen (target ≤ 100 ms).
func BenchmarkWatchLag(b *testing.B) {
	w := startWatch(b)
	var lags []time.Duration
	for n := 1; n <= b.N; n++ {
		w.append(b, n)
		written := time.Now()
		w.scr.waitFor(b, fmt.Sprintf("● Doing step %d", n), 5*time.Second)
		lags = append(lags, time.Since(written))
	}
	sort.Slice(lags, func(i, j int) bool { return lags[i] < lags[j] })
	b.ReportMetric(float64(lags[len(lags)/2].Microseconds())/1000, "median-ms")
	w.quit(b)
}

// watchUnderTest is `todo-shell watch` in a pseudo-terminal over a session
// directory another process writes to.
type watchUnderTest struct {
	cmd     *exec.Cmd
	tty     *os.File
	scr     *screen
	session string
}

func startWatch(t testing.TB) *watchUnderTest {
	t.Helper()
	off := t.TempDir()
	session := filepath.Join(off, "s1")
	os.MkdirAll(session, 0o700)
	cmd := exec.Command(binary, "watch", "--offload-dir", off)
	cmd.Env = append(os.Environ(), "TERM=xterm-256color", "NO_COLOR=1")
	tty, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 24, Cols: 80})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tty.Close() })
	scr := &screen{tty: tty}
	go io.Copy(scr, tty)
	scr.waitFor(t, "waiting for a plan…", 5*time.Second)
	return &watchUnderTest{cmd: cmd, tty: tty, scr: scr, session: session}
}

// append has sh append version n to the session's todos.jsonl.
func (w *watchUnderTest) append(t testing.TB, n int) {
	t.Helper()
	line := fmt.Sprintf(`{"version":%d,"time":"2026-11-20T09:00:00Z","tool_use_id":"toolu_%d","todos":[{"content":"Step %d","status":"in_progress","activeForm":"Doing step %d"}]}`, n, n, n, n)
	writer := exec.Command("sh", "-c", `printf '%s\n' "$1" >> "$2"`, "sh", line, filepath.Join(w.session, "todos.jsonl"))
	if out, err := writer.CombinedOutput(); err != nil {
		t.Fatalf("writer: %v %s", err, out)
	}
}

// quit presses q and waits for watch to exit cleanly.
func (w *watchUnderTest) quit(t testing.TB) {
	t.Helper()
	w.tty.Write([]byte("q"))
	waitExit(t, w.cmd, "watch did not quit on q")
}

// TestReplayStepInTerminal steps through a fixture with space and ←.
func TestReplayStepInTerminal(t *testing.T) {
	t.Parallel()
	fixture, _ := filepath.Abs("../internal/plan/testdata/shell_transcript.jsonl")
	cmd := exec.Command(binary, "replay", "--step", fixture)
	cmd.Env = append(os.Environ(), "TERM=xterm-256color", "NO_COLOR=1")
	tty, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 24, Cols: 80})
	if err != nil {
		t.Fatal(err)
	}
	defer tty.Close()
	scr := &screen{tty: tty}
	go io.Copy(scr, tty)
	scr.waitFor(t, "Planning.", 5*time.Second)
	tty.Write([]byte(" "))
	scr.waitFor(t, "● TodoWrite(2 todos)", 5*time.Second)
	tty.Write([]byte(" "))
	scr.waitFor(t, "● Running the build", 5*time.Second)
	tty.Write([]byte(" \x1b[C"))
	scr.waitFor(t, "● Bash(make build)", 5*time.Second)
	tty.Write([]byte("\x1b[D"))
	scr.waitForRaw(t, "\x1b[2J", 5*time.Second) // back redraws from a cleared screen
	tty.Write([]byte("q"))
	waitExit(t, cmd, "q did not end replay")
}

// TestReplayPlaysInTerminal plays a Claude Code fixture back at speed and
// sees the call lines, the assistant's text and the final panel.
func TestReplayPlaysInTerminal(t *testing.T) {
	t.Parallel()
	fixture, _ := filepath.Abs("../internal/plan/testdata/claude_1x.jsonl")
	cmd := exec.Command(binary, "replay", "--speed", "1000", fixture)
	cmd.Env = append(os.Environ(), "TERM=xterm-256color", "NO_COLOR=1")
	tty, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 24, Cols: 80})
	if err != nil {
		t.Fatal(err)
	}
	defer tty.Close()
	scr := &screen{tty: tty}
	go io.Copy(scr, tty)
	for _, want := range []string{
		"I'll plan this first.",
		"● TodoWrite(3 todos)",
		"● Read(/home/me/my_app.v2/report.go)",
		"● Bash(go test ./...)",
		"Done: the report page has a CSV export.",
		"— end of replay: 3 plan versions —",
		"Tasks 3/3",
	} {
		scr.waitFor(t, want, 5*time.Second)
	}
	waitExit(t, cmd, "replay did not end")
}
