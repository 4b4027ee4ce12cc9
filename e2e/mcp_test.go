package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/todo-shell/todo-shell/internal/testwait"
)

// mcpServer is a running 'todo-shell mcp' with the MCP go-sdk's own client
// connected to it over its stdin and stdout.
type mcpServer struct {
	cs     *mcp.ClientSession
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	exited chan struct{}
}

// mcpClient starts the built binary as 'todo-shell mcp ARGS' and connects the
// MCP go-sdk's own client to it over stdio.
func mcpClient(t testing.TB, dir string, args ...string) *mcpServer {
	t.Helper()
	cmd := exec.Command(binary, append([]string{"mcp", "--session", "mcp-test", "--offload-dir", filepath.Join(dir, "off")}, args...)...)
	cmd.Dir = dir
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &mcpServer{cmd: cmd, stdin: stdin, exited: make(chan struct{})}
	go func() { cmd.Wait(); close(s.exited) }()
	t.Cleanup(func() {
		stdin.Close()
		select {
		case <-s.exited:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			t.Errorf("todo-shell mcp did not exit when its input closed")
		}
	})
	client := mcp.NewClient(&mcp.Implementation{Name: "todo-shell-test", Version: "1"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	s.cs, err = client.Connect(ctx, &mcp.IOTransport{Reader: stdout, Writer: stdin}, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	return s
}

// callText calls a tool and returns its one text block and isError.
func callText(t testing.TB, cs *mcp.ClientSession, name string, args any) (string, bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("call %s: %v", name, err)
	}
	if len(res.Content) != 1 {
		t.Fatalf("call %s: %d content blocks, want 1", name, len(res.Content))
	}
	text, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		t.Fatalf("call %s: content is %T, want text", name, res.Content[0])
	}
	return text.Text, res.IsError
}

// serveAnswer asks 'todo-shell serve' the same call, for the exact content
// the Anthropic tool layer gives.
func serveAnswer(t *testing.T, dir, name, input string) (string, bool) {
	t.Helper()
	cmd := exec.Command(binary, "serve", "--session", "mcp-serve", "--offload-dir", filepath.Join(dir, "serve-off"))
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(fmt.Sprintf(`{"type":"tool_use","id":"toolu_x","name":%q,"input":%s}`+"\n", name, input))
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("serve: %v", err)
	}
	var res struct {
		Content string `json:"content"`
		IsError bool   `json:"is_error"`
	}
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("serve answer %q: %v", out, err)
	}
	return res.Content, res.IsError
}

func TestMCPToolsListMatchesToolsCommand(t *testing.T) {
	t.Parallel()
	out, err := exec.Command(binary, "tools").Output()
	if err != nil {
		t.Fatal(err)
	}
	var want []toolDef
	if err := json.Unmarshal(out, &want); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		args  []string
		tools []string
	}{
		{"default", nil, []string{"TaskCreate", "TaskGet", "TaskList", "TaskUpdate", "TodoRead", "TodoWrite"}},
		{"allow-bash", []string{"--allow-bash"}, []string{"Bash", "TaskCreate", "TaskGet", "TaskList", "TaskUpdate", "TodoRead", "TodoWrite"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cs := mcpClient(t, t.TempDir(), tc.args...)
			res, err := cs.cs.ListTools(context.Background(), nil)
			if err != nil {
				t.Fatal(err)
			}
			var got []string // the SDK lists tools by name
			for _, tool := range res.Tools {
				got = append(got, tool.Name)
				i := slices.IndexFunc(want, func(d toolDef) bool { return d.Name == tool.Name })
				if i < 0 {
					t.Fatalf("tool %q is not in todo-shell tools", tool.Name)
				}
				w := want[i]
				if tool.Description != w.Description {
					t.Errorf("%s: description differs from todo-shell tools'", tool.Name)
				}
				gotSchema, _ := json.Marshal(tool.InputSchema)
				if !jsonEqual(t, gotSchema, w.InputSchema) {
					t.Errorf("%s: input schema\n%s\nwant (todo-shell tools)\n%s", tool.Name, gotSchema, w.InputSchema)
				}
			}
			if !reflect.DeepEqual(got, tc.tools) {
				t.Errorf("tools %v, want %v", got, tc.tools)
			}
		})
	}
}

