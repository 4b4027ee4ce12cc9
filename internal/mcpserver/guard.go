package mcpserver

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
)

// DefaultMaxLine is the longest JSON-RPC line Guard passes on.
const DefaultMaxLine = 16 << 20

// JSON-RPC error codes Guard answers with.
const (
	codeParseError     = -32700
	codeInvalidRequest = -32600
)

// Guard stands between a client's byte stream and the SDK's stdio
// transport. The SDK ends the whole session on a line that is not JSON or
// not a JSON-RPC 2.0 message; Guard answers such a line itself with a
// JSON-RPC error (parse error or invalid request, with the line's id when
// it has one) and passes every good line on, so the server goes on. A line
// longer than maxLine is answered the same way without being buffered.
//
// A message nested deeper than MaxDepth is answered the same way.
//
// Every request gets an id of Guard's own before the SDK sees it, and its
// response gets the client's id back exactly as it was sent (1.5, 1e30,
// "x"), so no two ids collide; a notifications/cancelled is given the same
// id. At most maxInFlight requests wait for their responses: while they do,
// Guard reads no more, so a client that never reads its answers holds the
// server to a bounded amount of memory.
//
// The returned reader is for the transport; writes to the returned writer
// and Guard's own answers are serialised onto out, one whole line each. The
// returned channel is closed when in ends: on stdio that is the client going
// away (or asking the server to stop), so calls still running are moot.
func Guard(in io.Reader, out io.Writer, maxLine int) (io.ReadCloser, io.WriteCloser, <-chan struct{}) {
	if maxLine <= 0 {
		maxLine = DefaultMaxLine
	}
	pr, pw := io.Pipe()
	w := &lineWriter{w: out, ids: newIDs()}
	ended := make(chan struct{})
	go func() {
		err := guardLines(in, pw, w, maxLine)
		w.ids.stop()
		close(ended)
		pw.CloseWithError(err)
	}()
	return pr, w, ended
}

// guardLines copies good lines from in to pass and answers bad ones on w.
func guardLines(in io.Reader, pass io.Writer, w *lineWriter, maxLine int) error {
	br := bufio.NewReaderSize(in, 64<<10)
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		tooLong := false
		line = append(line[:0], chunk...)
		for errors.Is(err, bufio.ErrBufferFull) {
			chunk, err = br.ReadSlice('\n')
			if !tooLong && len(line)+len(chunk) > maxLine {
				tooLong, line = true, line[:0]
			}
			if !tooLong {
				line = append(line, chunk...)
			}
		}
		if len(line) > maxLine {
			tooLong, line = true, line[:0]
		}
		if tooLong {
			w.answer(nil, codeInvalidRequest, fmt.Sprintf("request line longer than %d bytes", maxLine))
		} else if text := bytes.TrimSpace(line); len(text) > 0 {
			if code, id, msg := check(text); code != 0 {
				w.answer(id, code, msg)
			} else if _, werr := pass.Write(append(w.ids.inbound(text), '\n')); werr != nil {
				return werr
			}
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
	}
}

