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

// TestWatchSeesAnotherProcessWithin100ms runs `todo-shell watch` in a
// pseudo-terminal and has another process (sh) append plan versions to the
// session's todos.jsonl; each must be on the screen within 100 ms (median
// of five) of that process's exit.
func TestWatchSeesAnotherProcessWithin100ms(t *testing.T) {
	off := t.TempDir()
	session := filepath.Join(off, "s1")
	os.MkdirAll(session, 0o700)
	cmd := exec.Command(binary, "watch", "--offload-dir", off)
	cmd.Env = append(os.Environ(), "TERM=xterm-256color", "NO_COLOR=1")
	tty, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 24, Cols: 80})
	if err != nil {
		t.Fatal(err)
	}
	defer tty.Close()
	scr := &screen{tty: tty}
	go io.Copy(scr, tty)
	scr.waitFor(t, "waiting for a plan…", 5*time.Second)

	var lags []time.Duration
	for n := 1; n <= 5; n++ {
		line := fmt.Sprintf(`{"version":%d,"time":"2026-11-20T09:00:0%dZ","tool_use_id":"toolu_%d","todos":[{"content":"Step %d","status":"in_progress","activeForm":"Doing step %d"}]}`, n, n, n, n, n)
		writer := exec.Command("sh", "-c", `printf '%s\n' "$1" >> "$2"`, "sh", line, filepath.Join(session, "todos.jsonl"))
		if out, err := writer.CombinedOutput(); err != nil {
			t.Fatalf("writer: %v %s", err, out)
		}
		written := time.Now()
		scr.waitFor(t, fmt.Sprintf("● Doing step %d", n), 5*time.Second)
		lags = append(lags, time.Since(written))
	}
	sort.Slice(lags, func(i, j int) bool { return lags[i] < lags[j] })
	t.Logf("write to screen: %v", lags)
	if lags[2] > 100*time.Millisecond {
		t.Errorf("median %v > 100ms (%v)", lags[2], lags)
	}

	tty.Write([]byte("q"))
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("exit: %v", err)
		}
	case <-time.After(5 * time.Second):
		cmd.Process.Kill()
		t.Fatal("q did not end watch")
	}
}

// TestReplayStepInTerminal steps through a fixture with space and ←.
func TestReplayStepInTerminal(t *testing.T) {
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
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("exit: %v", err)
		}
	case <-time.After(5 * time.Second):
		cmd.Process.Kill()
		t.Fatal("q did not end replay")
	}
}

// TestReplayPlaysInTerminal plays a Claude Code fixture back at speed and
// sees the call lines, the assistant's text and the final panel.
func TestReplayPlaysInTerminal(t *testing.T) {
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
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("exit: %v", err)
		}
	case <-time.After(5 * time.Second):
		cmd.Process.Kill()
		t.Fatal("replay did not end")
	}
}