type toolDef struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"input_schema"`
}

func jsonEqual(t testing.TB, a, b []byte) bool {
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatal(err)
	}
	return reflect.DeepEqual(x, y)
}

func TestMCPResultShapes(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cs := mcpClient(t, dir, "--allow-bash", "--offload-threshold", "300")
	list := `{"todos":[{"content":"Plan","activeForm":"Planning","status":"completed"},{"content":"Build","activeForm":"Building","status":"in_progress"}]}`
	bad := `{"todos":[{"content":"","activeForm":"x","status":"done"}]}`
	cases := []struct {
		name, tool, input string
		check             func(t *testing.T, text string, isErr bool)
	}{
		{"TodoWrite success", "TodoWrite", list, func(t *testing.T, text string, isErr bool) {
			if text != `{"success":true,"count":2}` || isErr {
				t.Errorf("got %q isError=%v", text, isErr)
			}
		}},
		{"TodoRead", "TodoRead", `{}`, func(t *testing.T, text string, isErr bool) {
			if !jsonEqual(t, []byte(text), []byte(list)) || isErr {
				t.Errorf("got %q isError=%v, want %s", text, isErr, list)
			}
		}},
		{"rejected input is the tool layer's message", "TodoWrite", bad, func(t *testing.T, text string, isErr bool) {
			want, wantErr := serveAnswer(t, dir, "TodoWrite", bad)
			if text != want || isErr != wantErr || !isErr {
				t.Errorf("got %q isError=%v, want %q isError=%v", text, isErr, want, wantErr)
			}
		}},
		{"not an object", "TodoWrite", `{"todos":"x"}`, func(t *testing.T, text string, isErr bool) {
			want, _ := serveAnswer(t, dir, "TodoWrite", `{"todos":"x"}`)
			if text != want || !isErr {
				t.Errorf("got %q isError=%v, want %q", text, isErr, want)
			}
		}},
		{"Bash", "Bash", `{"command":"echo hello from bash"}`, func(t *testing.T, text string, isErr bool) {
			want, _ := serveAnswer(t, dir, "Bash", `{"command":"echo hello from bash"}`)
			if text != want || isErr {
				t.Errorf("got %q isError=%v, want %q", text, isErr, want)
			}
		}},
		{"offloaded result is the pointer line", "Bash", `{"command":"seq 1 400"}`, func(t *testing.T, text string, isErr bool) {
			path, ok := strings.CutPrefix(text, "[Tool result offloaded to file: ")
			path, ok2 := strings.CutSuffix(path, "]")
			if !ok || !ok2 || isErr {
				t.Fatalf("got %q isError=%v, want the pointer line", text, isErr)
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			seq, _ := exec.Command("seq", "1", "400").Output()
			if !bytes.Contains(data, bytes.TrimSpace(seq)) {
				t.Errorf("offload file does not hold the output:\n%.200s", data)
			}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			text, isErr := callText(t, cs.cs, tc.tool, json.RawMessage(tc.input))
			tc.check(t, text, isErr)
		})
	}
}

func TestMCPUnknownToolIsAProtocolErrorAndServerGoesOn(t *testing.T) {
	t.Parallel()
	cs := mcpClient(t, t.TempDir())
	_, err := cs.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "Nope", Arguments: map[string]any{}})
	if err == nil || !strings.Contains(err.Error(), "Nope") {
		t.Fatalf("unknown tool: err = %v, want a protocol error naming it", err)
	}
	// Bash is not published without --allow-bash.
	if _, err := cs.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "Bash", Arguments: map[string]any{"command": "true"}}); err == nil {
		t.Fatal("Bash answered without --allow-bash")
	}
	if text, isErr := callText(t, cs.cs, "TodoRead", map[string]any{}); text != `{"todos":[]}` || isErr {
		t.Fatalf("after the errors: %q isError=%v", text, isErr)
	}
}

// TestMCPMalformedLinesGetErrorsAndServerGoesOn speaks raw JSON-RPC: lines the
// SDK would end the session on get a JSON-RPC error and the next call works.
func TestMCPMalformedLinesGetErrorsAndServerGoesOn(t *testing.T) {
	t.Parallel()
	cmd := exec.Command(binary, "mcp", "--offload-dir", t.TempDir())
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer stdin.Close()
	lines := bufio.NewScanner(stdout)
	lines.Buffer(nil, 1<<20)
	next := func() map[string]any {
		t.Helper()
		if !lines.Scan() {
			t.Fatalf("no answer: %v", lines.Err())
		}
		var m map[string]any
		if err := json.Unmarshal(lines.Bytes(), &m); err != nil {
			t.Fatalf("answer %q: %v", lines.Text(), err)
		}
		return m
	}
	send := func(s string) { stdin.Write([]byte(s + "\n")) }
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	if m := next(); m["id"] != 1.0 || m["result"] == nil {
		t.Fatalf("initialize: %v", m)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	for _, tc := range []struct {
		line string
		code float64
		id   any
	}{
		{`not json {`, -32700, nil},
		{`{"id":7}`, -32600, 7.0},
		{`[{"jsonrpc":"2.0","id":8,"method":"tools/list"}]`, -32600, nil},
		{`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":"x"}`, -32600, 9.0},
	} {
		send(tc.line)
		m := next()
		e, _ := m["error"].(map[string]any)
		if e == nil || e["code"] != tc.code || m["id"] != tc.id {
			t.Errorf("%s: answer %v, want error %v with id %v", tc.line, m, tc.code, tc.id)
		}
	}
	send(`{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"TodoRead","arguments":{}}}`)
	m := next()
	if m["id"] != 10.0 || !strings.Contains(fmt.Sprint(m["result"]), `{"todos":[]}`) {
		t.Fatalf("the server did not go on: %v", m)
	}
}

