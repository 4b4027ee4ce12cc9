package painter

import (
	"bytes"
	"os"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/todo-shell/todo-shell/internal/testwait"
)

func TestSplitAnswers(t *testing.T) {
	tests := []struct {
		name   string
		in     string
		colour string
		rest   string
		done   bool
	}{
		{"both, BEL", "\x1b]11;rgb:0000/0000/0000\x07\x1b[?62;22c", "rgb:0000/0000/0000", "", true},
		{"both, ST", "\x1b]11;rgb:ffff/ffff/ffff\x1b\\\x1b[?1;2c", "rgb:ffff/ffff/ffff", "", true},
		{"DA1 only: no OSC 11", "\x1b[?6c", "", "", true},
		{"keys around the answers", "ab\x1b]11;rgb:1/2/3\x07c\x1b[?62cd", "rgb:1/2/3", "abcd", true},
		{"colour not ended yet", "\x1b]11;rgb:ff", "", "", false},
		{"nothing", "", "", "", false},
		{"other escape kept as typed", "\x1b[A", "", "\x1b[A", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			colour, rest, done := splitAnswers([]byte(tt.in))
			if colour != tt.colour || string(rest) != tt.rest || done != tt.done {
				t.Errorf("splitAnswers(%q) = %q, %q, %v; want %q, %q, %v", tt.in, colour, rest, done, tt.colour, tt.rest, tt.done)
			}
		})
	}
}

func TestDarkColour(t *testing.T) {
	tests := []struct {
		in       string
		dark, ok bool
	}{
		{"rgb:0000/0000/0000", true, true},
		{"rgb:1e1e/1e1e/1e1e", true, true},
		{"rgb:ffff/ffff/ffff", false, true},
		{"rgb:fd/f6/e3", false, true}, // Solarized light, two digits
		{"rgb:0/2/3", true, true},     // one digit each
		{"#002b36", true, true},       // Solarized dark
		{"#ffffff", false, true},
		{"rgb:ffff/ffff", false, false},
		{"rgb:zz/00/00", false, false},
		{"rgb:12345/0/0", false, false},
		{"", false, false},
	}
	for _, tt := range tests {
		dark, ok := darkColour(tt.in)
		if dark != tt.dark || ok != tt.ok {
			t.Errorf("darkColour(%q) = %v, %v; want %v, %v", tt.in, dark, ok, tt.dark, tt.ok)
		}
	}
}

func TestDarkFromEnv(t *testing.T) {
	for in, want := range map[string]bool{"": true, "15;0": true, "0;15": false, "0;default;7": false, "12;8": true, "x": true} {
		if got := DarkFromEnv(func(string) string { return in }); got != want {
			t.Errorf("COLORFGBG=%q: dark %v, want %v", in, got, want)
		}
	}
}

// openPty is a terminal held in raw mode by the painter, and the far end a
// terminal emulator would hold.
func openPty(t *testing.T) (term *Terminal, far *os.File) {
	t.Helper()
	far, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { far.Close(); tty.Close() })
	term, err = Open(tty, tty, Modes{Raw: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = term.Close() })
	return term, far
}

// answer reads what the terminal was asked and answers the background query
// with reply (nothing when reply is empty) and DA1 when da1 is set.
func answer(t *testing.T, far *os.File, reply string, da1 bool) {
	go func() {
		var got []byte
		buf := make([]byte, 64)
		for !bytes.Contains(got, []byte(queryDA1)) {
			n, err := far.Read(buf)
			if err != nil {
				return
			}
			got = append(got, buf[:n]...)
		}
		if reply != "" {
			_, _ = far.WriteString(reply)
		}
		if da1 {
			_, _ = far.WriteString("\x1b[?62;22c")
		}
	}()
}

func TestQueryBackground(t *testing.T) {
	tests := []struct {
		name  string
		reply string
		da1   bool
		want  Background
	}{
		{"light", "\x1b]11;rgb:ffff/ffff/ffff\x1b\\", true, Background{Known: true, Dark: false}},
		{"dark", "\x1b]11;rgb:0000/0000/0000\x07", true, Background{Known: true, Dark: true}},
		{"no OSC 11, DA1 only", "", true, Background{Dark: true}},
		{"silent terminal: dark, after the wait", "", false, Background{Dark: true}},
		{"keys typed during the wait are kept", "ls\x1b]11;rgb:ffff/ffff/ffff\x07\r", true, Background{Known: true, Typeahead: []byte("ls\r")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			term, far := openPty(t)
			answer(t, far, tt.reply, tt.da1)
			// An answer ends the wait at once, so a long wait costs the
			// answering cases nothing and keeps them steady on a busy machine.
			wait := 10 * time.Second
			if !tt.da1 {
				wait = 100 * time.Millisecond
			}
			got := term.QueryBackground(wait)
			if got.Known != tt.want.Known || got.Dark != tt.want.Dark || !bytes.Equal(got.Typeahead, tt.want.Typeahead) {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

// TestQueryBackgroundAsksNothingWithKeysWaiting: keys already typed are read
// before any answer could be, so the shell does not ask; it returns them as
// Typeahead, for the shell to take a LF typed in cooked mode (before raw
// mode, ICRNL) for Enter, not for Ctrl+J (trial finding: `echo early⏎`
// typed before the shell was ready stayed in the input with an empty line).
func TestQueryBackgroundAsksNothingWithKeysWaiting(t *testing.T) {
	term, far := openPty(t)
	if _, err := far.WriteString("echo hi\r"); err != nil {
		t.Fatal(err)
	}
	// The pty delivers the bytes a moment later.
	testwait.For(t, 5*time.Second, "the keys to arrive", func() bool { return pending(int(term.In.Fd())) })
	if got := term.QueryBackground(100 * time.Millisecond); got.Known || !got.Dark || string(got.Typeahead) != "echo hi\r" {
		t.Errorf("got %+v, want dark, unknown, the keys as typeahead", got)
	}
	if pending(int(term.In.Fd())) {
		t.Errorf("keys left unread")
	}
}
