package painter

import (
	"bytes"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/todo-shell/todo-shell/internal/testwait"
)

func TestPainterDraws(t *testing.T) {
	var out bytes.Buffer
	s := New(&out, nil)
	s.SetSize(11, 24)
	s.SetView("panel\nprompt ❯   ", nil)
	s.Flush()
	// Drawn from the cursor's row down, the cursor parked back on the
	// first row of the live area.
	if got := out.String(); got != eraseBelow+liveArea(0, "panel", "prompt ❯") {
		t.Fatalf("first draw %q", got)
	}
	out.Reset()
	s.Flush() // nothing new: nothing written
	if out.Len() != 0 {
		t.Fatalf("redrew an unchanged view: %q", out.String())
	}
	s.Print("printed line\nsecond")
	s.SetView("prompt ❯ this line is far too long", nil)
	s.Flush()
	want := eraseBelow + "printed line\r\nsecond\r\n" + liveArea(0, "prompt ❯ t")
	if got := out.String(); got != want {
		t.Fatalf("second draw\n got %q\nwant %q", got, want)
	}
	out.Reset()
	s.Clear()
	s.Flush()
	if !strings.HasPrefix(out.String(), ansi.EraseEntireScreen) {
		t.Fatalf("clear: %q", out.String())
	}
}

// liveArea is how the painter draws lines under pad blank rows, the cursor
// on the first row: down over the rows, then the lines from the last up,
// then up over the blank rows.
func liveArea(pad int, lines ...string) string {
	s := strings.Repeat("\r\n", pad+len(lines)-1) + ansi.ResetModeAutoWrap
	for i := len(lines) - 1; i >= 0; i-- {
		s += lines[i] + "\r"
		if i > 0 {
			s += ansi.CUU1
		}
	}
	if pad > 0 {
		s += ansi.CursorUp(pad)
	}
	return s + ansi.SetModeAutoWrap
}

// TestPainterKeepsToTheHeight: the live area is never taller than the
// terminal minus two rows; the bottom (the prompt) is what stays.
func TestPainterKeepsToTheHeight(t *testing.T) {
	var out bytes.Buffer
	s := New(&out, nil)
	s.SetSize(80, 6)
	s.SetView("1\n2\n3\n4\n5\n6\n7\nprompt", nil)
	s.Flush()
	if got := out.String(); got != eraseBelow+liveArea(0, "5", "6", "7", "prompt") {
		t.Fatalf("%q", got)
	}
	out.Reset()
	s.SetView("prompt", nil)
	s.Flush()
	want := eraseBelow + liveArea(0, "prompt")
	if got := out.String(); got != want {
		t.Fatalf("shorter view:\n got %q\nwant %q", got, want)
	}
}

// TestPainterWithoutSpareRowsTakesTheHeight: on the alternate screen
// (SetSpare(0)) the view takes every row of the terminal, and no more.
func TestPainterWithoutSpareRowsTakesTheHeight(t *testing.T) {
	var out bytes.Buffer
	s := New(&out, nil)
	s.SetSpare(0)
	s.SetSize(80, 6)
	s.SetView("1\n2\n3\n4\n5\n6\n7\nlast", nil)
	s.Flush()
	if got := out.String(); got != eraseBelow+liveArea(0, "3", "4", "5", "6", "7", "last") {
		t.Fatalf("%q", got)
	}
}