func TestMCPConcurrentCalls(t *testing.T) {
	t.Parallel()
	cs := mcpClient(t, t.TempDir())
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for i := range 32 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			list := fmt.Sprintf(`{"todos":[{"content":"item %d","activeForm":"Doing %d","status":"in_progress"}]}`, i, i)
			res, err := cs.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "TodoWrite", Arguments: json.RawMessage(list)})
			if err != nil || res.IsError || res.Content[0].(*mcp.TextContent).Text != `{"success":true,"count":1}` {
				errs <- fmt.Sprintf("call %d: %v %+v", i, err, res)
			}
			if _, err := cs.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "TodoRead", Arguments: map[string]any{}}); err != nil {
				errs <- fmt.Sprintf("read %d: %v", i, err)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	text, _ := callText(t, cs.cs, "TodoRead", map[string]any{})
	if !strings.HasPrefix(text, `{"todos":[{"content":"item `) {
		t.Errorf("final list %q is not one of the written lists", text)
	}
}

func exited(s *mcpServer) bool {
	select {
	case <-s.exited:
		return true
	default:
		return false
	}
}

func TestMCPFaultClientDisconnectsMidCall(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	srv := mcpClient(t, dir, "--allow-bash")
	marker := fmt.Sprintf("%d.%d", 300+os.Getpid()%300, time.Now().Nanosecond()%1000)
	go srv.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "Bash", Arguments: map[string]any{"command": "sleep " + marker}})
	testwait.For(t, 10*time.Second, "the command to start", func() bool { return len(pidsRunning("sleep", marker)) > 0 })
	srv.stdin.Close() // the client goes away
	testwait.For(t, 10*time.Second, "the server to exit", func() bool { return exited(srv) })
	testwait.For(t, 5*time.Second, "the command to be killed", func() bool { return len(pidsRunning("sleep", marker)) == 0 })
	tmp, _ := filepath.Glob(filepath.Join(dir, "off", "*", ".tmp-*"))
	if len(tmp) > 0 {
		t.Errorf("left behind: %v", tmp)
	}
}

func TestMCPFaultSignalsStopTheServer(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		sig  syscall.Signal
		code int
	}{{syscall.SIGTERM, 143}, {syscall.SIGINT, 130}, {syscall.SIGHUP, 129}} {
		t.Run(tc.sig.String(), func(t *testing.T) {
			srv := mcpClient(t, t.TempDir(), "--allow-bash")
			marker := fmt.Sprintf("%d.%d", 600+int(tc.sig), time.Now().Nanosecond()%1000)
			go srv.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "Bash", Arguments: map[string]any{"command": "sleep " + marker}})
			testwait.For(t, 10*time.Second, "the command to start", func() bool { return len(pidsRunning("sleep", marker)) > 0 })
			srv.cmd.Process.Signal(tc.sig)
			testwait.For(t, 5*time.Second, "the command to be killed", func() bool { return len(pidsRunning("sleep", marker)) == 0 })
			testwait.For(t, 10*time.Second, "the server to exit", func() bool { return exited(srv) })
			if got := srv.cmd.ProcessState.ExitCode(); got != tc.code {
				t.Errorf("exit status %d, want %d", got, tc.code)
			}
		})
	}
}

