package cmd

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestHelperFakeAPI is not a test but a server for measuring `agent -p` as a
// separate process (BENCHMARKS.md). With TODO_SHELL_FAKE_API_BYTES=N set, it
// serves the Messages API on TODO_SHELL_FAKE_API_ADDR (default
// 127.0.0.1:8765) and answers every request with N bytes of text in 100-byte
// deltas, then end_turn; the stream is encoded once, up front, so the server
// costs little. TODO_SHELL_FAKE_API_TEXT, when set, is the text instead
// (in 100-byte deltas too): hostile text for trying a terminal by hand.
//
//	TODO_SHELL_FAKE_API_BYTES=4194304 go test -run TestHelperFakeAPI -timeout 0 ./cmd &
//	ANTHROPIC_API_KEY=x ANTHROPIC_BASE_URL=http://127.0.0.1:8765 /usr/bin/time -f '%e s %M KB' todo-shell agent -p hi >/dev/null
func TestHelperFakeAPI(t *testing.T) {
	n, err := strconv.Atoi(os.Getenv("TODO_SHELL_FAKE_API_BYTES"))
	text := os.Getenv("TODO_SHELL_FAKE_API_TEXT")
	if err != nil && text == "" {
		t.Skip("a helper process for BENCHMARKS.md; set TODO_SHELL_FAKE_API_BYTES or TODO_SHELL_FAKE_API_TEXT")
	}
	addr := os.Getenv("TODO_SHELL_FAKE_API_ADDR")
	if addr == "" {
		addr = "127.0.0.1:8765"
	}
	var body []byte
	if text != "" {
		n, body = len(text), streamText(text, 100)
	} else {
		body = streamBody(n, 100)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf("serving %d bytes of text (%d bytes of stream) at http://%s\n", n, len(body), ln.Addr())
	http.Serve(ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write(body)
	}))
}

// streamBody is a whole streamed response of n bytes of text (lines of
// prose) in delta-byte text_delta events.
func streamBody(n, delta int) []byte {
	line := "a line of a long streamed answer, plain prose with some code `x := y`\n"
	return streamText(strings.Repeat(line, n/len(line)+1)[:n], delta)
}

// streamText is a whole streamed response of text in delta-byte
// text_delta events.
func streamText(text string, delta int) []byte {
	var b bytes.Buffer
	send := func(ev, data string) { fmt.Fprintf(&b, "event: %s\ndata: %s\n\n", ev, data) }
	send("message_start", `{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":7,"output_tokens":1}}}`)
	send("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`)
	for len(text) > 0 {
		k := min(delta, len(text))
		s, _ := json.Marshal(text[:k])
		send("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":`+string(s)+`}}`)
		text = text[k:]
	}
	send("content_block_stop", `{"type":"content_block_stop","index":0}`)
	send("message_delta", `{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":5}}`)
	send("message_stop", `{"type":"message_stop"}`)
	return b.Bytes()
}
