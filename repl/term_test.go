package repl

import (
	"bytes"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/todo-shell/todo-shell/internal/painter"
)

// testTerm runs the shell as production does — Bubble Tea without its
// renderer, drawing through a painter — with a buffer for the terminal.
type testTerm struct {
	tb      testing.TB
	p       *tea.Program
	out     *termBuffer
	painter *painter.Painter
	done    chan struct{}
	final   tea.Model
	err     error
}

// termBuffer is the terminal: a goroutine-safe buffer of everything
// written to it, read once (as an io.Reader) and kept whole (all).
type termBuffer struct {
	mu   sync.Mutex
	all  bytes.Buffer
	read int
}

func (b *termBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.all.Write(p)
}

// Read returns what was written since the last Read.
func (b *termBuffer) Read(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.read >= b.all.Len() {
		return 0, io.EOF
	}
	n := copy(p, b.all.Bytes()[b.read:])
	b.read += n
	return n, nil
}

func (b *termBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.all.String()
}

// runShell starts the shell of cfg in a w×h terminal.
func runShell(tb testing.TB, cfg Config, w, h int) *testTerm {
	tb.Helper()
	out := &termBuffer{}
	pnt := painter.New(out, nil)
	cfg.Painter = pnt
	m := New(cfg)
	tt := &testTerm{tb: tb, out: out, painter: pnt, done: make(chan struct{})}
	// Keys come as messages (Send, Type); the input is empty, so that a
	// program handed the terminal reads end of file, as under teatest.
	tt.p = tea.NewProgram(NewPainted(m), tea.WithInput(strings.NewReader("")), tea.WithOutput(out), tea.WithoutRenderer(),
		tea.WithoutSignals(), tea.WithWindowSize(w, h), tea.WithFPS(1))
	pnt.Start()
	go func() {
		tt.final, tt.err = tt.p.Run()
		pnt.Stop()
		close(tt.done)
	}()
	tb.Cleanup(func() {
		tt.p.Quit()
		<-tt.done
	})
	return tt
}

// Send sends a message to the model.
func (tt *testTerm) Send(msg tea.Msg) { tt.p.Send(msg) }

// Type types text, one key per rune.
func (tt *testTerm) Type(s string) {
	for _, r := range s {
		tt.p.Send(textKey(string(r)))
	}
}

// Output is what the painter wrote since the last read of it.
func (tt *testTerm) Output() io.Reader { return tt.out }

// Quit ends the program.
func (tt *testTerm) Quit() error {
	tt.p.Quit()
	return nil
}

// WaitFinished waits for the program to end.
func (tt *testTerm) WaitFinished(tb testing.TB) {
	tb.Helper()
	select {
	case <-tt.done:
	case <-time.After(10 * time.Second):
		tb.Fatal("the shell did not end within 10 s")
	}
}

// FinalModel waits for the program to end and returns its model.
func (tt *testTerm) FinalModel(tb testing.TB) *Model {
	tb.Helper()
	tt.WaitFinished(tb)
	if tt.err != nil {
		tb.Fatal(tt.err)
	}
	return tt.final.(*Painted).Model()
}

// textKey is text typed in one key press (a character, or several arriving
// as one: the shell takes a key's text whole).
func textKey(s string) tea.KeyPressMsg {
	r := []rune(s)
	if len(r) == 0 {
		return tea.KeyPressMsg{}
	}
	return tea.KeyPressMsg{Code: r[0], Text: s}
}

// ctrlKey is Ctrl and the letter c.
func ctrlKey(c rune) tea.KeyPressMsg { return tea.KeyPressMsg{Code: c, Mod: tea.ModCtrl} }