func BenchmarkMCPTodoWriteRoundTrip(b *testing.B) {
	cs := mcpClient(b, b.TempDir())
	list := json.RawMessage(`{"todos":[{"content":"Read the spec","activeForm":"Reading the spec","status":"completed"},{"content":"Write the parser","activeForm":"Writing the parser","status":"in_progress"},{"content":"Add tests","activeForm":"Adding tests","status":"pending"}]}`)
	ctx := context.Background()
	for b.Loop() {
		if _, err := cs.cs.CallTool(ctx, &mcp.CallToolParams{Name: "TodoWrite", Arguments: list}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestMCPWritesTheSessionFiles: an MCP client's plan is on disk in the
// session directory (what `todo-shell watch` follows), and --resume brings
// it back.
func TestMCPWritesTheSessionFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	srv := mcpClient(t, dir)
	list := `{"todos":[{"content":"Plan over MCP","activeForm":"Planning over MCP","status":"in_progress"}]}`
	if text, isErr := callText(t, srv.cs, "TodoWrite", json.RawMessage(list)); isErr {
		t.Fatal(text)
	}
	srv.stdin.Close()
	<-srv.exited
	sdir := filepath.Join(dir, "off", "mcp-test")
	got, err := os.ReadFile(filepath.Join(sdir, "todos.json"))
	if err != nil || !jsonEqual(t, got, []byte(list)) {
		t.Fatalf("todos.json %q (%v), want %s", got, err, list)
	}
	var meta struct{ Mode string }
	b, _ := os.ReadFile(filepath.Join(sdir, "session.json"))
	if json.Unmarshal(b, &meta); meta.Mode != "mcp" {
		t.Errorf("session.json %s", b)
	}
	cmd := exec.Command(binary, "--resume", "mcp-test", "--offload-dir", filepath.Join(dir, "off"), "-c", "TodoRead --json")
	out, err := cmd.Output()
	if err != nil || !jsonEqual(t, bytes.TrimSpace(out), []byte(list)) {
		t.Fatalf("resumed: %s (%v)", out, err)
	}
}

// startMCP starts 'todo-shell mcp', stopped when the test ends, and
// returns its input and its output's lines.
func startMCP(t *testing.T) (io.Writer, *bufio.Scanner) {
	t.Helper()
	cmd := exec.Command(binary, "mcp", "--offload-dir", t.TempDir())
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdin.Close(); cmd.Wait() })
	lines := bufio.NewScanner(stdout)
	lines.Buffer(nil, 1<<20)
	return stdin, lines
}

// rawMCP starts 'todo-shell mcp' and initializes it over raw JSON lines.
func rawMCP(t *testing.T) (send func(string), next func() map[string]any, raw func() string) {
	t.Helper()
	stdin, lines := startMCP(t)
	raw = func() string {
		t.Helper()
		if !lines.Scan() {
			t.Fatalf("no answer: %v", lines.Err())
		}
		return lines.Text()
	}
	next = func() map[string]any {
		t.Helper()
		var m map[string]any
		text := raw()
		if err := json.Unmarshal([]byte(text), &m); err != nil {
			t.Fatalf("answer %q: %v", text, err)
		}
		return m
	}
	send = func(s string) { stdin.Write([]byte(s + "\n")) }
	send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	if m := next(); m["result"] == nil {
		t.Fatalf("initialize: %v", m)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return send, next, raw
}

// TestMCPIDsEchoedExactly: ids sent together that the SDK reads as one
// integer (1, 1.5, 1.9) each get their own response, and every id (1e30,
// strings) comes back exactly as sent.
func TestMCPIDsEchoedExactly(t *testing.T) {
	t.Parallel()
	send, _, raw := rawMCP(t)
	ids := []string{`1`, `1.5`, `1.9`, `1e30`, `"1"`, `"a b"`, `-7`}
	for _, id := range ids {
		send(`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"TodoRead","arguments":{}}}`)
	}
	send(`{"jsonrpc":"2.0","id":"last","method":"ping"}`)
	// The server answers calls concurrently: the ping may come back before
	// some calls. Take every answer, then leave the ping's out.
	var got []string
	for range len(ids) + 1 {
		var m struct{ ID json.RawMessage }
		json.Unmarshal([]byte(raw()), &m)
		if string(m.ID) != `"last"` {
			got = append(got, string(m.ID))
		}
	}
	slices.Sort(got)
	want := slices.Clone(ids)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("ids back %q, want %q", got, want)
	}
}

