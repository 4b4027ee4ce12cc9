package bash

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/todo-shell/todo-shell/internal/testwait"

	"github.com/todo-shell/todo-shell/tools"
	"github.com/todo-shell/todo-shell/tools/offload"
)

func newRunner(t *testing.T) *Runner {
	t.Helper()
	r, err := NewRunner(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// syncBuffer is a goroutine-safe bytes.Buffer.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func run(t *testing.T, r *Runner, command string, timeout time.Duration) (Outcome, string) {
	t.Helper()
	var out syncBuffer
	o, err := r.Run(context.Background(), command, timeout, &out)
	if err != nil {
		t.Fatal(err)
	}
	return o, out.String()
}

func TestRunOutputAndStatus(t *testing.T) {
	t.Parallel()
	r := newRunner(t)
	tests := []struct {
		name, command, out, trailer string
		code                        int
	}{
		{"stdout", "echo hello", "hello\n", "", 0},
		{"merged in order", "echo one; echo two >&2; echo three", "one\ntwo\nthree\n", "", 0},
		{"exit status", "echo x; exit 3", "x\n", "exit status 3", 3},
		{"false", "false", "", "exit status 1", 1},
		{"stdin is empty", "cat; echo done", "done\n", "", 0},
		{"multi-line", "for i in 1 2\ndo echo $i\ndone", "1\n2\n", "", 0},
		// Past MAX_ARG_STRLEN (128 KiB), the most one argument of exec
		// may hold: the script does not go to bash as an argument.
		{"1 MB heredoc", "cat <<'EOF' | wc -c\n" + strings.Repeat(strings.Repeat("x", 99)+"\n", 10000) + "EOF", "1000000\n", "", 0},
		{"1 MB command", "x='" + strings.Repeat("y", 1<<20) + "'; echo ${#x}", "1048576\n", "", 0},
		{"1 MB, then an error on its last line", "x='" + strings.Repeat("y", 1<<20) + "'\ntrue\nno-such-command-xyz 2>&1 | grep -o 'line 3: no-such-command-xyz'", "line 3: no-such-command-xyz\n", "", 0},
		{"exit before the end of a long script", "exit 4\n" + strings.Repeat("echo never\n", 50000), "", "exit status 4", 4},
		{"the script's descriptor is closed", "if [ -e /dev/fd/3 ]; then echo open; else echo closed; fi; sh -c 'test -e /proc/$$/fd/3 && echo open || echo closed'", "closed\nclosed\n", "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, out := run(t, r, tt.command, 10*time.Second)
			if out != tt.out || o.ExitCode != tt.code || o.Trailer() != tt.trailer {
				t.Fatalf("out %q code %d trailer %q", out, o.ExitCode, o.Trailer())
			}
		})
	}
}

func TestWorkingDirectoryPersists(t *testing.T) {
	t.Parallel()
	r := newRunner(t)
	sub := filepath.Join(r.Dir(), "sub")
	os.Mkdir(sub, 0o755)
	run(t, r, "cd sub", time.Second*10)
	if _, out := run(t, r, "pwd", 10*time.Second); strings.TrimSpace(out) != sub {
		t.Fatalf("pwd %q, want %q", out, sub)
	}
	run(t, r, "cd /tmp && true", 10*time.Second)
	if _, out := run(t, r, "pwd", 10*time.Second); out != "/tmp\n" {
		t.Fatalf("pwd %q", out)
	}
	// A failing command still moves, as in a shell; a bad cd does not.
	run(t, r, "cd /nonexistent", 10*time.Second)
	if r.Dir() != "/tmp" {
		t.Fatalf("dir %q", r.Dir())
	}
}

