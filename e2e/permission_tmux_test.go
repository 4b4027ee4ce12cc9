package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// permissionAPI is a fake Messages API on loopback for the permission
// flow: a prompt is answered with the Bash call its commands names, a tool
// result with "noted"; it keeps every tool_result it was sent. Each
// response says it read 82,000 input tokens: 41% of the window.
type permissionAPI struct {
	commands map[string]string   // prompt → the command asked for
	calls    map[string]toolCall // prompt → another tool's call (Write, Edit)
	mu       sync.Mutex
	n        int
	results  []sentResult
}

// toolCall is a tool call the fake API asks for.
type toolCall struct {
	Name  string
	Input map[string]string
}

// sentResult is a tool_result as the fake API received it.
type sentResult struct {
	ID      string
	IsError bool
	Text    string
}

func (f *permissionAPI) serve(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	var req struct {
		Messages []struct {
			Content []struct {
				Type      string `json:"type"`
				Text      string `json:"text"`
				ToolUseID string `json:"tool_use_id"`
				IsError   bool   `json:"is_error"`
				Content   []struct {
					Text string `json:"text"`
				} `json:"content"`
			} `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(b, &req); err != nil || len(req.Messages) == 0 {
		http.Error(w, `{"type":"error","error":{"type":"invalid_request_error","message":"bad body"}}`, 400)
		return
	}
	f.mu.Lock()
	f.n++
	id := fmt.Sprintf("toolu_%d", f.n)
	prompt, answered := "", false
	for _, c := range req.Messages[len(req.Messages)-1].Content {
		switch c.Type {
		case "tool_result":
			var text strings.Builder
			for _, t := range c.Content {
				text.WriteString(t.Text)
			}
			f.results = append(f.results, sentResult{c.ToolUseID, c.IsError, text.String()})
			answered = true
		case "text":
			if prompt == "" {
				prompt = c.Text
			}
		}
	}
	f.mu.Unlock()
	w.Header().Set("Content-Type", "text/event-stream")
	send := func(ev, data string) { fmt.Fprintf(w, "event: %s\ndata: %s\n\n", ev, data) }
	send("message_start", `{"type":"message_start","message":{"id":"msg_p","type":"message","role":"assistant","model":"m","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":82000,"output_tokens":1}}}`)
	command, ok := f.commands[prompt]
	name, input := "Bash", map[string]string{"command": command}
	if c, isCall := f.calls[prompt]; isCall {
		name, input, ok = c.Name, c.Input, true
	}
	if answered || !ok {
		send("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`)
		send("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"noted"}}`)
		send("content_block_stop", `{"type":"content_block_stop","index":0}`)
		send("message_delta", `{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":5}}`)
		send("message_stop", `{"type":"message_stop"}`)
		return
	}
	in, _ := json.Marshal(input)
	partial, _ := json.Marshal(string(in))
	send("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"`+id+`","name":"`+name+`","input":{}}}`)
	send("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":`+string(partial)+`}}`)
	send("content_block_stop", `{"type":"content_block_stop","index":0}`)
	send("message_delta", `{"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":5}}`)
	send("message_stop", `{"type":"message_stop"}`)
}

// last returns the last tool_result received.
func (f *permissionAPI) last() sentResult {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.results) == 0 {
		return sentResult{}
	}
	return f.results[len(f.results)-1]
}

// TestAgentPermissionInTmux: the interactive agent, in tmux at 80×24 and
// 60×20, asks before a Bash command no rule allows, the question whole in
// the live area (wrapped, no row cut or as wide as the window). n and a
// reason refuse: nothing runs and the model gets an is_error result saying
// the person refused, with the reason; Ctrl+C while asked ends the turn,
// the question gone; `rm -rf ~/something` refused: nothing deleted; y
// runs the command once; a runs it and adds the rule, so the same command
// again is not asked. The prompt line shows how full the context window
// is (ctx 41%).
func TestAgentPermissionInTmux(t *testing.T) {
	t.Parallel()
	for _, sz := range [][2]int{{80, 24}, {60, 20}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			t.Parallel()
			cols := sz[0]
			work, home := t.TempDir(), t.TempDir()
			notes := filepath.Join(work, "notes.txt")
			precious := filepath.Join(home, "something", "precious.txt")
			for _, f := range []string{notes, precious} {
				if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(f, []byte("keep\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			api := &permissionAPI{commands: map[string]string{
				"refuse":       "rm -f notes.txt",
				"interrupt":    "rm -f notes.txt",
				"clean home":   "rm -rf ~/something",
				"once":         "rm -f notes.txt",
				"always":       "touch made.txt && head made.txt",
				"always again": "touch made.txt && head made.txt",
				"trial":        "cat notes.txt && rm -f notes.txt",
				"trial again":  "cat notes.txt && rm -f notes.txt",
			}}
			srv := httptest.NewServer(http.HandlerFunc(api.serve))
			defer srv.Close()
			env := []string{"ANTHROPIC_API_KEY=k", "ANTHROPIC_BASE_URL=" + srv.URL, "HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, ".config")}
			tt := startTmuxWith(t, cols, sz[1], work, "✦", env, "agent", "--session", "perm", "--offload-dir", filepath.Join(t.TempDir(), "off"))

			asks := func(question string) int { return strings.Count(tt.all(), question) }
			// ask sends a prompt and waits for its question, whole.
			ask := func(prompt, question, rule string) {
				t.Helper()
				before := asks(question)
				tt.enter(prompt)
				tt.waitUntil("the question "+question, func() bool {
					s := tt.screen()
					return strings.Count(tt.all(), question) > before && questionWhole(s, rule)
				})
				checkQuestionRows(t, tt.screen(), question, cols)
			}
			noted := func(before int) {
				t.Helper()
				tt.waitScreen("the model's answer", func(s string) bool { return count(s, "noted") > before && agentIdle(tt.screen()) })
			}

			// (c) n and a reason: refused, the reason reaches the model.
			ask("refuse", "Allow Bash(rm -f notes.txt)?", "")
			n := count(tt.all(), "noted")
			tt.run("send-keys", "-t", "t", "-l", "n")
			tt.waitUntil("the reason line", func() bool { return strings.Contains(tt.screen(), "Tell Claude why") })
			tt.run("send-keys", "-t", "t", "-l", "those are my notes")
			tt.run("send-keys", "-t", "t", "Enter")
			noted(n)
			if _, err := os.Stat(notes); err != nil {
				t.Fatalf("deleted though refused: %v", err)
			}
			if r := api.last(); !r.IsError || !strings.Contains(r.Text, "Refused by the person") || !strings.Contains(r.Text, "those are my notes") {
				t.Fatalf("the refusal sent: %+v", r)
			}
			tt.waitUntil("ctx 41% in the prompt", func() bool { return strings.Contains(tt.screen(), "ctx 41% ✦") })

			// (d) Ctrl+C while asked: the turn ends, the question goes.
			ask("interrupt", "Allow Bash(rm -f notes.txt)?", "")
			tt.run("send-keys", "-t", "t", "C-c")
			tt.waitUntil("the interrupt", func() bool {
				s := tt.screen()
				return strings.Contains(s, "Interrupted") && agentIdle(s) && !strings.Contains(s, "y yes")
			})
			if _, err := os.Stat(notes); err != nil {
				t.Fatalf("deleted after Ctrl+C: %v", err)
			}

			// rm -rf ~/something refused: nothing deleted.
			ask("clean home", "Allow Bash(rm -rf ~/something)?", "")
			n = count(tt.all(), "noted")
			tt.run("send-keys", "-t", "t", "-l", "n")
			tt.waitUntil("the reason line", func() bool { return strings.Contains(tt.screen(), "Tell Claude why") })
			tt.run("send-keys", "-t", "t", "Enter")
			noted(n)
			if _, err := os.Stat(precious); err != nil {
				t.Fatalf("~/something deleted though refused: %v", err)
			}
			if r := api.last(); !r.IsError || !strings.Contains(r.Text, "Refused by the person") {
				t.Fatalf("the refusal sent: %+v", r)
			}

			// (a) y: runs once.
			ask("once", "Allow Bash(rm -f notes.txt)?", "")
			n = count(tt.all(), "noted")
			tt.run("send-keys", "-t", "t", "-l", "y")
			noted(n)
			if _, err := os.Stat(notes); !os.IsNotExist(err) {
				t.Fatalf("not deleted after y: %v", err)
			}
			if r := api.last(); r.IsError {
				t.Fatalf("refused after y: %+v", r)
			}

			// (b) a on a compound command: runs, adds the rule of every
			// part, and the same command is not asked again.
			ask("always", "Allow Bash(touch made.txt &&", "touch:*, head:*")
			if flat := strings.Join(strings.Fields(tt.screen()), " "); !strings.Contains(flat, `"touch made.txt" and "head made.txt" are not allowed?`) {
				t.Fatalf("the question does not name both parts:\n%s", tt.screen())
			}
			n = count(tt.all(), "noted")
			tt.run("send-keys", "-t", "t", "-l", "a")
			noted(n)
			made := filepath.Join(work, "made.txt")
			if _, err := os.Stat(made); err != nil || api.last().IsError {
				t.Fatalf("not run after a: %v %+v", err, api.last())
			}
			os.Remove(made)
			n = count(tt.all(), "noted")
			tt.enter("always again")
			// No key is sent: a question would hold the turn, and "noted"
			// would not come.
			noted(n)
			if _, err := os.Stat(made); err != nil || api.last().IsError {
				t.Fatalf("not run again after a: %v %+v", err, api.last())
			}

			// The trial's case: cat then rm. a adds cat:* only; the rm runs
			// this once and asks again next time, on its own.
			if err := os.WriteFile(notes, []byte("keep\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			ask("trial", "Allow Bash(cat notes.txt &&", `cat:*; "rm -f notes.txt" asks each time`)
			n = count(tt.all(), "noted")
			tt.run("send-keys", "-t", "t", "-l", "a")
			noted(n)
			if _, err := os.Stat(notes); !os.IsNotExist(err) || api.last().IsError {
				t.Fatalf("not run after a: %v %+v", err, api.last())
			}
			if err := os.WriteFile(notes, []byte("keep\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			alone := func() int {
				return strings.Count(strings.Join(strings.Fields(tt.all()), " "), `— "rm -f notes.txt" is not allowed?`)
			}
			before := alone()
			tt.enter("trial again")
			tt.waitUntil("the rm asked about alone", func() bool { return alone() > before && questionWhole(tt.screen(), "") })
			n = count(tt.all(), "noted")
			tt.run("send-keys", "-t", "t", "-l", "n")
			tt.waitUntil("the reason line", func() bool { return strings.Contains(tt.screen(), "Tell Claude why") })
			tt.run("send-keys", "-t", "t", "Enter")
			noted(n)
			if _, err := os.Stat(notes); err != nil {
				t.Fatalf("deleted though refused: %v", err)
			}
		})
	}
}

// agentIdle reports that the last non-blank row is the agent's empty prompt.
func agentIdle(s string) bool {
	lines := strings.Split(strings.TrimRight(s, "\n "), "\n")
	return strings.HasSuffix(strings.TrimRight(lines[len(lines)-1], " "), "✦")
}

// questionWhole reports whether the window shows the answers whole (wrapped
// rows joined): y, a with its rules, n; with no rule (a risky call) no a.
func questionWhole(s, rule string) bool {
	flat := strings.Join(strings.Fields(s), " ")
	always := "a always (this session, " + rule + ")"
	if rule == "" {
		if strings.Contains(flat, "a always") {
			return false
		}
		always = `(no "always": it would allow too much)`
	}
	for _, want := range []string{"y yes", always, "n no, and tell Claude why"} {
		if !strings.Contains(flat, want) {
			return false
		}
	}
	return true
}

// checkQuestionRows fails when a row of the question, from "Allow" to the
// answers, is cut ("…") or fills the window's width (the shell keeps a
// one-column margin: a full row is one the terminal wrapped).
func checkQuestionRows(t *testing.T, s, question string, cols int) {
	t.Helper()
	rows := strings.Split(s, "\n")
	start := -1
	for i, r := range rows {
		if strings.HasPrefix(r, question[:10]) {
			start = i
		}
	}
	if start < 0 {
		t.Fatalf("no question on the screen:\n%s", s)
	}
	for _, r := range rows[start:] {
		r = strings.TrimRight(r, " ")
		if strings.HasSuffix(r, "…") || ansi.StringWidth(r) >= cols {
			t.Fatalf("a question row cut or %d wide in %d columns: %q\n%s", ansi.StringWidth(r), cols, r, s)
		}
		if strings.Contains(r, "n no, and tell Claude why") {
			return
		}
	}
	t.Fatalf("the answers are not under the question:\n%s", s)
}
