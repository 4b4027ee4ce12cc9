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

// TestTmuxStatusRightNeutralisesThePlan: `todo-shell status --format tmux`
// in a real tmux's status-right shows a plan whose item is hostile — a
// tmux command substitution, a style, escape sequences — as text: the
// command never runs, the style is not applied, and the line reads as the
// item does.
func TestTmuxStatusRightNeutralisesThePlan(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("tmux"); err != nil {
		skipUnlessCI(t, "tmux is not installed: the terminal tests need a real tmux (apt-get install tmux)")
	}
	dir := t.TempDir()
	pwned := filepath.Join(dir, "PWNED")
	item := fmt.Sprintf("Ship #(touch %s)#[fg=red,reverse]it\x1b]2;title\x07", pwned)
	quoted, _ := json.Marshal(item)
	transcript := filepath.Join(dir, "session.jsonl")
	lines := []string{
		`{"type":"user","promptId":"p1","message":{"role":"user","content":"go"},"uuid":"u1","timestamp":"2026-11-28T09:00:00.000Z"}`,
		fmt.Sprintf(`{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"TodoWrite","input":{"todos":[{"content":"Read","status":"completed","activeForm":"Reading"},{"content":"x","status":"in_progress","activeForm":%s}]}}]},"timestamp":"2026-11-28T09:00:01.000Z"}`, quoted),
		`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"ok"}]},"timestamp":"2026-11-28T09:00:02.000Z"}`,
	}
	os.WriteFile(transcript, []byte(strings.Join(lines, "\n")+"\n"), 0o600)
	socket := filepath.Join(dir, "tmux.sock")
	conf := filepath.Join(dir, "tmux.conf")
	os.WriteFile(conf, []byte(fmt.Sprintf("set -g status-interval 1\nset -g status-right-length 250\nset -g status-right '#(XDG_STATE_HOME=%s %s status --transcript %s --format tmux --width 250)'\n",
		filepath.Join(dir, "state"), binary, transcript)), 0o600)
	if out, err := exec.Command("tmux", "-S", socket, "-f", conf, "new-session", "-d", "-s", "t", "-x", "250", "-y", "10", "sh").CombinedOutput(); err != nil {
		t.Fatalf("tmux: %v\n%s", err, out)
	}
	t.Cleanup(func() { exec.Command("tmux", "-S", socket, "kill-server").Run() })
	// A client in a terminal: tmux runs #() for the status line it draws.
	client := exec.Command("tmux", "-S", socket, "attach", "-t", "t")
	client.Env = append(os.Environ(), "TERM=xterm-256color")
	tty, err := pty.StartWithSize(client, &pty.Winsize{Rows: 10, Cols: 250})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { tty.Close(); client.Process.Kill(); client.Wait() }()
	scr := &screen{tty: tty}
	go func() { io.Copy(scr, tty) }()
	want := fmt.Sprintf("Tasks 1/2 ▸ Ship #(touch %s)#[fg=red,reverse]it␛]2;title␇", pwned)
	scr.waitFor(t, want, 20*time.Second)
	if raw := scr.raw(); strings.Contains(raw, "\x1b]2;title") {
		t.Errorf("an escape sequence of the plan reached the terminal")
	}
	if _, err := os.Stat(pwned); err == nil {
		t.Fatal("the plan's text ran a command in tmux")
	}
}
