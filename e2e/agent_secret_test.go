package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"
)

// toolReply streams a response asking for one Bash call.
func toolReply(w http.ResponseWriter, id, command string) {
	w.Header().Set("Content-Type", "text/event-stream")
	send := func(ev, data string) { fmt.Fprintf(w, "event: %s\ndata: %s\n\n", ev, data) }
	in, _ := json.Marshal(map[string]string{"command": command})
	partial, _ := json.Marshal(string(in))
	send("message_start", `{"type":"message_start","message":{"id":"msg_t","type":"message","role":"assistant","model":"m","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":7,"output_tokens":1}}}`)
	send("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"`+id+`","name":"Bash","input":{}}}`)
	send("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":`+string(partial)+`}}`)
	send("content_block_stop", `{"type":"content_block_stop","index":0}`)
	send("message_delta", `{"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":5}}`)
	send("message_stop", `{"type":"message_stop"}`)
}

// TestAgentKeyOutOfReach holds issue 15 item 10: a command the agent runs
// cannot read the API key or the auth token from todo-shell's process
// (/proc/$PPID/environ; this runs as whatever user the tests run as, root
// on the CI machine), and a command that prints the key anyway (here it
// knows it from a file) has it masked in what the model gets, the
// transcript and the offload files.
func TestAgentKeyOutOfReach(t *testing.T) {
	t.Parallel()
	const key, token = "sk-ant-test-KEY-0123456789", "tok-test-TOKEN-9876543210"
	work, off := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(work, "k"), []byte(key+"\n"+token+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	steps := []string{
		`tr '\0' '\n' < /proc/$PPID/environ | grep -E '^(ANTHROPIC|TODO_SHELL_CRED)'; echo "env:$ANTHROPIC_API_KEY:$ANTHROPIC_AUTH_TOKEN"`,
		`cat k; for i in $(seq 300); do cat k; done`, // long: offloaded
	}
	var mu sync.Mutex
	var bodies []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		bodies = append(bodies, string(b))
		n := len(bodies)
		mu.Unlock()
		if n <= len(steps) {
			toolReply(w, fmt.Sprintf("toolu_%d", n), steps[n-1])
			return
		}
		textReply(w, "done")
	}))
	defer srv.Close()
	cmd := exec.Command(binary, "agent", "-p", "look around", "--session", "key", "--offload-dir", off, "--allowedTools", "Bash")
	cmd.Dir = work
	cmd.Env = append(os.Environ(), "ANTHROPIC_API_KEY="+key, "ANTHROPIC_AUTH_TOKEN="+token, "ANTHROPIC_BASE_URL="+srv.URL)
	out, err := cmd.CombinedOutput()
	if err != nil || string(out) != "done\n" {
		t.Fatalf("agent -p: %v: %s", err, out)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(bodies) != 3 {
		t.Fatalf("%d requests", len(bodies))
	}
	// Not even masked: the variables are not in the process's environment.
	if strings.Contains(bodies[1], "ANTHROPIC_API_KEY=") || strings.Contains(bodies[1], "ANTHROPIC_AUTH_TOKEN=") {
		t.Fatalf("the credentials are in /proc/$PPID/environ: %.2000s", bodies[1])
	}
	if !strings.Contains(bodies[1], "env::") || !strings.Contains(bodies[1], "TODO_SHELL_CREDENTIALS_FD") {
		t.Fatalf("the environ listing did not come back: %.2000s", bodies[1])
	}
	// The second result was long: its file holds the masked output.
	if b, err := os.ReadFile(filepath.Join(off, "key", "toolu_2.md")); err != nil || strings.Count(string(b), "[REDACTED]") != 2*301 {
		t.Fatalf("offloaded result: %v: %.300s", err, b)
	}
	check := func(what, text string) {
		t.Helper()
		if strings.Contains(text, key) || strings.Contains(text, token) {
			t.Fatalf("%s holds a credential", what)
		}
	}
	for i, b := range bodies {
		check(fmt.Sprintf("request %d", i+1), b)
	}
	err = filepath.Walk(off, func(path string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		check(path, string(b))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestAgentPermissionInTerminal: the interactive agent asks before a
// command no rule allows. Refused with a reason: nothing deleted, the
// reason reaches the model; Ctrl+C while asked: nothing deleted, the turn
// ends; allowed once: deleted.
func TestAgentPermissionInTerminal(t *testing.T) {
	t.Parallel()
	work, off := t.TempDir(), t.TempDir()
	notes := filepath.Join(work, "notes.txt")
	if err := os.WriteFile(notes, []byte("keep\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var bodies []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		bodies = append(bodies, string(b))
		mu.Unlock()
		// A prompt asks for the command; its result is answered with
		// text.
		if strings.Contains(string(b), `"tool_result"`) && strings.HasSuffix(strings.TrimSpace(lastRole(b)), "tool_result") {
			textReply(w, "noted")
			return
		}
		toolReply(w, fmt.Sprintf("toolu_%d", len(bodies)), "rm -f notes.txt")
	}))
	defer srv.Close()
	cmd := exec.Command(binary, "agent", "--session", "perm", "--offload-dir", off)
	cmd.Dir = work
	cmd.Env = append(os.Environ(), "ANTHROPIC_API_KEY=k", "ANTHROPIC_BASE_URL="+srv.URL, "TERM=xterm-256color", "NO_COLOR=1")
	tty, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 30, Cols: 100})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tty.Close(); cmd.Process.Kill(); cmd.Wait() })
	scr := &screen{tty: tty}
	go io.Copy(scr, tty)
	scr.waitFor(t, "✦", 5*time.Second)

	tty.Write([]byte("tidy up\r"))
	scr.waitFor(t, "n no, and tell Claude why", 5*time.Second)
	tty.Write([]byte("n"))
	scr.waitFor(t, "Tell Claude why", 5*time.Second)
	tty.Write([]byte("those are my notes\r"))
	scr.waitFor(t, "noted", 5*time.Second)
	if _, err := os.Stat(notes); err != nil {
		t.Fatalf("deleted though refused: %v", err)
	}
	mu.Lock()
	refused := bodies[len(bodies)-1]
	mu.Unlock()
	if !strings.Contains(refused, "Refused by the person") || !strings.Contains(refused, "those are my notes") {
		t.Fatalf("the refusal did not reach the model: %.2000s", refused)
	}

	first := strings.Count(scr.text(), "Allow Bash(rm -f notes.txt)?")
	tty.Write([]byte("tidy up again\r"))
	scr.waitUntil(t, "a second question", 5*time.Second, func(text string) bool {
		return strings.Count(text, "Allow Bash(rm -f notes.txt)?") > first
	})
	tty.Write([]byte{3}) // Ctrl+C while asked
	scr.waitFor(t, "Interrupted", 5*time.Second)
	if _, err := os.Stat(notes); err != nil {
		t.Fatalf("deleted after Ctrl+C: %v", err)
	}

	asked := strings.Count(scr.text(), "Allow Bash(rm -f notes.txt)?")
	tty.Write([]byte("now do it\r"))
	scr.waitUntil(t, "a third question", 5*time.Second, func(text string) bool {
		return strings.Count(text, "Allow Bash(rm -f notes.txt)?") > asked
	})
	noted := strings.Count(scr.text(), "noted")
	tty.Write([]byte("y"))
	scr.waitUntil(t, "the answer after y", 5*time.Second, func(text string) bool { return strings.Count(text, "noted") > noted })
	if _, err := os.Stat(notes); !os.IsNotExist(err) {
		t.Fatalf("not deleted after y: %v", err)
	}
	_ = quitREPL(t, cmd, tty, scr)
}

// lastRole returns the type of the last content block of the last
// message in a request body.
func lastRole(body []byte) string {
	var req struct {
		Messages []struct {
			Content []struct {
				Type string `json:"type"`
			} `json:"content"`
		} `json:"messages"`
	}
	if json.Unmarshal(body, &req) != nil || len(req.Messages) == 0 {
		return ""
	}
	c := req.Messages[len(req.Messages)-1].Content
	if len(c) == 0 {
		return ""
	}
	return c[len(c)-1].Type
}
