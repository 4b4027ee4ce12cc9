package e2e

import (
	"bufio"
	"context"
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
)

// The real Claude Code as an MCP client of todo-shell's Task tools: it is
// installed from npm (`npm install @anthropic-ai/claude-code`) and pointed at
// a scripted fake Messages API on loopback. .ci/run installs it into
// .ci/tools; TODO_SHELL_CLAUDE names another `claude` executable (see
// agentCLI).

// claudeStep is one scripted model turn: a tool call of the todo-shell MCP
// server, or the final text.
type claudeStep struct {
	tool  string // without the mcp__todo-shell__ prefix; "" ends the turn
	input string
}

// fakeClaudeAPI answers Claude Code's main-loop requests from steps, in
// order (step i once the conversation holds i tool results), and any other
// request (titles, summaries) with a short text.
type fakeClaudeAPI struct {
	mu    sync.Mutex
	steps []claudeStep
	tools [][]string // the tool names of each main-loop request
	seen  []string   // the tool_result texts Claude Code sent back, in order
}

func (f *fakeClaudeAPI) serve(w http.ResponseWriter, r *http.Request) {
	if !strings.HasSuffix(r.URL.Path, "/v1/messages") {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{}`)
		return
	}
	var req struct {
		Tools    []struct{ Name string } `json:"tools"`
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
		Stream bool `json:"stream"`
	}
	body, _ := io.ReadAll(r.Body)
	json.Unmarshal(body, &req)
	var names []string
	main := false
	for _, t := range req.Tools {
		names = append(names, t.Name)
		if strings.HasPrefix(t.Name, "mcp__todo-shell__") {
			main = true
		}
	}
	results := 0
	var texts []string
	for _, m := range req.Messages {
		var blocks []struct {
			Type    string          `json:"type"`
			Content json.RawMessage `json:"content"`
		}
		if json.Unmarshal(m.Content, &blocks) != nil {
			continue
		}
		for _, b := range blocks {
			if b.Type == "tool_result" {
				results++
				texts = append(texts, string(b.Content))
			}
		}
	}
	f.mu.Lock()
	var step claudeStep
	if main {
		f.tools = append(f.tools, names)
		f.seen = texts
		if results < len(f.steps) {
			step = f.steps[results]
		}
	}
	f.mu.Unlock()
	if !req.Stream {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"id":"msg_x","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"text","text":"ok"}],"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":10,"output_tokens":1}}`)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	ev := func(name, data string) {
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", name, data)
	}
	ev("message_start", `{"type":"message_start","message":{"id":"msg_x","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":10,"output_tokens":1}}}`)
	stop := "end_turn"
	if step.tool != "" {
		stop = "tool_use"
		id := fmt.Sprintf("toolu_fake%02d", results)
		ev("content_block_start", fmt.Sprintf(`{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":%q,"name":"mcp__todo-shell__%s","input":{}}}`, id, step.tool))
		q, _ := json.Marshal(step.input)
		ev("content_block_delta", fmt.Sprintf(`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":%s}}`, q))
	} else {
		ev("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`)
		ev("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Done."}}`)
	}
	ev("content_block_stop", `{"type":"content_block_stop","index":0}`)
	ev("message_delta", fmt.Sprintf(`{"type":"message_delta","delta":{"stop_reason":%q,"stop_sequence":null},"usage":{"output_tokens":5}}`, stop))
	ev("message_stop", `{"type":"message_stop"}`)
}

func TestRealClaudeCodeUsesTheTaskToolsOverMCP(t *testing.T) {
	t.Parallel()
	claude := agentCLI(t, "TODO_SHELL_CLAUDE", "claude", "@anthropic-ai/claude-code")
	dir := t.TempDir()
	plan := fmt.Sprintf("cc-%d", time.Now().UnixNano())
	fake := &fakeClaudeAPI{steps: []claudeStep{
		{"TaskCreate", `{"subject":"Read the spec","description":"All of it","activeForm":"Reading the spec"}`},
		{"TaskCreate", `{"subject":"Write the parser","description":"Table-driven","activeForm":"Writing the parser"}`},
		{"TaskUpdate", `{"taskId":"2","addBlockedBy":["1"]}`},
		{"TaskUpdate", `{"taskId":"1","status":"in_progress"}`},
		{"TaskUpdate", `{"taskId":"1","status":"completed"}`},
		{"TaskList", `{}`},
		{"", ""},
	}}
	srv := httptest.NewServer(http.HandlerFunc(fake.serve))
	defer srv.Close()

	// watch --plan follows the plan while Claude Code works on it.
	ctx, cancel := context.WithCancel(context.Background())
	watch := exec.CommandContext(ctx, binary, "watch", "--plan", plan, "--json")
	watchOut, _ := watch.StdoutPipe()
	if err := watch.Start(); err != nil {
		t.Fatal(err)
	}
	// Stopped, then waited for (deferred the other way round, the wait
	// never ended: watch follows the plan until stopped).
	defer func() { cancel(); watch.Wait() }()
	versions := make(chan string, 64)
	go func() {
		sc := bufio.NewScanner(watchOut)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			versions <- sc.Text()
		}
		close(versions)
	}()

	cfg := filepath.Join(dir, "mcp.json")
	conf, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"todo-shell": map[string]any{
		"command": binary, "args": []string{"mcp", "--plan", plan, "--offload-dir", filepath.Join(dir, "off")},
	}}})
	os.WriteFile(cfg, conf, 0o600)
	home := filepath.Join(dir, "home")
	os.MkdirAll(home, 0o700)
	cmd := exec.Command(claude, "-p", "Plan the parser work with the task tools.", "--mcp-config", cfg, "--strict-mcp-config",
		"--dangerously-skip-permissions", "--output-format", "json", "--model", "claude-sonnet-4-5",
		// Its own plan tools off: the plan is todo-shell's.
		"--disallowedTools", "TaskCreate,TaskGet,TaskList,TaskUpdate,TaskStop,TodoWrite")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+home, "ANTHROPIC_BASE_URL="+srv.URL, "ANTHROPIC_API_KEY=sk-ant-fake",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_AUTOUPDATER=1", "CLAUDE_CONFIG_DIR="+filepath.Join(home, ".claude"),
		"ENABLE_TOOL_SEARCH=false", "IS_SANDBOX=1")
	out, err := cmd.CombinedOutput()
	t.Logf("claude: %s", out)
	if err != nil {
		t.Fatalf("claude: %v", err)
	}
	fake.mu.Lock()
	seen, tools := fake.seen, fake.tools
	fake.mu.Unlock()
	if len(tools) == 0 {
		t.Fatal("no main-loop request reached the fake API")
	}
	t.Logf("tools offered: %v", tools[0])
	for _, name := range tools[0] {
		if name == "TaskCreate" || name == "TodoWrite" {
			t.Errorf("Claude Code offered its own %s", name)
		}
	}
	want := []string{
		"Task #1 created successfully: Read the spec",
		"Task #2 created successfully: Write the parser",
		"Updated task #2 blockedBy",
		"Updated task #1 status, owner",
		"Updated task #1 status",
		"#1 [completed] Read the spec (owner: claude-code)\n#2 [pending] Write the parser (free)",
	}
	if len(seen) != len(want) {
		t.Fatalf("Claude Code sent %d tool results, want %d: %q", len(seen), len(want), seen)
	}
	for i, w := range want {
		if !strings.Contains(seen[i], jsonText(w)) {
			t.Errorf("result %d: %s, want %q", i, seen[i], w)
		}
	}
	// watch saw every version: 5 changes, in order.
	for n := 1; n <= 5; n++ {
		select {
		case line := <-versions:
			if !strings.HasPrefix(line, fmt.Sprintf(`{"version":%d,`, n)) {
				t.Fatalf("watch: version %d line %s", n, line)
			}
			t.Logf("watch: %s", line)
		case <-time.After(20 * time.Second):
			t.Fatalf("watch did not show version %d", n)
		}
	}
}

// jsonText is s as it appears inside a JSON string.
func jsonText(s string) string {
	b, _ := json.Marshal(s)
	return string(b[1 : len(b)-1])
}
