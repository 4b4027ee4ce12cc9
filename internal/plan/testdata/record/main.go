// Command record is a scripted fake model API on loopback, used by hand to
// make the real agent CLIs write the session files kept as fixtures beside
// it (it lives under testdata/ so that it is no part of the build). It
// speaks the Anthropic Messages API (streamed) at /v1/messages, the OpenAI
// Responses API at /v1/responses and /responses, OpenAI chat completions at
// /v1/chat/completions and /chat/completions, and the Gemini API at
// /v1beta/models/…:streamGenerateContent.
//
// A script is a JSON array of turns; a turn is an array of blocks, each
// {"text":"…"} or {"tool":"NAME","input":{…}}; several tool blocks in one
// turn are one message with several calls. The turn answered is the number of
// assistant turns already in the request's conversation; past the script's
// end, and for requests without tools (titles, summaries), it answers "Done."
//
//	go run ./internal/plan/testdata/record -script s.json -addr 127.0.0.1:8790 -log /tmp/reqs
//
// With -hold DIR, before it answers turn N (counted from 0) it creates
// DIR/held-N and waits until DIR/go-N exists: the CLI is then idle between
// two calls, its files as it left them (a copy of opencode's database and
// its -wal taken then is one opencode had not checkpointed).
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

type block struct {
	Text  string          `json:"text,omitempty"`
	Tool  string          `json:"tool,omitempty"`
	Input json.RawMessage `json:"input,omitempty"`
}

type server struct {
	script [][]block
	logDir string
	hold   string
	mu     sync.Mutex
	n      int
}

func main() {
	scriptPath := flag.String("script", "", "the script (JSON)")
	addr := flag.String("addr", "127.0.0.1:8790", "loopback address to serve")
	logDir := flag.String("log", "", "directory to keep each request body in")
	hold := flag.String("hold", "", "directory: before turn N, create held-N there and wait for go-N")
	flag.Parse()
	if !strings.HasPrefix(*addr, "127.0.0.1:") {
		log.Fatal("loopback only")
	}
	b, err := os.ReadFile(*scriptPath)
	if err != nil {
		log.Fatal(err)
	}
	s := &server{logDir: *logDir, hold: *hold}
	if err := json.Unmarshal(b, &s.script); err != nil {
		log.Fatal(err)
	}
	log.Printf("serving %d turns at http://%s", len(s.script), *addr)
	log.Fatal(http.ListenAndServe(*addr, s))
}

func (s *server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	s.n++
	n := s.n
	s.mu.Unlock()
	if s.logDir != "" {
		_ = os.MkdirAll(s.logDir, 0o755)
		_ = os.WriteFile(filepath.Join(s.logDir, fmt.Sprintf("%03d%s.json", n, strings.ReplaceAll(r.URL.Path, "/", "_"))), body, 0o644)
	}
	log.Printf("%d %s %s (%d bytes)", n, r.Method, r.URL.Path, len(body))
	var req map[string]any
	_ = json.Unmarshal(body, &req)
	p := r.URL.Path
	switch {
	case strings.HasSuffix(p, "/messages/count_tokens"):
		fmt.Fprint(w, `{"input_tokens":10}`)
	case strings.HasSuffix(p, "/messages"):
		s.anthropic(w, req)
	case strings.HasSuffix(p, "/responses"):
		s.responses(w, req)
	case strings.HasSuffix(p, "/chat/completions"):
		s.chat(w, req)
	case strings.Contains(p, ":streamGenerateContent") || strings.Contains(p, ":generateContent"):
		s.gemini(w, req, strings.Contains(p, "stream"))
	case strings.HasSuffix(p, "/models"):
		fmt.Fprint(w, `{"data":[{"id":"fake-model","object":"model"}],"object":"list"}`)
	default:
		w.WriteHeader(404)
		fmt.Fprint(w, `{}`)
	}
}

