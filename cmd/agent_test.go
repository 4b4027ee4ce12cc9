package cmd

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeMessages answers every request with the next scripted handler.
func fakeMessages(t *testing.T, handlers ...http.HandlerFunc) *httptest.Server {
	n := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.ReadAll(r.Body)
		if n >= len(handlers) {
			t.Errorf("unexpected request %d", n+1)
			w.WriteHeader(500)
			return
		}
		n++
		handlers[n-1](w, r)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// sse streams a response of text blocks, or a tool_use when tool is set.
func sse(text string, tool string, input string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		send := func(ev string, data string) { fmt.Fprintf(w, "event: %s\ndata: %s\n\n", ev, data) }
		send("message_start", `{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":7,"output_tokens":1}}}`)
		stop := "end_turn"
		if tool != "" {
			send("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_x1","name":"`+tool+`","input":{}}}`)
			b, _ := json.Marshal(input)
			send("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":`+string(b)+`}}`)
			stop = "tool_use"
		} else {
			send("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`)
			b, _ := json.Marshal(text)
			send("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":`+string(b)+`}}`)
		}
		send("content_block_stop", `{"type":"content_block_stop","index":0}`)
		send("message_delta", `{"type":"message_delta","delta":{"stop_reason":"`+stop+`","stop_sequence":null},"usage":{"output_tokens":5}}`)
		send("message_stop", `{"type":"message_stop"}`)
	}
}

func TestAgentPrintMode(t *testing.T) {
	srv := fakeMessages(t,
		sse("", "TodoWrite", `{"todos":[{"content":"Say hi","activeForm":"Saying hi","status":"completed"}]}`),
		sse("Hello from the fake model.", "", ""),
	)
	env := map[string]string{"ANTHROPIC_API_KEY": "k", "ANTHROPIC_BASE_URL": srv.URL}
	r := run(t, "", env, "agent", "-p", "say hi", "--session", "p1", "--output-format", "json")
	if r.code != 0 {
		t.Fatalf("%+v", r)
	}
	var out struct {
		Result    string         `json:"result"`
		SessionID string         `json:"session_id"`
		NumTurns  int            `json:"num_turns"`
		IsError   bool           `json:"is_error"`
		Usage     map[string]int `json:"usage"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		t.Fatalf("%v %q", err, r.stdout)
	}
	if out.Result != "Hello from the fake model." || out.SessionID != "p1" || out.NumTurns != 2 || out.IsError || out.Usage["output_tokens"] != 10 {
		t.Fatalf("%+v", out)
	}
}

func TestAgentPrintText(t *testing.T) {
	srv := fakeMessages(t, sse("plain answer", "", ""))
	dir := t.TempDir()
	r := run(t, "", map[string]string{"ANTHROPIC_API_KEY": "k", "ANTHROPIC_BASE_URL": srv.URL}, "agent", "-p", "q", "--session", "p2", "--offload-dir", dir)
	if r.code != 0 || r.stdout != "plain answer\n" {
		t.Fatalf("%+v", r)
	}
	data, err := os.ReadFile(filepath.Join(dir, "p2", "transcript.jsonl"))
	if err != nil || strings.Count(string(data), "\n") != 2 || !strings.Contains(string(data), `"type":"response"`) {
		t.Fatalf("transcript %q %v", data, err)
	}
}

func TestAgentErrors(t *testing.T) {
	r := run(t, "", nil, "agent", "-p", "hi")
	if r.code != 1 || !strings.Contains(r.stderr, "ANTHROPIC_API_KEY is not set") || strings.Count(r.stderr, "\n") != 1 || strings.Contains(r.stderr, "goroutine") {
		t.Fatalf("no key: %+v", r)
	}
	srv := fakeMessages(t, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(401)
		io.WriteString(w, `{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}`)
	})
	r = run(t, "", map[string]string{"ANTHROPIC_API_KEY": "bad", "ANTHROPIC_BASE_URL": srv.URL}, "agent", "-p", "hi")
	if r.code != 1 || r.stderr != "todo-shell: Authentication failed (401): the API key was refused; check ANTHROPIC_API_KEY\n" {
		t.Fatalf("401: %+v", r)
	}
	r = run(t, "", map[string]string{"ANTHROPIC_API_KEY": "k"}, "agent", "--output-format", "yaml", "-p", "x")
	if r.code != 2 {
		t.Fatalf("bad format: %+v", r)
	}
	r = run(t, "", map[string]string{"ANTHROPIC_API_KEY": "k"}, "agent")
	if r.code != 2 || !strings.Contains(r.stderr, "needs a terminal") {
		t.Fatalf("agent without a terminal: %+v", r)
	}
}