// TestMCPDeepRequestIsRejectedAndServingGoesOn: a request nested 5000 deep
// gets a JSON-RPC error with its id; the session goes on.
func TestMCPDeepRequestIsRejectedAndServingGoesOn(t *testing.T) {
	t.Parallel()
	send, next, _ := rawMCP(t)
	send(`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"TodoRead","arguments":{"x":` +
		strings.Repeat("[", 5000) + strings.Repeat("]", 5000) + `}}}`)
	m := next()
	if e, _ := m["error"].(map[string]any); e == nil || e["code"] != -32600.0 || m["id"] != 5.0 {
		t.Fatalf("deep request: %v", m)
	}
	send(`{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"TodoRead","arguments":{}}}`)
	if m := next(); m["id"] != 6.0 || m["result"] == nil {
		t.Fatalf("the session did not go on: %v", m)
	}
}

// TestMCPFaultClientNeverReads: a client that sends calls and never reads
// its answers (until the server stops reading, 10 s at most): the server stops reading after a bounded number of
// calls, its peak memory under 200 MiB, instead of queueing answers without
// end (1.7 GB after 165 k calls).
func TestMCPFaultClientNeverReads(t *testing.T) {
	t.Parallel()
	inR, inW, _ := os.Pipe()
	outR, outW, _ := os.Pipe()
	cmd := exec.Command(binary, "mcp", "--offload-dir", t.TempDir())
	cmd.Stdin, cmd.Stdout = inR, outW
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	inR.Close()
	outW.Close()
	defer func() { inW.Close(); outR.Close(); cmd.Wait() }()
	call := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"TodoRead","arguments":{}}}` + "\n")
	var batch []byte
	batch = append(batch, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`+"\n"...)
	batch = append(batch, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n"...)
	for len(batch) < 1<<20 {
		batch = append(batch, call...)
	}
	// The answers to a few thousand calls fill the pipes and buffers on
	// the way; a server without backpressure goes on taking calls (and
	// memory) for as long as the client sends them.
	// The test ends when the server has stopped reading: two writes in a
	// row that a second each could not finish, nothing of the second
	// taken, or 10 s at most.
	const most = 10_000
	sent, stalled := 0, 0
	for deadline := time.Now().Add(10 * time.Second); sent < most && stalled < 2 && time.Now().Before(deadline); {
		inW.SetWriteDeadline(time.Now().Add(time.Second))
		n, err := inW.Write(batch)
		sent += n / len(call)
		switch {
		case err == nil:
			stalled = 0
		case !errors.Is(err, os.ErrDeadlineExceeded):
			t.Fatal(err)
		case stalled == 0 || n == 0:
			stalled++
		}
	}
	peak := peakRSS(t, cmd.Process.Pid)
	t.Logf("the server took about %d calls whose answers were never read; its peak RSS %d MiB", sent, peak>>20)
	if sent >= most || peak > 200<<20 {
		t.Fatalf("the server took %d calls without their answers being read, peak RSS %d MiB", sent, peak>>20)
	}
}

// peakRSS is the process's peak resident set (VmHWM) in bytes.
func peakRSS(t *testing.T, pid int) int64 {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			var kb int64
			fmt.Sscan(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), &kb)
			return kb << 10
		}
	}
	t.Fatal("no VmHWM")
	return 0
}

// TestMCPListenAcknowledgedByTheClientsID: a client of the 2026-07-28
// protocol (Claude Code 2.1 among them) opens subscriptions/listen and
// waits for the acknowledgement that names its request by the id it sent.
// Before, the acknowledgement named the id the server's input guard gave
// the request, and Claude Code waited 27 s for its own, then went on.
func TestMCPListenAcknowledgedByTheClientsID(t *testing.T) {
	t.Parallel()
	stdin, lines := startMCP(t)
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"raw","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}`
	fmt.Fprintf(stdin, `{"jsonrpc":"2.0","id":"probe","method":"server/discover","params":{%s}}`+"\n", meta)
	fmt.Fprintf(stdin, `{"jsonrpc":"2.0","id":"listen:0","method":"subscriptions/listen","params":{%s,"notifications":{"toolsListChanged":true}}}`+"\n", meta)
	for lines.Scan() {
		var m struct {
			Method string
			Params struct {
				Meta map[string]json.RawMessage `json:"_meta"`
			}
		}
		if err := json.Unmarshal(lines.Bytes(), &m); err != nil {
			t.Fatalf("%q: %v", lines.Text(), err)
		}
		if m.Method != "notifications/subscriptions/acknowledged" {
			continue
		}
		if got := string(m.Params.Meta["io.modelcontextprotocol/subscriptionId"]); got != `"listen:0"` {
			t.Fatalf("acknowledged as %s, want \"listen:0\": %s", got, lines.Text())
		}
		return
	}
	t.Fatalf("no acknowledgement (%v)", lines.Err())
}