func TestTimeoutKillsProcessGroup(t *testing.T) {
	t.Parallel()
	r := newRunner(t)
	// A sleep no other test runs, in a subshell of its own: it must die with
	// the command's process group.
	marker := fmt.Sprintf("%d.%03d", 300+os.Getpid()%100, rand.IntN(1000))
	start := time.Now()
	o, _ := run(t, r, "(sleep "+marker+"; true) & sleep 30", 300*time.Millisecond)
	if !o.TimedOut || o.Trailer() != "Command timed out after 300ms" || time.Since(start) > 5*time.Second {
		t.Fatalf("%+v after %v", o, time.Since(start))
	}
	testwait.For(t, 10*time.Second, "the subshell's sleep to be killed", func() bool { return len(processesWithArgs("sleep", marker)) == 0 })
}

func TestInterruptSendsSIGINT(t *testing.T) {
	t.Parallel()
	r := newRunner(t)
	ctx, cancel := context.WithCancel(context.Background())
	var out syncBuffer
	go func() {
		testwait.Until(10*time.Second, func() bool { return strings.Contains(out.String(), "ready") })
		cancel()
	}()
	start := time.Now()
	o, err := r.Run(ctx, "trap 'echo got INT; exit 130' INT; echo ready; sleep 30 & wait", time.Minute, &out)
	if err != nil {
		t.Fatal(err)
	}
	if !o.Interrupted || o.Trailer() != "Command interrupted" || !strings.Contains(out.String(), "got INT") {
		t.Fatalf("%+v %q", o, out.String())
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Fatalf("interrupt took %v", d)
	}
}

func TestInterruptEscalatesToSIGKILL(t *testing.T) {
	t.Parallel()
	r := newRunner(t)
	ctx, cancel := context.WithCancel(context.Background())
	var out syncBuffer
	go func() {
		testwait.Until(10*time.Second, func() bool { return strings.Contains(out.String(), "ready") })
		cancel()
	}()
	start := time.Now()
	o, _ := r.Run(ctx, "trap '' INT; echo ready; while :; do sleep 0.1; done", time.Minute, &out)
	d := time.Since(start)
	if !o.Interrupted || d < InterruptGrace || d > InterruptGrace+3*time.Second {
		t.Fatalf("%+v after %v", o, d)
	}
}

func TestBackgroundProcessDoesNotHang(t *testing.T) {
	t.Parallel()
	r := newRunner(t)
	start := time.Now()
	o, out := run(t, r, "sleep 5 & echo started", 10*time.Second)
	if o.ExitCode != 0 || out != "started\n" || time.Since(start) > 2*time.Second {
		t.Fatalf("%+v %q after %v", o, out, time.Since(start))
	}
}

func TestHandler(t *testing.T) {
	t.Parallel()
	r := newRunner(t)
	dir := t.TempDir()
	reg := tools.NewRegistry()
	off := offload.Config{Dir: dir, Session: "s", Threshold: 1000}
	reg.Register(Definition(), Tool{Runner: r, Timeout: time.Minute, Offload: off}.Call)
	ex := tools.NewExecutor(reg, offload.Policy{Config: off})
	ctx := context.Background()

	res := ex.Execute(ctx, "toolu_a", Name, json.RawMessage(`{"command":"echo hi; exit 2"}`))
	if !res.IsError || res.Content != "hi\nexit status 2\n" || res.Meta.(Outcome).ExitCode != 2 {
		t.Fatalf("%+v", res)
	}
	var live syncBuffer
	res = ex.Execute(tools.WithOutput(ctx, &live), "toolu_b", Name, json.RawMessage(`{"command":"seq 1 1000"}`))
	if res.IsError || res.Offloaded == nil || res.Content != offload.Pointer(filepath.Join(dir, "s", "toolu_b.md")) {
		t.Fatalf("%+v", res)
	}
	if res.Offloaded.Lines != 1000 || !strings.HasPrefix(res.Offloaded.Preview, "1\n2\n") || !strings.HasSuffix(live.String(), "999\n1000\n") {
		t.Fatalf("%+v", res.Offloaded)
	}
	res = reg.Execute(ctx, "toolu_c", Name, json.RawMessage(`{"command":"sleep 5","timeout_ms":100}`))
	if !res.IsError || res.Content != "Command timed out after 100ms\n" {
		t.Fatalf("%+v", res)
	}
	for in, want := range map[string]string{
		`{}`:                             "'command' is required and cannot be empty",
		`{"command":""}`:                 "'command' is required and cannot be empty",
		`{"command":"x","timeout_ms":0}`: "'timeout_ms' must be a whole number of milliseconds from 1 to 600000",
		`{"command":"x","other":1}`:      `invalid Bash input: json: unknown field "other"`,
		`{"command":5}`:                  "invalid Bash input",
	} {
		res := reg.Execute(ctx, "toolu_d", Name, json.RawMessage(in))
		if !res.IsError || !strings.HasPrefix(res.Content, want) {
			t.Errorf("%s: %+v", in, res)
		}
	}
}