// TestFaultAgentStreamStalls holds issue 7 item 11 at the command line: a
// server that stops sending ends `agent -p` after --stream-idle-timeout,
// with a clear error and exit 1; a stream cut short says it ended early.
func TestFaultAgentStreamStalls(t *testing.T) {
	stall := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprintf(w, "event: message_start\ndata: %s\n\n", `{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":7,"output_tokens":1}}}`)
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	}
	srv := fakeMessages(t, stall)
	env := map[string]string{"ANTHROPIC_API_KEY": "k", "ANTHROPIC_BASE_URL": srv.URL}
	r := run(t, "", env, "agent", "-p", "hi", "--session", "s1", "--stream-idle-timeout", "200ms")
	if r.code != 1 || r.stderr != "todo-shell: Timed out: the response stopped; nothing arrived from the Anthropic API for 200ms (--stream-idle-timeout)\n" {
		t.Fatalf("%+v", r)
	}
	r = run(t, "", env, "agent", "-p", "hi", "--stream-idle-timeout", "0s")
	if r.code != 2 || !strings.Contains(r.stderr, "--stream-idle-timeout must be more than 0") {
		t.Fatalf("%+v", r)
	}
	cut := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprintf(w, "event: message_start\ndata: %s\n\n", `{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":7,"output_tokens":1}}}`)
		w.(http.Flusher).Flush()
		panic(http.ErrAbortHandler)
	}
	srv = fakeMessages(t, cut)
	env["ANTHROPIC_BASE_URL"] = srv.URL
	r = run(t, "", env, "agent", "-p", "hi", "--session", "s2")
	if r.code != 1 || !strings.HasPrefix(r.stderr, "todo-shell: The response ended early") || strings.Contains(r.stderr, "could not reach") {
		t.Fatalf("%+v", r)
	}
}

// TestAgentPrintModeRunsTheTaskToolsWithoutAsking: the Task tools change
// only todo-shell's own plan, as TodoWrite does, so in print mode (where
// nobody can answer a question) the model's calls run; they were refused.
func TestAgentPrintModeRunsTheTaskToolsWithoutAsking(t *testing.T) {
	calls := []struct{ tool, input string }{
		{"TaskCreate", `{"subject":"Read the spec","description":"All of it","activeForm":"Reading the spec"}`},
		{"TaskUpdate", `{"taskId":"1","status":"in_progress"}`},
		{"TaskGet", `{"taskId":"1"}`},
		{"TaskList", `{}`},
	}
	var handlers []http.HandlerFunc
	for _, c := range calls {
		handlers = append(handlers, sse("", c.tool, c.input))
	}
	handlers = append(handlers, sse("Planned.", "", ""))
	srv := fakeMessages(t, handlers...)
	dir := t.TempDir()
	env := map[string]string{"ANTHROPIC_API_KEY": "k", "ANTHROPIC_BASE_URL": srv.URL}
	r := run(t, "", env, "agent", "-p", "plan", "--session", "p3", "--offload-dir", dir)
	if r.code != 0 || r.stdout != "Planned.\n" || r.stderr != "" {
		t.Fatalf("%+v", r)
	}
	data, err := os.ReadFile(filepath.Join(dir, "p3", "transcript.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`Task #1 created successfully: Read the spec`, `Updated task #1 status`, `#1 [in_progress] Read the spec`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("the transcript lacks %q:\n%s", want, data)
		}
	}
}

// TestFailedAgentAttemptsLeaveNoSession: an `agent -p` the model never
// answered (a 401, an unreachable API) leaves no session behind, so
// `sessions` does not fill with `agent 0/0` rows; one answer keeps it.
func TestFailedAgentAttemptsLeaveNoSession(t *testing.T) {
	off := filepath.Join(t.TempDir(), "off")
	refused := fakeMessages(t, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(401)
		io.WriteString(w, `{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}`)
	})
	gone := httptest.NewServer(http.NotFoundHandler())
	gone.Close() // nothing listens there now
	for _, url := range []string{refused.URL, gone.URL} {
		r := run(t, "", map[string]string{"ANTHROPIC_API_KEY": "k", "ANTHROPIC_BASE_URL": url}, "agent", "-p", "hi", "--offload-dir", off)
		if r.code != 1 {
			t.Fatalf("%s: %+v", url, r)
		}
		if n := sessionDirs(off); n != 0 {
			t.Fatalf("%s: a failed attempt left %d sessions", url, n)
		}
	}
	answered := fakeMessages(t, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write(streamText("hello", 100))
	})
	r := run(t, "", map[string]string{"ANTHROPIC_API_KEY": "k", "ANTHROPIC_BASE_URL": answered.URL}, "agent", "-p", "hi", "--offload-dir", off)
	if n := sessionDirs(off); r.code != 0 || n != 1 {
		t.Fatalf("an answered prompt left %d sessions: %+v", n, r)
	}
}

// sessionDirs counts the session directories in off.
func sessionDirs(off string) int {
	entries, _ := os.ReadDir(off)
	n := 0
	for _, e := range entries {
		if e.IsDir() {
			n++
		}
	}
	return n
}
