package repl

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// TestKeysTypedWhileAttachingAreTheProgramsOrKept: keys that arrive after
// Enter on a /tty line and before its program has the terminal are kept for
// the program, not typed into the shell's input; what the program could not
// be given comes back into the input, not run, and the shell says so.
func TestKeysTypedWhileAttachingAreTheProgramsOrKept(t *testing.T) {
	cfg, _ := testConfig(t)
	tr := &transcript{}
	cfg.Transcript = tr
	var m tea.Model = New(cfg)
	send := func(msg tea.Msg) { m, _ = m.Update(msg) }
	for _, r := range "/tty cat" {
		send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
	send(tea.KeyMsg{Type: tea.KeyEnter})
	h := m.(Model).running.attaching()
	if h == nil {
		t.Fatal("/tty cat is not being attached")
	}
	send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("typed-early")})
	send(tea.KeyMsg{Type: tea.KeyEnter})
	send(tea.KeyMsg{Type: tea.KeyUp})
	if got := m.(Model).input.Value(); got != "" {
		t.Fatalf("the shell's input took %q", got)
	}
	if got, want := string(h.early), "typed-early\r\x1b[A"; got != want {
		t.Fatalf("kept for the program %q, want %q", got, want)
	}
	// The program could not be given them (no TIOCSTI): back in the input.
	send(handoverDoneMsg{id: m.(Model).running.id, cmd: h.cmd, line: "cat", kept: h.early})
	if got := m.(Model).input.Value(); got != "typed-early" {
		t.Fatalf("input %q after the program, want the kept text", got)
	}
	if !strings.Contains(tr.String(), "is in the input, not run") {
		t.Fatalf("nothing said:\n%s", tr.String())
	}
}

func TestKeyBytesAndKeptText(t *testing.T) {
	for _, tc := range []struct {
		msg  tea.KeyMsg
		want string
	}{
		{tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("héllo")}, "héllo"},
		{tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("b"), Alt: true}, "\x1bb"},
		{tea.KeyMsg{Type: tea.KeySpace}, " "},
		{tea.KeyMsg{Type: tea.KeyEnter}, "\r"},
		{tea.KeyMsg{Type: tea.KeyCtrlD}, "\x04"},
		{tea.KeyMsg{Type: tea.KeyBackspace}, "\x7f"},
		{tea.KeyMsg{Type: tea.KeyLeft}, "\x1b[D"},
		{tea.KeyMsg{Type: tea.KeyF5}, ""},
	} {
		if got := string(keyBytes(tc.msg)); got != tc.want {
			t.Errorf("keyBytes(%v) = %q, want %q", tc.msg, got, tc.want)
		}
	}
	for in, want := range map[string]string{
		"ls\r":               "ls",
		"a\rb\r":             "a\nb",
		"x\x1b[Ay\x04\x7fz":  "xyz",
		"\x1b]52;c;aGk=\x07": "",
	} {
		if got := keptText([]byte(in)); got != want {
			t.Errorf("keptText(%q) = %q, want %q", in, got, want)
		}
	}
	if got := string(withoutSignalKeys([]byte("a\x03b\x1ac\x1cd\x04"))); got != "abcd\x04" {
		t.Errorf("withoutSignalKeys: %q", got)
	}
}
