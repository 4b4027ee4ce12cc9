package repl

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/todo-shell/todo-shell/tools/todo"
)

func TestScreenDraws(t *testing.T) {
	var out bytes.Buffer
	s := NewScreen(&out)
	s.SetSize(11, 24)
	s.SetView("panel\nprompt ❯   ")
	s.draw()
	if got := out.String(); got != "\r"+ansi.EraseEntireLine+ansi.ResetModeAutoWrap+"panel\r\nprompt ❯"+ansi.SetModeAutoWrap {
		t.Fatalf("first draw %q", got)
	}
	out.Reset()
	s.draw() // nothing new: nothing written
	if out.Len() != 0 {
		t.Fatalf("redrew an unchanged view: %q", out.String())
	}
	s.Print("printed line\nsecond")
	s.SetView("prompt ❯ this line is far too long")
	s.draw()
	el := ansi.EraseEntireLine
	want := "\r" + ansi.CursorUp(1) + el + ansi.CUD1 + el + ansi.CursorUp(1) + "printed line\r\nsecond\r\n" + ansi.ResetModeAutoWrap + "prompt ❯ t" + ansi.SetModeAutoWrap
	if got := out.String(); got != want {
		t.Fatalf("second draw\n got %q\nwant %q", got, want)
	}
	out.Reset()
	s.Clear()
	s.draw()
	if !strings.Contains(out.String(), ansi.EraseEntireScreen) {
		t.Fatalf("clear: %q", out.String())
	}
}

// TestScreenKeepsToTheHeight: the live area is never taller than the
// terminal minus two rows; the bottom (the prompt) is what stays.
func TestScreenKeepsToTheHeight(t *testing.T) {
	var out bytes.Buffer
	s := NewScreen(&out)
	s.SetSize(80, 6)
	s.SetView("1\n2\n3\n4\n5\n6\n7\nprompt")
	s.draw()
	if got := out.String(); !strings.HasSuffix(ansi.Strip(got), "5\r\n6\r\n7\r\nprompt") || strings.Contains(got, "4") {
		t.Fatalf("%q", got)
	}
	out.Reset()
	s.SetView("prompt")
	s.draw()
	el := ansi.EraseEntireLine
	want := "\r" + ansi.CursorUp(3) + strings.Repeat(el+ansi.CUD1, 3) + el + ansi.CursorUp(3) + ansi.ResetModeAutoWrap + "prompt" + ansi.SetModeAutoWrap
	if got := out.String(); got != want {
		t.Fatalf("shorter view:\n got %q\nwant %q", got, want)
	}
}

// TestScreenNeverLeavesAutoWrapOff: every write that turns auto-wrap off
// turns it back on after.
func TestScreenNeverLeavesAutoWrapOff(t *testing.T) {
	var out bytes.Buffer
	s := NewScreen(&out)
	s.SetSize(20, 10)
	for _, v := range []string{"a", "ok 👍🏽\nक्षि", strings.Repeat("x", 50), ""} {
		out.Reset()
		s.Print("line")
		s.SetView(v)
		s.draw()
		got := out.String()
		off, on := strings.LastIndex(got, ansi.ResetModeAutoWrap), strings.LastIndex(got, ansi.SetModeAutoWrap)
		if off < 0 || on < off || !strings.HasSuffix(got, ansi.SetModeAutoWrap) {
			t.Fatalf("view %q: %q", v, got)
		}
	}
}

func TestScreenRunAndStop(t *testing.T) {
	var out safeBuffer
	s := NewScreen(&out)
	s.Start()
	s.SetView("one")
	time.Sleep(50 * time.Millisecond)
	s.Print("done")
	s.SetView("")
	s.Stop()
	if got := out.String(); !strings.Contains(got, "one") || !strings.Contains(got, "done\r\n") {
		t.Fatalf("%q", got)
	}
}

type safeBuffer struct{ transcript }

func (b *safeBuffer) String() string { return b.transcript.String() }

// BenchmarkRedrawCollapsedPanel is one keystroke's redraw with 50 todos in
// a 100×20 terminal: the model assembles the live area (the panel collapsed
// to fit) and the Screen writes it.
func BenchmarkRedrawCollapsedPanel(b *testing.B) {
	cfg, _ := testConfig(b)
	var items []todo.Item
	for i := 0; i < 50; i++ {
		st := todo.StatusPending
		switch {
		case i < 12:
			st = todo.StatusCompleted
		case i == 12:
			st = todo.StatusInProgress
		}
		items = append(items, todo.Item{Content: fmt.Sprintf("Task %d: do the thing that needs doing", i), ActiveForm: fmt.Sprintf("Doing task %d", i), Status: st})
	}
	cfg.Store.Replace(items)
	m := New(cfg)
	next, _ := m.Update(tea.WindowSizeMsg{Width: 100, Height: 20})
	m = next.(Model)
	scr := NewScreen(io.Discard)
	scr.SetSize(100, 20)
	keys := []tea.KeyMsg{{Type: tea.KeyRunes, Runes: []rune("a")}, {Type: tea.KeyBackspace}}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		next, _ := m.update(keys[i%2])
		m = next.(Model)
		i++
		v := m.draw()
		scr.SetView(v)
		scr.draw()
	}
	if v := m.draw(); strings.Count(v, "\n")+1 > 18 || !strings.Contains(v, "Tasks 12/50") {
		b.Fatalf("live area:\n%s", v)
	}
}
