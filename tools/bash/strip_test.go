package bash

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/todo-shell/todo-shell/tools"
)

// TestStripWriter: escape sequences go, whatever the write boundaries;
// text stays (issue 16.5: what a model gets is plain).
func TestStripWriter(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, want string }{
		{"\x1b[31mRED\x1b[0m plain\n", "RED plain\n"},
		{"\x1b[01;34mdir\x1b[0m\tfile\n", "dir\tfile\n"},
		{"\x1b]0;title\x07after", "after"},
		{"\x1b]52;c;aGk=\x1b\\after", "after"},
		{"\x1b[2J\x1b[Hcleared", "cleared"},
		{"\x1b(Bcharset", "charset"},
		{"\x1b7saved\x1b8", "saved"},
		{"a\rb\n", "a\rb\n"},
		{"日本\x1b[1m語\x1b[m", "日本語"},
	} {
		for split := 0; split <= len(tc.in); split++ {
			var b bytes.Buffer
			w := &StripWriter{W: &b}
			w.Write([]byte(tc.in[:split]))
			w.Write([]byte(tc.in[split:]))
			if b.String() != tc.want {
				t.Errorf("%q split at %d: %q, want %q", tc.in, split, b.String(), tc.want)
			}
		}
	}
}

// TestTerminalColoursForATerminal: a command under WithTerminal writes to
// a terminal (ls --color=auto colours, its width is the one asked for, a
// newline stays a newline), and the Handler's result is plain all the same
// (issue 16.5).
func TestTerminalColoursForATerminal(t *testing.T) {
	t.Parallel()
	r := newRunner(t)
	var live syncBuffer
	ctx := WithTerminal(context.Background(), 77)
	if _, err := r.Run(ctx, `[ -t 1 ] && echo tty; tput cols 2>/dev/null || stty size </dev/stdout; printf '\e[31mRED\e[0m\n'`, 0, &live); err != nil {
		t.Fatal(err)
	}
	got := live.String()
	if !strings.Contains(got, "tty\n") || !strings.Contains(got, "77") || !strings.Contains(got, "\x1b[31mRED") || strings.Contains(got, "\r\n") {
		t.Errorf("under WithTerminal: %q", got)
	}
	var plain syncBuffer
	if _, err := r.Run(context.Background(), `[ -t 1 ] && echo tty; echo done`, 0, &plain); err != nil {
		t.Fatal(err)
	}
	if plain.String() != "done\n" {
		t.Errorf("without: %q", plain.String())
	}
	h := Tool{Runner: r, Timeout: time.Minute}.Call
	res, err := h(tools.WithOutput(ctx, io.Discard), json.RawMessage(`{"command":"printf '\\e[31mRED\\e[0m\\n'; ls --color=always /"}`))
	if err != nil || strings.Contains(res.Content, "\x1b") || !strings.Contains(res.Content, "RED\n") {
		t.Errorf("the result is not plain: %q, %v", res.Content, err)
	}
}