// TestPainterErasesFromTheTopOfTheLiveArea: every draw erases from the
// row the cursor was parked on — the live area's first — down, without
// climbing: after a terminal rewrapped the live area (a narrower window),
// no count of rows is right, and rows left above the erase stay in the
// scrollback for good (issue 16, item 12). It never erases below from
// column 0, which tmux takes for a clear screen in the top row.
func TestPainterErasesFromTheTopOfTheLiveArea(t *testing.T) {
	tests := []struct {
		name  string
		width int // of the terminal at the second draw
	}{
		{"same width", 100},
		{"narrower", 60},
		{"wider", 120},
	}
	cursorUp := regexp.MustCompile(`\x1b\[\d*A`)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			width := 100
			s := New(&out, func() (int, int, error) { return width, 30, nil })
			s.SetSize(100, 30)
			wide := strings.Repeat("x", 90)
			s.SetView(wide+"\n"+wide+"\nprompt", nil)
			s.Flush()
			if got := out.String(); !strings.HasSuffix(got, wide+"\r"+ansi.SetModeAutoWrap) {
				t.Fatalf("not parked at the top: %q", got)
			}
			width = tc.width // resized; SetSize has not come yet
			out.Reset()
			s.Print("printed")
			s.SetView(wide+"\n"+wide+"\nprompt 1", nil)
			s.Flush()
			got := out.String()
			if !strings.HasPrefix(got, eraseBelow+"printed\r\n") {
				t.Fatalf("erased %q, want from the cursor's row down", got)
			}
			if loc := cursorUp.FindStringIndex(got); loc != nil && loc[0] < strings.Index(got, ansi.ResetModeAutoWrap) {
				t.Fatalf("climbed before drawing: %q", got)
			}
			if strings.Contains(ansi.Strip(got), strings.Repeat("x", min(tc.width, 100))) {
				t.Fatalf("drew wider than the terminal: %q", got)
			}
		})
	}
	if strings.HasPrefix(eraseBelow, "\r"+ansi.EraseScreenBelow) || !strings.Contains(eraseBelow, ansi.EraseEntireLine) {
		t.Fatalf("eraseBelow %q erases below from column 0", eraseBelow)
	}
}

// TestPainterKeepsTheRowsANarrowerWindowAdded: a terminal made narrower
// splits the live area's wide rows and pushes its top up; the next draw
// keeps those rows, blank, above the live area, so that it ends where it
// ended and the next narrowing does not push it further up. Printed lines
// and a taller live area take the blank rows first; a shorter live area
// adds none.
func TestPainterKeepsTheRowsANarrowerWindowAdded(t *testing.T) {
	wide := strings.Repeat("x", 90) // 2 rows at 60, 3 at 40
	tests := []struct {
		name    string
		width   int // the terminal's after the resize
		printed []string
		view    string
		pad     int // blank rows drawn above the live area
	}{
		{"the same width", 100, nil, wide + "\nprompt 1", 0},
		{"wider", 120, nil, wide + "\nprompt 1", 0},
		{"narrower", 60, nil, wide + "\nprompt 1", 2},
		{"much narrower", 40, nil, wide + "\nprompt 1", 4},
		{"narrower, printing", 60, []string{"one"}, wide + "\nprompt 1", 1},
		{"narrower, printing a long line", 60, []string{strings.Repeat("y", 70)}, wide + "\nprompt 1", 0},
		{"narrower, a taller view", 60, nil, wide + "\nmore\nmore\nprompt 1", 1},
		{"narrower, a shorter view", 60, nil, "prompt 1", 2},
		{"narrower, in a short window", 40, nil, wide + "\nprompt 1", 3}, // 5 rows: 2 for the view
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			width, rows := 100, 30
			s := New(&out, func() (int, int, error) { return width, rows, nil })
			s.SetSize(100, 30)
			s.SetView(wide+"\n"+wide+"\nprompt", nil)
			s.Flush()
			width = tc.width
			if strings.Contains(tc.name, "short window") {
				rows = 5
			}
			out.Reset()
			for _, l := range tc.printed {
				s.Print(l)
			}
			s.SetView(tc.view, nil)
			s.Flush()
			got := out.String()
			prefix := eraseBelow
			for _, l := range tc.printed {
				prefix += l + "\r\n"
			}
			lines := strings.Split(tc.view, "\n")
			prefix += strings.Repeat("\r\n", tc.pad+len(lines)-1) + ansi.ResetModeAutoWrap
			if !strings.HasPrefix(got, prefix) {
				t.Fatalf("got %q\nwant it to start %q", got, prefix)
			}
			if tc.pad > 0 && !strings.HasSuffix(got, ansi.CursorUp(tc.pad)+ansi.SetModeAutoWrap) {
				t.Fatalf("not parked %d rows above the live area: %q", tc.pad, got)
			}
			// The blank rows stay until something takes them.
			out.Reset()
			s.SetView(tc.view+" 2", nil)
			s.Flush()
			if again := out.String(); !strings.HasPrefix(again, eraseBelow+strings.Repeat("\r\n", tc.pad+len(lines)-1)+ansi.ResetModeAutoWrap) {
				t.Fatalf("next draw %q, want %d blank rows kept", again, tc.pad)
			}
		})
	}
}

