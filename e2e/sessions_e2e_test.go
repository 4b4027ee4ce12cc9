package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"
)

// startSessionREPL starts the interactive shell in a pseudo-terminal in dir.
func startSessionREPL(t *testing.T, dir string, args ...string) (*exec.Cmd, *screen, io.Writer) {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "TERM=xterm-256color", "NO_COLOR=1")
	tty, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 24, Cols: 80})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tty.Close(); cmd.Process.Kill(); cmd.Wait() })
	scr := &screen{tty: tty}
	go io.Copy(scr, tty)
	return cmd, scr, tty
}

// quitREPL leaves the shell with Ctrl+D (see quit), failing the test
// unless it ends within 30 s, and returns how it exited.
func quitREPL(t *testing.T, cmd *exec.Cmd, tty io.Writer, scr *screen) error {
	t.Helper()
	ok, err := quit(cmd, tty, scr, 30*time.Second)
	if !ok {
		t.Fatal("the shell did not exit within 30 s")
	}
	return err
}

// TestREPLResume: the list written in one interactive shell is on the panel
// of the next, started with --resume (and with --continue); a second shell
// on a session in use says who holds it and exits 1.
func TestREPLResume(t *testing.T) {
	t.Parallel()
	work, off := t.TempDir(), t.TempDir()
	cmd, scr, tty := startSessionREPL(t, work, "--session", "rs", "--offload-dir", off)
	scr.waitFor(t, "❯", 5*time.Second)
	tty.Write([]byte(`TodoWrite '{"todos":[{"content":"Survive a restart","activeForm":"Surviving a restart","status":"in_progress"},{"content":"Ship","activeForm":"Shipping","status":"pending"}]}'` + "\r"))
	scr.waitFor(t, "● Surviving a restart", 5*time.Second)

	// Meanwhile a second shell on the same session is refused.
	second := exec.Command(binary, "--session", "rs", "--offload-dir", off, "-c", "TodoRead")
	out, err := second.CombinedOutput()
	if code := second.ProcessState.ExitCode(); code != 1 || !strings.Contains(string(out), "session rs is in use by process ") {
		t.Fatalf("second process: exit %d (%v): %s", code, err, out)
	}

	if err := quitREPL(t, cmd, tty, scr); err != nil {
		t.Fatalf("exit: %v", err)
	}

	for _, args := range [][]string{{"--resume", "rs"}, {"--continue"}} {
		cmd, scr, tty := startSessionREPL(t, work, append(args, "--offload-dir", off)...)
		scr.waitFor(t, "Tasks 0/2", 5*time.Second)
		scr.waitFor(t, "● Surviving a restart", 5*time.Second)
		if err := quitREPL(t, cmd, tty, scr); err != nil {
			t.Fatalf("%v: exit: %v", args, err)
		}
	}
}

// textReply streams a Messages API response holding text.
func textReply(w http.ResponseWriter, text string) {
	w.Header().Set("Content-Type", "text/event-stream")
	send := func(ev, data string) { fmt.Fprintf(w, "event: %s\ndata: %s\n\n", ev, data) }
	b, _ := json.Marshal(text)
	send("message_start", `{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":7,"output_tokens":1}}}`)
	send("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`)
	send("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":`+string(b)+`}}`)
	send("content_block_stop", `{"type":"content_block_stop","index":0}`)
	send("message_delta", `{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":5}}`)
	send("message_stop", `{"type":"message_stop"}`)
}

// TestAgentREPLResume: the interactive agent started with --resume sends
// the first conversation (from agent -p) with its first prompt.
func TestAgentREPLResume(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var bodies []string
	answers := []string{"first answer", "second answer"}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		bodies = append(bodies, string(b))
		n := len(bodies)
		mu.Unlock()
		if n > len(answers) {
			w.WriteHeader(500)
			return
		}
		textReply(w, answers[n-1])
	}))
	defer srv.Close()
	work, off := t.TempDir(), t.TempDir()
	env := append(os.Environ(), "ANTHROPIC_API_KEY=k", "ANTHROPIC_BASE_URL="+srv.URL)

	first := exec.Command(binary, "agent", "-p", "first prompt", "--session", "ar", "--offload-dir", off)
	first.Dir, first.Env = work, env
	if out, err := first.CombinedOutput(); err != nil || string(out) != "first answer\n" {
		t.Fatalf("agent -p: %v: %s", err, out)
	}

	cmd := exec.Command(binary, "agent", "--resume", "ar", "--offload-dir", off)
	cmd.Dir = work
	cmd.Env = append(env, "TERM=xterm-256color", "NO_COLOR=1")
	tty, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 24, Cols: 80})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tty.Close(); cmd.Process.Kill(); cmd.Wait() })
	scr := &screen{tty: tty}
	go io.Copy(scr, tty)
	scr.waitFor(t, "✦", 5*time.Second) // the agent-mode prompt
	tty.Write([]byte("second prompt\r"))
	scr.waitFor(t, "second answer", 5*time.Second)
	if err := quitREPL(t, cmd, tty, scr); err != nil {
		t.Fatalf("exit: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(bodies) != 2 {
		t.Fatalf("%d requests", len(bodies))
	}
	var req struct {
		Messages []json.RawMessage `json:"messages"`
	}
	json.Unmarshal([]byte(bodies[1]), &req)
	if len(req.Messages) != 3 || !strings.Contains(bodies[1], "first prompt") || !strings.Contains(bodies[1], "first answer") || !strings.Contains(bodies[1], "second prompt") {
		t.Fatalf("second request (%d messages): %s", len(req.Messages), bodies[1])
	}
}