// check says whether text is one JSON-RPC 2.0 message the SDK can take:
// code 0 when it is, else the error code, the id (if any) and why.
func check(text []byte) (code int, id json.RawMessage, why string) {
	if !json.Valid(text) {
		return codeParseError, nil, "parse error: not valid JSON"
	}
	if d := depth(text, MaxDepth); d > MaxDepth {
		var id json.RawMessage
		if start, end, ok := member(text, "id"); ok && validID(text[start:end]) {
			id = text[start:end]
		}
		return codeInvalidRequest, id, fmt.Sprintf("invalid request: nested deeper than %d levels", MaxDepth)
	}
	var m struct {
		JSONRPC *string         `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Method  *string         `json:"method"`
		Params  json.RawMessage `json:"params"`
		Result  json.RawMessage `json:"result"`
		Error   json.RawMessage `json:"error"`
	}
	if text[0] != '{' {
		return codeInvalidRequest, nil, "invalid request: a message must be a JSON object (batches are not supported)"
	}
	if err := json.Unmarshal(text, &m); err != nil {
		return codeInvalidRequest, nil, "invalid request: " + err.Error()
	}
	if len(m.ID) > 0 && !validID(m.ID) {
		return codeInvalidRequest, nil, "invalid request: id must be a string or a number"
	}
	switch {
	case m.JSONRPC == nil || *m.JSONRPC != "2.0":
		return codeInvalidRequest, m.ID, `invalid request: "jsonrpc" must be "2.0"`
	case m.Method != nil:
		if *m.Method == "" {
			return codeInvalidRequest, m.ID, `invalid request: "method" is empty`
		}
		if len(m.Params) > 0 && m.Params[0] != '{' && m.Params[0] != '[' && string(m.Params) != "null" {
			return codeInvalidRequest, m.ID, `invalid request: "params" must be an object`
		}
	case len(m.ID) > 0 && (len(m.Result) > 0 || len(m.Error) > 0):
		// A response to a request of the server's.
	default:
		return codeInvalidRequest, m.ID, `invalid request: neither a request ("method") nor a response ("result" or "error")`
	}
	return 0, nil, ""
}

// validID reports whether raw is an id JSON-RPC allows: a string or a
// number.
func validID(raw []byte) bool {
	return len(raw) > 0 && (raw[0] == '"' || raw[0] == '-' || (raw[0] >= '0' && raw[0] <= '9'))
}

// inbound gives a request an id of Guard's own (waiting for room first),
// and a cancellation the id of the request it cancels.
func (m *ids) inbound(text []byte) []byte {
	var head struct {
		Method *string `json:"method"`
	}
	start, end, hasID := member(text, "id")
	if hasID {
		if ms, me, ok := member(text, "method"); ok && json.Unmarshal(text[ms:me], &head.Method) == nil {
			n := m.admit(text[start:end], len(text))
			return splice(text, start, end, strconv.AppendInt(nil, n, 10))
		}
		return text // a response to a request of the server's
	}
	ms, me, ok := member(text, "method")
	if !ok || string(text[ms:me]) != `"notifications/cancelled"` {
		return text
	}
	ps, pe, ok := member(text, "params")
	if !ok {
		return text
	}
	params := text[ps:pe]
	rs, re, ok := member(params, "requestId")
	if !ok {
		return text
	}
	n, ok := m.cancelled(params[rs:re])
	if !ok {
		return text
	}
	params = splice(params, rs, re, strconv.AppendInt(nil, n, 10))
	return splice(text, ps, pe, params)
}

// lineWriter serialises whole lines onto w, putting the client's ids back
// on responses.
type lineWriter struct {
	mu  sync.Mutex
	w   io.Writer
	ids *ids
}

// Write writes one line of the SDK's. A response to a request gets the
// client's id back; one to a request the client cancelled is dropped.
func (l *lineWriter) Write(p []byte) (int, error) {
	p = l.ids.subscription(p)
	start, end, ok := member(p, "id")
	if !ok {
		return l.write(p)
	}
	n, ours := ourID(p[start:end])
	if !ours {
		return l.write(p)
	}
	if _, _, isReq := member(p, "method"); isReq {
		return l.write(p) // a request of the server's, with its own ids
	}
	orig, waiting := l.ids.lookup(n)
	if !waiting {
		return len(p), nil // cancelled: the client expects no answer
	}
	_, err := l.write(splice(p, start, end, orig))
	l.ids.answered(n) // written (or failed): room for the next request
	if err != nil {
		return 0, err
	}
	return len(p), nil
}

func (l *lineWriter) write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func (l *lineWriter) Close() error { return nil }

// answer writes a JSON-RPC error response.
func (l *lineWriter) answer(id json.RawMessage, code int, msg string) {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	b, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}{JSONRPC: "2.0", ID: id, Error: struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}{code, msg}})
	_, _ = l.write(append(b, '\n')) // a broken stdout also fails the server's own writes, which end it
}
