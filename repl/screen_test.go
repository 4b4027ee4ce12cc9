package repl

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
)

func TestScreenDraws(t *testing.T) {
	var out bytes.Buffer
	s := NewScreen(&out)
	s.SetWidth(10)
	s.SetView("panel\nprompt ❯   ")
	s.draw()
	if got := out.String(); got != "\r"+ansi.EraseScreenBelow+"panel\r\nprompt ❯" {
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
	want := "\r" + ansi.CursorUp(1) + ansi.EraseScreenBelow + "printed line\r\nsecond\r\n" + "prompt ❯ t"
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

func TestScreenShrinkCountsRewrappedRows(t *testing.T) {
	var out bytes.Buffer
	s := NewScreen(&out)
	s.SetWidth(20)
	s.SetView(strings.Repeat("x", 20) + "\n" + strings.Repeat("y", 20))
	s.draw()
	out.Reset()
	s.SetWidth(10) // each 20-cell line now takes two rows
	s.SetView("z")
	s.draw()
	if got := out.String(); !strings.HasPrefix(got, "\r"+ansi.CursorUp(3)) {
		t.Fatalf("after shrinking: %q", got)
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
