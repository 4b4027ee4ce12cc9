package agent

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// block is one content block of a scripted response.
type block struct {
	text  string
	tool  string // tool name, for a tool_use block
	id    string
	input string // tool input JSON
}

// reply is one scripted answer of the fake Messages API.
type reply struct {
	blocks []block
	stop   string // stop_reason; "" means end_turn

	status int    // an HTTP error instead of a stream
	body   string // its JSON body
	hang   bool   // send message_start, then wait for the client to go away
	// stall sends nothing at all, not even headers, until the client goes
	// away.
	stall bool
	// cut drops the connection after the first content block's deltas,
	// before content_block_stop and message_stop.
	cut bool
	// delta is the size of each text delta; 0 means three deltas a block.
	delta int
	// retryAfter, with status, is the Retry-After header sent (instead of
	// a 1 ms Retry-After-Ms).
	retryAfter string
	// hugeInput, when more than 0, is the size of a tool input sent as one
	// input_json_delta (one stream line).
	hugeInput int
}

// fakeAPI is an httptest server that speaks the Messages API's streaming
// event format and records every request body.
type fakeAPI struct {
	t       testing.TB
	srv     *httptest.Server
	mu      sync.Mutex
	replies []reply
	next    int
	bodies  []map[string]any
	raw     [][]byte
	busy    time.Duration // time spent answering, to tell the loop's own cost apart
	started chan struct{} // a hanging reply has begun
	forget  bool          // keep no request bodies (benchmarks)
	cache   *cacheLedger  // when set, usage accounts for prompt caching
	// respond, when set, answers each request instead of the script.
	respond func(body map[string]any) reply
}

func newFakeAPI(t testing.TB, replies ...reply) *fakeAPI {
	f := &fakeAPI{t: t, replies: replies, started: make(chan struct{}, 16)}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

// script replaces what the server answers from now on.
func (f *fakeAPI) script(replies ...reply) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.replies, f.next = replies, 0
}

func (f *fakeAPI) requests() []map[string]any {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]map[string]any(nil), f.bodies...)
}

func (f *fakeAPI) serve(w http.ResponseWriter, r *http.Request) {
	begin := time.Now()
	defer func() {
		f.mu.Lock()
		f.busy += time.Since(begin)
		f.mu.Unlock()
	}()
	if r.URL.Path != "/v1/messages" || r.Header.Get("X-Api-Key") == "" {
		http.Error(w, `{"type":"error","error":{"type":"not_found_error","message":"wrong path or no key"}}`, 404)
		return
	}
	raw, _ := io.ReadAll(r.Body)
	var body map[string]any
	if err := json.Unmarshal(raw, &body); err != nil {
		f.t.Errorf("request is not JSON: %v", err)
	}
	f.mu.Lock()
	if !f.forget {
		f.bodies = append(f.bodies, body)
		f.raw = append(f.raw, raw)
	}
	if f.respond != nil {
		f.replies = append(f.replies, f.respond(body))
	}
	if f.next >= len(f.replies) {
		f.mu.Unlock()
		f.t.Errorf("unexpected request %d", len(f.bodies))
		http.Error(w, `{"type":"error","error":{"type":"api_error","message":"no scripted reply"}}`, 500)
		return
	}
	rep := f.replies[f.next]
	f.next++
	f.mu.Unlock()

	if rep.stall {
		f.started <- struct{}{}
		<-r.Context().Done()
		return
	}
	if rep.status != 0 {
		w.Header().Set("Content-Type", "application/json")
		if rep.retryAfter != "" {
			w.Header().Set("Retry-After", rep.retryAfter)
		} else {
			w.Header().Set("Retry-After-Ms", "1") // keep the SDK's retries fast
		}
		w.WriteHeader(rep.status)
		io.WriteString(w, rep.body)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	fl := w.(http.Flusher)
	send := func(event string, data any) {
		b, _ := json.Marshal(data)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, b)
		fl.Flush()
	}
	usage := map[string]any{"input_tokens": 10, "output_tokens": 1}
	if f.cache != nil {
		usage = f.cache.account(body)
	}
	send("message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": fmt.Sprintf("msg_%d", f.next), "type": "message", "role": "assistant", "model": body["model"],
		"content": []any{}, "stop_reason": nil, "stop_sequence": nil,
		"usage": usage,
	}})
	if rep.hang {
		f.started <- struct{}{}
		<-r.Context().Done()
		return
	}
	if rep.hugeInput > 0 {
		send("content_block_start", map[string]any{"type": "content_block_start", "index": 0, "content_block": map[string]any{"type": "tool_use", "id": "toolu_huge", "name": "Bash", "input": map[string]any{}}})
		in := `{"command":"` + strings.Repeat("x", rep.hugeInput) + `"}`
		send("content_block_delta", map[string]any{"type": "content_block_delta", "index": 0, "delta": map[string]any{"type": "input_json_delta", "partial_json": in}})
	}
	for i, b := range rep.blocks {
		if b.tool == "" {
			send("content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": map[string]any{"type": "text", "text": ""}})
			pieces := splitIn(b.text, 3)
			if rep.delta > 0 {
				pieces = splitEvery(b.text, rep.delta)
			}
			for _, piece := range pieces {
				send("content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": map[string]any{"type": "text_delta", "text": piece}})
			}
		} else {
			send("content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": map[string]any{"type": "tool_use", "id": b.id, "name": b.tool, "input": map[string]any{}}})
			for _, piece := range splitIn(b.input, 3) {
				send("content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": map[string]any{"type": "input_json_delta", "partial_json": piece}})
			}
		}
		if rep.cut {
			panic(http.ErrAbortHandler) // the connection drops mid-stream
		}
		send("content_block_stop", map[string]any{"type": "content_block_stop", "index": i})
	}
	stop := rep.stop
	if stop == "" {
		stop = "end_turn"
	}
	send("message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 20}})
	send("message_stop", map[string]any{"type": "message_stop"})
}