func TestHumanDuration(t *testing.T) {
	t.Parallel()
	for d, want := range map[time.Duration]string{
		2 * time.Minute: "2m", 90 * time.Second: "90s", 1500 * time.Millisecond: "1.5s", 300 * time.Millisecond: "300ms",
	} {
		if got := HumanDuration(d); got != want {
			t.Errorf("%v: %q", d, got)
		}
	}
}

func TestKill(t *testing.T) {
	t.Parallel()
	r := newRunner(t)
	done := make(chan Outcome)
	go func() {
		o, _ := r.Run(context.Background(), "sleep 30", time.Minute, io.Discard)
		done <- o
	}()
	testwait.For(t, 10*time.Second, "the command to start", func() bool { return r.pgid.Load() != 0 })
	r.Kill()
	select {
	case o := <-done:
		if o.ExitCode != 128+9 {
			t.Fatalf("%+v", o)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Kill did not end the command")
	}
	r.Kill() // idle: nothing happens
}

func TestTimeoutMSRange(t *testing.T) {
	t.Parallel()
	tests := []struct {
		value string
		ok    bool
	}{
		{"1", true}, {"600000", true}, {"0", false}, {"-5", false}, {"600001", false},
		{"18446744073710", false}, {"9223372036855", false}, {"99999999999999999999999", false},
		{"1.5", false}, {`"5"`, false},
	}
	for _, tc := range tests {
		in, err := ParseInput(json.RawMessage(`{"command":"true","timeout_ms":` + tc.value + `}`))
		if (err == nil) != tc.ok {
			t.Errorf("timeout_ms %s: err = %v, want ok=%v", tc.value, err, tc.ok)
		}
		if !tc.ok && err != nil && !strings.Contains(err.Error(), "timeout_ms") {
			t.Errorf("timeout_ms %s: message %q does not name the field", tc.value, err)
		}
		if tc.ok && in.Timeout(time.Hour) > 10*time.Minute {
			t.Errorf("timeout_ms %s: timeout %v", tc.value, in.Timeout(time.Hour))
		}
	}
	var def struct {
		InputSchema struct {
			Properties struct {
				TimeoutMS struct {
					Maximum int `json:"maximum"`
				} `json:"timeout_ms"`
			} `json:"properties"`
		} `json:"input_schema"`
	}
	b, _ := json.Marshal(Definition())
	json.Unmarshal(b, &def)
	if def.InputSchema.Properties.TimeoutMS.Maximum != MaxTimeoutMS {
		t.Errorf("schema maximum %d, want %d", def.InputSchema.Properties.TimeoutMS.Maximum, MaxTimeoutMS)
	}
}

func TestResultHasCarriageReturnsApplied(t *testing.T) {
	t.Parallel()
	r := newRunner(t)
	h := Tool{Runner: r, Timeout: time.Minute, Offload: offload.Config{Dir: t.TempDir(), Session: "s", Threshold: 1000}}.Call
	res, err := h(tools.WithToolUseID(context.Background(), "toolu_cr"), json.RawMessage(`{"command":"for i in 1 2 3; do printf '\\r%d%%' $i; done; echo; printf 'a\\r\\n'"}`))
	if err != nil {
		t.Fatal(err)
	}
	if res.Content != "3%\na\n" {
		t.Fatalf("content %q, want %q", res.Content, "3%\na\n")
	}
}
