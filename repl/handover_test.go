package repl

import (
	"io"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/todo-shell/todo-shell/internal/painter"
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
		send(textKey(string(r)))
	}
	send(tea.KeyPressMsg{Code: tea.KeyEnter})
	h := m.(*Model).running.attaching()
	if h == nil {
		t.Fatal("/tty cat is not being attached")
	}
	send(textKey("typed-early"))
	send(tea.KeyPressMsg{Code: tea.KeyEnter})
	send(tea.KeyPressMsg{Code: tea.KeyUp})
	if got := m.(*Model).input.Value(); got != "" {
		t.Fatalf("the shell's input took %q", got)
	}
	if got, want := string(h.early), "typed-early\r\x1b[A"; got != want {
		t.Fatalf("kept for the program %q, want %q", got, want)
	}
	// The program could not be given them (no TIOCSTI): back in the input.
	send(handoverDoneMsg{id: m.(*Model).running.id, cmd: h.cmd, line: "cat", kept: h.early})
	if got := m.(*Model).input.Value(); got != "typed-early" {
		t.Fatalf("input %q after the program, want the kept text", got)
	}
	if !strings.Contains(tr.String(), "is in the input, not run") {
		t.Fatalf("nothing said:\n%s", tr.String())
	}
}

func TestKeyBytesAndKeptText(t *testing.T) {
	for _, tc := range []struct {
		msg  tea.KeyPressMsg
		want string
	}{
		{textKey("héllo"), "héllo"},
		{tea.KeyPressMsg{Code: 'b', Mod: tea.ModAlt}, "\x1bb"},
		{tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}, " "},
		{tea.KeyPressMsg{Code: tea.KeyEnter}, "\r"},
		{tea.KeyPressMsg{Code: 'd', Mod: tea.ModCtrl}, "\x04"},
		{tea.KeyPressMsg{Code: tea.KeyBackspace}, "\x7f"},
		{tea.KeyPressMsg{Code: tea.KeyLeft}, "\x1b[D"},
		{tea.KeyPressMsg{Code: tea.KeyF5}, ""},
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

// orderTerminal is a typeaheadTerminal that records the calls made on it,
// in order, and holds queued keys.
type orderTerminal struct {
	queued string // what the input queue holds, read by Pending
	late   string // what reaches it after the first Pending (before Release)
	calls  []string
}

func (o *orderTerminal) Release() error { o.calls = append(o.calls, "Release"); return nil }
func (o *orderTerminal) Acquire() error { o.calls = append(o.calls, "Acquire"); return nil }
func (o *orderTerminal) Pending() []byte {
	o.calls = append(o.calls, "Pending")
	b := []byte(o.queued)
	o.queued, o.late = o.late, ""
	return b
}

func (o *orderTerminal) Inject(b []byte) []byte {
	o.calls = append(o.calls, "Inject "+strconv.Quote(string(b)))
	return nil
}

// TestHandoverPutsKeysBackInCookedMode: the keys the shell read and the
// keys still in the terminal's queue (which arrived in raw mode,
// untranslated) are taken while the terminal is raw and put back only once
// it is cooked again, the shell's first — whether or not the shell read any
// (it took the queue only when it had read keys itself: under load the
// command then read "typed-early\r" where a typed line ends in "\n").
func TestHandoverPutsKeysBackInCookedMode(t *testing.T) {
	for _, tc := range []struct {
		name                string
		early, queued, late string
		want                []string
	}{
		{"read by the shell", "typed-early\r", "", "", []string{"Pending", "Release", "Pending", `Inject "typed-early\r"`, "Acquire"}},
		{"still in the queue", "", "typed-early\r", "", []string{"Pending", "Release", "Pending", `Inject "typed-early\r"`, "Acquire"}},
		{"both", "typed-", "early\r", "", []string{"Pending", "Release", "Pending", `Inject "typed-early\r"`, "Acquire"}},
		// Keys that came between the first look and Release (raw, so
		// untranslated) are taken again once cooked, behind the others.
		{"just before Release", "typed-", "ear", "ly\r", []string{"Pending", "Release", "Pending", `Inject "typed-early\r"`, "Acquire"}},
		{"none", "", "", "", []string{"Pending", "Release", "Pending", "Acquire"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			term := &orderTerminal{queued: tc.queued, late: tc.late}
			h := &handover{
				cmd:     exec.Command("true"),
				painter: painter.New(io.Discard, func() (int, int, error) { return 80, 24, nil }),
				term:    term,
				early:   []byte(tc.early),
			}
			if err := h.run(); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(term.calls, tc.want) {
				t.Errorf("calls %q, want %q", term.calls, tc.want)
			}
			if len(h.kept) != 0 {
				t.Errorf("kept %q", h.kept)
			}
		})
	}
}
