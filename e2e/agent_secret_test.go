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
	cmd := exec.Command(binary, "agent", "-p", "look around", "--session", "key", "--offload-dir", off, "--dangerously-skip-permissions")
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