// turn returns the blocks to answer with when the conversation holds done
// assistant turns and the request offers tools.
func (s *server) turn(done int, tools bool) []block {
	if !tools || done >= len(s.script) {
		return []block{{Text: "Done."}}
	}
	if s.hold != "" {
		_ = os.WriteFile(filepath.Join(s.hold, fmt.Sprintf("held-%d", done)), nil, 0o644)
		for {
			if _, err := os.Stat(filepath.Join(s.hold, fmt.Sprintf("go-%d", done))); err == nil {
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	return s.script[done]
}

func count(list []any, key, value string) int {
	n := 0
	for _, m := range list {
		if mm, ok := m.(map[string]any); ok && mm[key] == value {
			n++
		}
	}
	return n
}

func hasTools(req map[string]any) bool {
	t, _ := req["tools"].([]any)
	return len(t) > 0
}

func sse(w http.ResponseWriter, ev string, data any) {
	b, _ := json.Marshal(data)
	if ev != "" {
		fmt.Fprintf(w, "event: %s\n", ev)
	}
	fmt.Fprintf(w, "data: %s\n\n", b)
}

func (s *server) anthropic(w http.ResponseWriter, req map[string]any) {
	msgs, _ := req["messages"].([]any)
	blocks := s.turn(count(msgs, "role", "assistant"), hasTools(req))
	s.mu.Lock()
	id := fmt.Sprintf("msg_%04d", s.n)
	s.mu.Unlock()
	stop := "end_turn"
	var content []map[string]any
	for i, b := range blocks {
		if b.Tool != "" {
			stop = "tool_use"
			content = append(content, map[string]any{"type": "tool_use", "id": fmt.Sprintf("toolu_%s_%d", id[4:], i), "name": b.Tool, "input": json.RawMessage(b.Input)})
		} else {
			content = append(content, map[string]any{"type": "text", "text": b.Text})
		}
	}
	if st, _ := req["stream"].(bool); !st {
		_ = json.NewEncoder(w).Encode(map[string]any{"id": id, "type": "message", "role": "assistant", "model": req["model"], "content": content,
			"stop_reason": stop, "usage": map[string]int{"input_tokens": 10, "output_tokens": 10}})
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	sse(w, "message_start", map[string]any{"type": "message_start", "message": map[string]any{"id": id, "type": "message", "role": "assistant", "model": req["model"], "content": []any{}, "stop_reason": nil, "usage": map[string]int{"input_tokens": 10, "output_tokens": 1}}})
	for i, c := range content {
		if c["type"] == "tool_use" {
			sse(w, "content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": map[string]any{"type": "tool_use", "id": c["id"], "name": c["name"], "input": map[string]any{}}})
			sse(w, "content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": map[string]any{"type": "input_json_delta", "partial_json": string(c["input"].(json.RawMessage))}})
		} else {
			sse(w, "content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": map[string]any{"type": "text", "text": ""}})
			sse(w, "content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": map[string]any{"type": "text_delta", "text": c["text"]}})
		}
		sse(w, "content_block_stop", map[string]any{"type": "content_block_stop", "index": i})
	}
	sse(w, "message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]int{"output_tokens": 10}})
	sse(w, "message_stop", map[string]any{"type": "message_stop"})
}

func (s *server) responses(w http.ResponseWriter, req map[string]any) {
	in, _ := req["input"].([]any)
	done := 0
	prevCall := false
	for _, it := range in {
		m, _ := it.(map[string]any)
		switch {
		case m["type"] == "function_call" || m["type"] == "custom_tool_call":
			if !prevCall {
				done++
			}
			prevCall = true
			continue
		case m["role"] == "assistant":
			done++
		}
		prevCall = false
	}
	blocks := s.turn(done, hasTools(req))
	s.mu.Lock()
	id := fmt.Sprintf("resp_%04d", s.n)
	s.mu.Unlock()
	w.Header().Set("Content-Type", "text/event-stream")
	sse(w, "response.created", map[string]any{"type": "response.created", "response": map[string]any{"id": id}})
	var out []any
	for i, b := range blocks {
		var item map[string]any
		if b.Tool != "" {
			item = map[string]any{"type": "function_call", "id": fmt.Sprintf("fc_%s_%d", id, i), "call_id": fmt.Sprintf("call_%s_%d", id[5:], i), "name": b.Tool, "arguments": string(b.Input)}
		} else {
			item = map[string]any{"type": "message", "id": fmt.Sprintf("msg_%s_%d", id, i), "role": "assistant", "content": []any{map[string]any{"type": "output_text", "text": b.Text, "annotations": []any{}}}}
		}
		sse(w, "response.output_item.done", map[string]any{"type": "response.output_item.done", "output_index": i, "item": item})
		out = append(out, item)
	}
	sse(w, "response.completed", map[string]any{"type": "response.completed", "response": map[string]any{"id": id, "output": out,
		"usage": map[string]any{"input_tokens": 10, "input_tokens_details": nil, "output_tokens": 10, "output_tokens_details": nil, "total_tokens": 20}}})
}

func (s *server) chat(w http.ResponseWriter, req map[string]any) {
	msgs, _ := req["messages"].([]any)
	blocks := s.turn(count(msgs, "role", "assistant"), hasTools(req))
	s.mu.Lock()
	id := fmt.Sprintf("chatcmpl_%04d", s.n)
	s.mu.Unlock()
	w.Header().Set("Content-Type", "text/event-stream")
	var calls []any
	text := ""
	for i, b := range blocks {
		if b.Tool != "" {
			calls = append(calls, map[string]any{"index": len(calls), "id": fmt.Sprintf("call_%s_%d", id[9:], i), "type": "function", "function": map[string]any{"name": b.Tool, "arguments": string(b.Input)}})
		} else {
			text += b.Text
		}
	}
	delta := map[string]any{"role": "assistant"}
	if text != "" {
		delta["content"] = text
	}
	if calls != nil {
		delta["tool_calls"] = calls
	}
	finish := "stop"
	if calls != nil {
		finish = "tool_calls"
	}
	sse(w, "", map[string]any{"id": id, "object": "chat.completion.chunk", "model": req["model"], "choices": []any{map[string]any{"index": 0, "delta": delta}}})
	sse(w, "", map[string]any{"id": id, "object": "chat.completion.chunk", "model": req["model"], "choices": []any{map[string]any{"index": 0, "delta": map[string]any{}, "finish_reason": finish}},
		"usage": map[string]int{"prompt_tokens": 10, "completion_tokens": 10, "total_tokens": 20}})
	fmt.Fprint(w, "data: [DONE]\n\n")
}

func (s *server) gemini(w http.ResponseWriter, req map[string]any, stream bool) {
	contents, _ := req["contents"].([]any)
	done := 0
	for _, c := range contents {
		m, _ := c.(map[string]any)
		if m["role"] == "model" {
			done++
		}
	}
	tools := hasTools(req)
	blocks := s.turn(done, tools)
	var parts []any
	for _, b := range blocks {
		if b.Tool != "" {
			var args any
			_ = json.Unmarshal(b.Input, &args)
			parts = append(parts, map[string]any{"functionCall": map[string]any{"name": b.Tool, "args": args}})
		} else {
			parts = append(parts, map[string]any{"text": b.Text})
		}
	}
	resp := map[string]any{"candidates": []any{map[string]any{"content": map[string]any{"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}},
		"usageMetadata": map[string]int{"promptTokenCount": 10, "candidatesTokenCount": 10, "totalTokenCount": 20}}
	if !stream {
		_ = json.NewEncoder(w).Encode(resp)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	var b bytes.Buffer
	_ = json.NewEncoder(&b).Encode(resp)
	fmt.Fprintf(w, "data: %s\n", b.Bytes())
}