// splitIn cuts s into up to n pieces, as a stream would deliver it.
func splitIn(s string, n int) []string {
	if s == "" {
		return []string{""}
	}
	var out []string
	size := (len(s) + n - 1) / n
	for len(s) > 0 {
		k := min(size, len(s))
		out = append(out, s[:k])
		s = s[k:]
	}
	return out
}

// splitEvery cuts s into pieces of n bytes (the last one shorter).
func splitEvery(s string, n int) []string {
	out := make([]string, 0, len(s)/n+1)
	for len(s) > n {
		out = append(out, s[:n])
		s = s[n:]
	}
	return append(out, s)
}

// toolUse scripts a response asking for tools.
func toolUse(blocks ...block) reply { return reply{blocks: blocks, stop: "tool_use"} }

func say(text string) reply { return reply{blocks: []block{{text: text}}} }

func bashCall(id, command string) block {
	in, _ := json.Marshal(map[string]string{"command": command})
	return block{tool: "Bash", id: id, input: string(in)}
}

func todoCall(id string, items ...[3]string) block {
	var todos []map[string]string
	for _, it := range items {
		todos = append(todos, map[string]string{"content": it[0], "activeForm": it[1], "status": it[2]})
	}
	in, _ := json.Marshal(map[string]any{"todos": todos})
	return block{tool: "TodoWrite", id: id, input: string(in)}
}

// userBlocks returns the content blocks of the last user message of a
// request body.
func userBlocks(body map[string]any) []map[string]any {
	msgs := body["messages"].([]any)
	last := msgs[len(msgs)-1].(map[string]any)
	var out []map[string]any
	switch c := last["content"].(type) {
	case []any:
		for _, b := range c {
			out = append(out, b.(map[string]any))
		}
	case string:
		out = append(out, map[string]any{"type": "text", "text": c})
	}
	return out
}

func hasText(blocks []map[string]any, substr string) bool {
	for _, b := range blocks {
		if b["type"] == "text" && strings.Contains(fmt.Sprint(b["text"]), substr) {
			return true
		}
	}
	return false
}

// resultText is a tool_result block's content as text: a string, or its
// text blocks joined.
func resultText(b map[string]any) any {
	switch c := b["content"].(type) {
	case []any:
		var sb strings.Builder
		for _, x := range c {
			if m, ok := x.(map[string]any); ok && m["type"] == "text" {
				fmt.Fprint(&sb, m["text"])
			}
		}
		return sb.String()
	case nil:
		return ""
	default:
		return c
	}
}

// stripCache returns v, decoded JSON, without its cache_control fields
// (the breakpoints; changed in place).
func stripCache(v any) any {
	switch x := v.(type) {
	case map[string]any:
		delete(x, "cache_control")
		for _, e := range x {
			stripCache(e)
		}
	case []any:
		for _, e := range x {
			stripCache(e)
		}
	}
	return v
}
