package painter

import (
	"bytes"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
)

func TestPainterDraws(t *testing.T) {
	var out bytes.Buffer
	s := New(&out, nil)
	s.SetSize(11, 24)
	s.SetView("panel\nprompt ❯   ")
	s.Flush()
	if got := out.String(); got != "\r"+ansi.EraseEntireLine+ansi.ResetModeAutoWrap+"panel\r\nprompt ❯"+ansi.SetModeAutoWrap {
		t.Fatalf("first draw %q", got)
	}
	out.Reset()
	s.Flush() // nothing new: nothing written
	if out.Len() != 0 {
		t.Fatalf("redrew an unchanged view: %q", out.String())
	}
	s.Print("printed line\nsecond")
	s.SetView("prompt ❯ this line is far too long")
	s.Flush()
	el := ansi.EraseEntireLine
	want := "\r" + ansi.CursorUp(1) + el + ansi.CUD1 + el + ansi.CursorUp(1) + "printed line\r\nsecond\r\n" + ansi.ResetModeAutoWrap + "prompt ❯ t" + ansi.SetModeAutoWrap
	if got := out.String(); got != want {
		t.Fatalf("second draw\n got %q\nwant %q", got, want)
	}
	out.Reset()
	s.Clear()
	s.Flush()
	if !strings.Contains(out.String(), ansi.EraseEntireScreen) {
		t.Fatalf("clear: %q", out.String())
	}
}

// TestScreenKeepsToTheHeight: the live area is never taller than the
// terminal minus two rows; the bottom (the prompt) is what stays.
func TestPainterKeepsToTheHeight(t *testing.T) {
	var out bytes.Buffer
	s := New(&out, nil)
	s.SetSize(80, 6)
	s.SetView("1\n2\n3\n4\n5\n6\n7\nprompt")
	s.Flush()
	if got := out.String(); !strings.HasSuffix(ansi.Strip(got), "5\r\n6\r\n7\r\nprompt") || strings.Contains(got, "4") {
		t.Fatalf("%q", got)
	}
	out.Reset()
	s.SetView("prompt")
	s.Flush()
	el := ansi.EraseEntireLine
	want := "\r" + ansi.CursorUp(3) + strings.Repeat(el+ansi.CUD1, 3) + el + ansi.CursorUp(3) + ansi.ResetModeAutoWrap + "prompt" + ansi.SetModeAutoWrap
	if got := out.String(); got != want {
		t.Fatalf("shorter view:\n got %q\nwant %q", got, want)
	}
}

// TestScreenNeverLeavesAutoWrapOff: every write that turns auto-wrap off
// turns it back on after.
func TestPainterNeverLeavesAutoWrapOff(t *testing.T) {
	var out bytes.Buffer
	s := New(&out, nil)
	s.SetSize(20, 10)
	for _, v := range []string{"a", "ok 👍🏽\nक्षि", strings.Repeat("x", 50), ""} {
		out.Reset()
		s.Print("line")
		s.SetView(v)
		s.Flush()
		got := out.String()
		off, on := strings.LastIndex(got, ansi.ResetModeAutoWrap), strings.LastIndex(got, ansi.SetModeAutoWrap)
		if off < 0 || on < off || !strings.HasSuffix(got, ansi.SetModeAutoWrap) {
			t.Fatalf("view %q: %q", v, got)
		}
	}
}

func TestPainterRunAndStop(t *testing.T) {
	var out safeBuffer
	s := New(&out, nil)
	s.SetSize(80, 24)
	s.Start()
	s.SetView("one")
	waitUntil(t, func() bool { return strings.Contains(out.String(), "one") })
	s.Print("done")
	s.SetView("")
	s.Stop()
	if got := out.String(); !strings.Contains(got, "one") || !strings.Contains(got, "done\r\n") {
		t.Fatalf("%q", got)
	}
}

type safeBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (b *safeBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *safeBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// waitUntil polls ok for up to 10 s.
func waitUntil(t *testing.T, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatal("waited 10 s")
		}
		time.Sleep(2 * time.Millisecond) // polling the output, not waiting blind
	}
}

// TestPainterDrawsNothingBeforeTheSize: a view or printed lines recorded
// before the terminal's size is known are drawn only once it is (issue 15,
// item 14); stopping unsized still prints the lines.
func TestPainterDrawsNothingBeforeTheSize(t *testing.T) {
	var out bytes.Buffer
	s := New(&out, nil)
	s.SetView(strings.Repeat("a wide line of the panel\n", 50) + "prompt")
	s.Print("printed")
	s.Flush()
	if out.Len() != 0 {
		t.Fatalf("drew before the size: %q", out.String())
	}
	s.SetSize(40, 24)
	s.Flush()
	if got := ansi.Strip(out.String()); !strings.HasPrefix(got, "\rprinted\r\n") || strings.Count(got, "a wide") != 21 {
		t.Fatalf("after the size: %q", got)
	}
	var out2 safeBuffer
	u := New(&out2, nil)
	u.Start()
	u.Print("bye")
	u.SetView("prompt")
	u.Stop()
	if got := out2.String(); !strings.Contains(got, "bye\r\n") || strings.Contains(got, "prompt") {
		t.Fatalf("stopped unsized: %q", got)
	}
}

// TestPainterErasesAtTheTerminalsWidthNow: after the terminal got narrower
// but before the view was made for the new size, a draw erases every row
// the terminal rewrapped the old live area into (issue 16, item 12).
func TestPainterErasesAtTheTerminalsWidthNow(t *testing.T) {
	var out bytes.Buffer
	width := 100
	s := New(&out, func() (int, int, error) { return width, 30, nil })
	s.SetSize(100, 30)
	wide := strings.Repeat("x", 90)
	s.SetView(wide + "\n" + wide + "\nprompt")
	s.Flush()
	width = 60 // resized; SetSize has not come yet
	out.Reset()
	s.SetView(wide + "\n" + wide + "\nprompt 1")
	s.Flush()
	el := ansi.EraseEntireLine
	if got := out.String(); !strings.HasPrefix(got, "\r"+ansi.CursorUp(4)+strings.Repeat(el+ansi.CUD1, 4)+el) {
		t.Fatalf("erased %q, want the 5 rows the terminal shows", got)
	}
	if got := ansi.Strip(out.String()); strings.Contains(got, strings.Repeat("x", 60)) {
		t.Fatalf("drew wider than the terminal: %q", got)
	}
}

// TestPainterAfterHandoverErasesNothingOfTheProgram: the live area was
// erased when the terminal was handed over, so a resize while the other
// program ran (python3, vim) must not make the next draw climb over the
// program's output as if the old, wider live area were still there.
func TestPainterAfterHandoverErasesNothingOfTheProgram(t *testing.T) {
	var out bytes.Buffer
	width := 80
	s := New(&out, func() (int, int, error) { return width, 24, nil })
	s.SetSize(80, 24)
	wide := strings.Repeat("x", 70)
	s.SetView(wide + "\n" + wide + "\n" + wide + "\nprompt")
	s.Flush()
	s.Suspend()
	out.Reset()
	width = 60 // resized while the program had the terminal
	s.Resume()
	s.SetSize(60, 20)
	s.SetView(wide + "\nprompt")
	s.Flush()
	if got := out.String(); regexp.MustCompile(`\x1b\[\d*A`).MatchString(got) {
		t.Fatalf("climbed over the program's output: %q", got)
	}
}