// TestPainterDrawsTheLiveAreaUpwards: once it starts drawing lines, a
// frame only climbs: a terminal that takes a resize in the middle of the
// frame rewraps rows already drawn, below the cursor, and the cursor still
// ends on the live area's first row. Every styled line ends reset.
func TestPainterDrawsTheLiveAreaUpwards(t *testing.T) {
	var out bytes.Buffer
	s := New(&out, nil)
	s.SetSize(40, 20)
	s.SetView("\x1b[1mtitle\n"+strings.Repeat("x", 30)+"\nprompt", nil)
	s.Flush()
	got := out.String()
	drawn := got[strings.Index(got, ansi.ResetModeAutoWrap):]
	if strings.Contains(drawn, "\n") || regexp.MustCompile(`\x1b\[\d*[BE]`).MatchString(drawn) {
		t.Fatalf("went down while drawing: %q", drawn)
	}
	if !strings.Contains(drawn, "\x1b[1mtitle"+ansi.ResetStyle) {
		t.Fatalf("a styled line not reset: %q", drawn)
	}
	if i, j := strings.Index(drawn, "prompt"), strings.Index(drawn, "title"); i > j {
		t.Fatalf("drew top down: %q", drawn)
	}
}

// TestPainterPrintsLongLinesWhole: a printed line wider than the terminal
// goes out whole, with auto-wrap on, for the terminal to wrap (and rewrap
// on a resize, and copy as one line).
func TestPainterPrintsLongLinesWhole(t *testing.T) {
	var out bytes.Buffer
	s := New(&out, nil)
	s.SetSize(20, 10)
	long := "/a/long/path/" + strings.Repeat("x", 40) + ".md"
	s.Print(long)
	s.SetView("prompt", nil)
	s.Flush()
	got := out.String()
	i := strings.Index(got, long+"\r\n")
	if i < 0 {
		t.Fatalf("the line is not whole: %q", got)
	}
	if off := strings.Index(got, ansi.ResetModeAutoWrap); off >= 0 && off < i {
		t.Fatalf("printed with auto-wrap off: %q", got)
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
		s.SetView(v, nil)
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
	s.SetView("one", nil)
	testwait.For(t, 10*time.Second, `"one" drawn`, func() bool { return strings.Contains(out.String(), "one") }, out.String)
	s.Print("done")
	s.SetView("", nil)
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

// TestPainterDrawsNothingBeforeTheSize: a view or printed lines recorded
// before the terminal's size is known are drawn only once it is (issue 15,
// item 14); stopping unsized still prints the lines.
func TestPainterDrawsNothingBeforeTheSize(t *testing.T) {
	var out bytes.Buffer
	s := New(&out, nil)
	s.SetView(strings.Repeat("a wide line of the panel\n", 50)+"prompt", nil)
	s.Print("printed")
	s.Flush()
	if out.Len() != 0 {
		t.Fatalf("drew before the size: %q", out.String())
	}
	s.SetSize(40, 24)
	s.Flush()
	if got := ansi.Strip(out.String()); !strings.HasPrefix(got, "\r\rprinted\r\n") || strings.Count(got, "a wide") != 21 {
		t.Fatalf("after the size: %q", got)
	}
	var out2 safeBuffer
	u := New(&out2, nil)
	u.Start()
	u.Print("bye")
	u.SetView("prompt", nil)
	u.Stop()
	if got := out2.String(); !strings.Contains(got, "bye\r\n") || strings.Contains(got, "prompt") {
		t.Fatalf("stopped unsized: %q", got)
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
	s.SetView(wide+"\n"+wide+"\n"+wide+"\nprompt", nil)
	s.Flush()
	s.Suspend()
	out.Reset()
	width = 60 // resized while the program had the terminal
	s.Resume()
	s.SetSize(60, 20)
	s.SetView(wide+"\nprompt", nil)
	s.Flush()
	if got := out.String(); !strings.HasPrefix(got, eraseBelow+"\r\n"+ansi.ResetModeAutoWrap) {
		t.Fatalf("climbed over the program's output, or kept rows for it: %q", got)
	}
}

// TestPainterShowsTheCursorAtTheInsertionPoint: after a frame the
// terminal's own cursor is shown at the view's cursor; the next frame
// climbs back to the live area's first row before it erases, counting the
// rows a narrower terminal split above the cursor (issue 29, item 4).
func TestPainterShowsTheCursorAtTheInsertionPoint(t *testing.T) {
	var out bytes.Buffer
	width := 100
	s := New(&out, func() (int, int, error) { return width, 30, nil })
	s.SetSize(100, 30)
	wide := strings.Repeat("x", 90) // 2 rows at 60 columns
	s.SetView(wide+"\n"+wide+"\nprompt ❯ abc", &Cursor{X: 12, Y: 2})
	s.Flush()
	got := out.String()
	if !strings.HasSuffix(got, ansi.SetModeAutoWrap+ansi.CursorDown(2)+ansi.CursorForward(12)+ansi.ShowCursor) {
		t.Fatalf("the cursor is not shown at the insertion point: %q", got)
	}
	for _, tc := range []struct {
		width int
		climb int
	}{{100, 2}, {60, 4}} { // at 60 the two rows above the cursor take two rows each
		width = tc.width
		out.Reset()
		s.SetView(wide+"\n"+wide+"\nprompt ❯ abcd", &Cursor{X: 13, Y: 2})
		s.Flush()
		want := ansi.HideCursor + "\r" + ansi.CursorUp(tc.climb) + eraseBelow
		if got := out.String(); !strings.HasPrefix(got, want) {
			t.Fatalf("at %d columns: %q, want it to start %q", tc.width, got, want)
		}
		s.SetSize(tc.width, 30)
		s.Flush()
	}
	// Without a cursor (watch, replay) nothing is shown, nothing climbed.
	out.Reset()
	s.SetView("panel", nil)
	s.Flush()
	if got := out.String(); strings.Contains(got, ansi.ShowCursor) {
		t.Fatalf("a view without a cursor showed it: %q", got)
	}
}

// TestPainterRedrawsOnAChangeOfHeight: the same view in a terminal whose
// height alone changed is drawn again (issue 29, item 2: a shorter tmux
// pane cut the rows under the cursor, and nothing was redrawn until a key
// was typed).
func TestPainterRedrawsOnAChangeOfHeight(t *testing.T) {
	var out bytes.Buffer
	rows := 24
	s := New(&out, func() (int, int, error) { return 80, rows, nil })
	s.SetSize(80, 24)
	s.SetView("panel\nprompt", &Cursor{X: 7, Y: 1})
	s.Flush()
	rows = 16
	out.Reset()
	s.SetSize(80, 16)
	s.Flush()
	if !strings.Contains(out.String(), "prompt") {
		t.Fatalf("no redraw after a change of height: %q", out.String())
	}
}

// TestPainterBatchDrawsAsOne: what a Batch records is drawn in one frame,
// even when the painter draws in the middle of it: a finished command's
// output never shows above its running view (which showed the same
// lines), only above the view that replaced it.
func TestPainterBatchDrawsAsOne(t *testing.T) {
	var out bytes.Buffer
	s := New(&out, nil)
	s.SetSize(40, 24)
	s.SetView("⠋ Running make\n  step 1\nprompt ❯", nil)
	s.Flush()
	out.Reset()
	s.Batch(func() {
		s.Print("step 1")
		s.Flush() // the painter's own goroutine, waking now
		if out.Len() != 0 {
			t.Fatalf("drew in the middle of a batch: %q", out.String())
		}
		s.SetView("prompt ❯", nil)
	})
	s.Flush()
	want := eraseBelow + "step 1\r\n" + liveArea(0, "prompt ❯")
	if got := out.String(); got != want {
		t.Fatalf("after the batch\n got %q\nwant %q", got, want)
	}
}
