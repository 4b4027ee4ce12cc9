package cmd

import (
	"bytes"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/creack/pty"
)

// hostile is text a model or a command could print to take over a terminal:
// set the title, write the clipboard (OSC 52), move the cursor, and a C1 CSI.
const hostile = "before \x1b]0;PWNED-TITLE\x07 \x1b]52;c;cm0gLXJmIH4=\x07 \x1b[2J\x1b[H \u009b31m after"

// leaks reports what of hostile's control sequences got through.
func leaks(s string) []string {
	var out []string
	for _, bad := range []string{"\x1b", "\x07", "\u009b", "PWNED-TITLE", "cm0gLXJmIH4="} {
		if strings.Contains(s, bad) {
			out = append(out, bad)
		}
	}
	return out
}

// stream is one standard stream of a test run: a terminal (the slave side
// of a pty, read through its master) or a plain buffer.
type stream struct {
	tty        *os.File
	done       chan struct{}
	buf        bytes.Buffer
	isTerminal bool
}

func newStream(t *testing.T, terminal bool) *stream {
	s := &stream{isTerminal: terminal}
	if !terminal {
		return s
	}
	ptm, tty, err := pty.Open()
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("no pty: %v", err) // CI must run the terminal tests
		}
		t.Skipf("no pty: %v", err)
	}
	s.tty, s.done = tty, make(chan struct{})
	go func() {
		defer close(s.done)
		io.Copy(&s.buf, ptm) // until the slave is closed (EIO)
		ptm.Close()
	}()
	return s
}

func (s *stream) writer() io.Writer {
	if s.tty != nil {
		return s.tty
	}
	return &s.buf
}

// text closes the terminal and returns what was written, with the
// terminal's CRLF turned back into LF.
func (s *stream) text() string {
	if s.tty != nil {
		s.tty.Close()
		<-s.done
		return strings.ReplaceAll(s.buf.String(), "\r\n", "\n")
	}
	return s.buf.String()
}

// runStreams runs todo-shell with stdout and stderr each a terminal or not.
func runStreams(t *testing.T, env map[string]string, outTTY, errTTY bool, args ...string) result {
	t.Helper()
	dir := t.TempDir()
	wd, _ := os.Getwd()
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	out, errOut := newStream(t, outTTY), newStream(t, errTTY)
	code := mainWithEnv(args, Streams{In: strings.NewReader(""), Out: out.writer(), ErrOut: errOut.writer()}, func(k string) string { return env[k] })
	return result{code, out.text(), errOut.text()}
}

// TestFaultHostileAgentText holds issue 7 item 6: `agent -p` neutralises the
// model's text on a terminal stdout, and leaves it exact when redirected.
func TestFaultHostileAgentText(t *testing.T) {
	for _, tty := range []bool{true, false} {
		srv := fakeMessages(t, sse(hostile, "", ""))
		env := map[string]string{"ANTHROPIC_API_KEY": "k", "ANTHROPIC_BASE_URL": srv.URL}
		r := runStreams(t, env, tty, true, "agent", "-p", "hi", "--session", "h1")
		if r.code != 0 {
			t.Fatalf("%+v", r)
		}
		if tty {
			if l := leaks(r.stdout); l != nil || !strings.Contains(r.stdout, "before") || !strings.Contains(r.stdout, "after") {
				t.Fatalf("terminal stdout leaks %q: %q", l, r.stdout)
			}
		} else if r.stdout != hostile+"\n" {
			t.Fatalf("redirected stdout is not exact: %q", r.stdout)
		}
	}
}

// TestFaultHostileAgentError: an API error that quotes hostile text reaches
// a terminal stderr neutralised even when stdout is not a terminal.
func TestFaultHostileAgentError(t *testing.T) {
	srv := fakeMessages(t, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(400)
		io.WriteString(w, `{"type":"error","error":{"type":"invalid_request_error","message":"bad \u001b]0;PWNED-TITLE\u0007 \u001b]52;c;cm0gLXJmIH4=\u0007 input"}}`)
	})
	env := map[string]string{"ANTHROPIC_API_KEY": "k", "ANTHROPIC_BASE_URL": srv.URL}
	r := runStreams(t, env, false, true, "agent", "-p", "hi", "--session", "h2")
	if r.code != 1 || !strings.Contains(r.stderr, "rejected the request (400): bad") {
		t.Fatalf("%+v", r)
	}
	if l := leaks(r.stderr); l != nil {
		t.Fatalf("terminal stderr leaks %q: %q", l, r.stderr)
	}
}

// TestFaultHostileAgentTrace: --trace lines on a terminal stderr carry no C1
// controls (JSON escapes C0 ones, not U+009B).
func TestFaultHostileAgentTrace(t *testing.T) {
	srv := fakeMessages(t, sse("", "Bash", `{"command":"echo '\u009b31m'"}`), sse("done", "", ""))
	env := map[string]string{"ANTHROPIC_API_KEY": "k", "ANTHROPIC_BASE_URL": srv.URL}
	r := runStreams(t, env, false, true, "agent", "-p", "hi", "--session", "h3", "--trace")
	if r.code != 0 || !strings.Contains(r.stderr, "→ ") {
		t.Fatalf("%+v", r)
	}
	if l := leaks(r.stderr); l != nil {
		t.Fatalf("terminal stderr leaks %q: %q", l, r.stderr)
	}
}

// TestFaultHostileScriptStderr: script mode decides per stream. An error
// message quoting hostile input (a TodoWrite status) on a terminal stderr is
// neutralised while stdout is a pipe; redirected, stderr stays exact while a
// terminal stdout is neutralised.
func TestFaultHostileScriptStderr(t *testing.T) {
	line := `TodoWrite '{"todos":[{"content":"x","status":"\u001b]0;PWNED-TITLE\u0007\u001b]52;c;cm0gLXJmIH4=\u0007","activeForm":"y"}]}'`
	t.Setenv("HOSTILE", hostile)
	r := runStreams(t, nil, false, true, "-c", "printf '%s' \"$HOSTILE\"")
	if r.stdout != hostile+"\n" {
		t.Fatalf("redirected stdout is not exact: %q", r.stdout)
	}
	r = runStreams(t, nil, false, true, "-c", line)
	if l := leaks(r.stderr); r.code != 1 || l != nil || !strings.Contains(r.stderr, "invalid status") {
		t.Fatalf("terminal stderr leaks %q: %+v", l, r)
	}
	r = runStreams(t, nil, true, false, "-c", "printf '%s' \"$HOSTILE\"")
	if l := leaks(r.stdout); r.code != 0 || l != nil || !strings.Contains(r.stdout, "after") {
		t.Fatalf("terminal stdout leaks %q: %+v", l, r)
	}
	r = runStreams(t, nil, true, false, "-c", line)
	if !strings.Contains(r.stderr, "\x1b]0;PWNED-TITLE\x07") {
		t.Fatalf("redirected stderr is not exact: %q", r.stderr)
	}
}

// TestFaultHostileErrorMessage: todo-shell's own error messages echo what the
// user gave (here a file name); on a terminal stderr they are neutralised.
func TestFaultHostileErrorMessage(t *testing.T) {
	r := runStreams(t, nil, false, true, "no-such-file"+hostile)
	if l := leaks(r.stderr); r.code != 2 || l != nil || !strings.Contains(r.stderr, "no-such-file") {
		t.Fatalf("terminal stderr leaks %q: %+v", l, r)
	}
}
