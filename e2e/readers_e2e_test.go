package e2e

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/todo-shell/todo-shell/internal/testwait"
)

// TestWatchStaysWithTheLivePlan (issue 16): watch with no id in a terminal
// follows the live session that has a plan; a throwaway run in the same
// offload directory (`-c 'echo hi'`) does not take it away, and the live
// session's next version shows.
func TestWatchStaysWithTheLivePlan(t *testing.T) {
	t.Parallel()
	off := filepath.Join(t.TempDir(), "off")
	// Session a: a shell reading commands from a pipe, live until it ends.
	a := exec.Command(binary, "--offload-dir", off, "--session", "a")
	stdin, err := a.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { stdin.Close(); a.Wait() }()
	write := func(step string) {
		line := `TodoWrite '{"todos":[{"content":"` + step + `","activeForm":"Doing ` + step + `","status":"in_progress"}]}'` + "\n"
		if _, err := io.WriteString(stdin, line); err != nil {
			t.Fatal(err)
		}
	}
	write("step one")
	testwait.For(t, 5*time.Second, "session a to write its plan", func() bool {
		b, _ := os.ReadFile(filepath.Join(off, "a", "todos.jsonl"))
		return len(b) > 0
	})

	watch := exec.Command(binary, "watch", "--offload-dir", off)
	watch.Env = append(os.Environ(), "TERM=xterm-256color", "NO_COLOR=1")
	tty, err := pty.StartWithSize(watch, &pty.Winsize{Rows: 24, Cols: 80})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { tty.Close(); watch.Process.Kill(); watch.Wait() }()
	scr := &screen{tty: tty}
	go io.Copy(scr, tty)
	scr.waitFor(t, "Doing step one", 5*time.Second)

	if out, err := exec.Command(binary, "--offload-dir", off, "-c", "echo hi").CombinedOutput(); err != nil {
		t.Fatalf("echo hi: %v %s", err, out)
	}
	write("step two")
	scr.waitFor(t, "Doing step two", 5*time.Second)
	if text := scr.text(); strings.Count(text, "watching ") != strings.Count(text, "watching a") {
		t.Fatalf("watch left session a:\n%s", text)
	}
}
