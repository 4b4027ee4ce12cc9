package repl

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/todo-shell/todo-shell/internal/testwait"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/todo-shell/todo-shell/render"
	"github.com/todo-shell/todo-shell/router"
	"github.com/todo-shell/todo-shell/tools/offload"
	"github.com/todo-shell/todo-shell/tools/todo"
	"github.com/todo-shell/todo-shell/tools/toolset"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// updating reports -update.
func updating() bool { return *update }

func golden(t *testing.T, got string) {
	t.Helper()
	path := filepath.Join("testdata", strings.ReplaceAll(t.Name(), "/", "_")+".golden")
	if updating() {
		os.WriteFile(path, []byte(got), 0o644)
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update)", err)
	}
	if got != string(want) {
		t.Fatalf("view differs from %s:\n%s\n--- want:\n%s", path, got, want)
	}
}

// testConfig wires a real engine in temporary directories with fixed ids.
func testConfig(t testing.TB) (Config, string) {
	t.Helper()
	offDir := t.TempDir()
	off := offload.Config{Dir: offDir, Session: "test", Threshold: 1000}
	set, err := toolset.New(toolset.Options{Limits: todo.DefaultLimits(), Offload: off, BashTimeout: time.Minute, Dir: t.TempDir(), Plain: render.PlainPlan})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	sh := &router.Shell{Executor: set.Executor, Offload: off,
		NewID: func() string { n++; return fmt.Sprintf("toolu_%02d", n) }}
	return Config{
		Shell:  sh,
		Plan:   set.Plan,
		Styles: render.PlainStyles(),
		Dir:    func() string { return "/home/user/project" },
	}, offDir
}

// transcript is a goroutine-safe copy of what the shell printed.
type transcript struct {
	mu sync.Mutex
	b  strings.Builder
}

func (tr *transcript) Write(p []byte) (int, error) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	return tr.b.Write(p)
}

func (tr *transcript) String() string {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	return tr.b.String()
}

var lastTranscript *transcript

func start(t *testing.T, w, h int) (*testTerm, string) {
	cfg, offDir := testConfig(t)
	lastTranscript = &transcript{}
	cfg.Transcript = lastTranscript
	tm := runShell(t, cfg, w, h)
	return tm, offDir
}

// screen is the scrollback (with the temporary offload directory hidden)
// followed by the live area, as a person would see it.
func screen(view, offDir string) string {
	printed := lastTranscript.String()
	if offDir != "" {
		printed = strings.ReplaceAll(printed, offDir, "<offload-dir>")
	}
	return printed + "~~~ live area ~~~\n" + view
}

func waitFor(t *testing.T, tm *testTerm, what ...string) {
	t.Helper()
	testwait.For(t, 10*time.Second, fmt.Sprintf("%q", what), func() bool {
		b := tm.out.String()
		for _, w := range what {
			if !strings.Contains(b, w) {
				return false
			}
		}
		return true
	}, func() string { return fmt.Sprintf("the terminal got:\n%q", tm.out.String()) })
}

// waitLine waits for a line the shell printed on its own into the
// scrollback: a command's output, never the echo of the typed command
// (which has the prompt before it).
func waitLine(t *testing.T, line string) {
	t.Helper()
	testwait.For(t, 10*time.Second, fmt.Sprintf("the line %q in the scrollback", line),
		func() bool { return strings.Contains("\n"+lastTranscript.String(), "\n"+line+"\n") },
		lastTranscript.String)
}

func enter(tm *testTerm, line string) {
	tm.Type(line)
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
}

// finalView quits and returns the last view drawn.
func finalView(t *testing.T, tm *testTerm) string {
	t.Helper()
	if err := tm.Quit(); err != nil {
		t.Fatal(err)
	}
	return tm.FinalModel(t).View().Content
}

const writeTwo = `TodoWrite '{"todos":[{"content":"Write code","activeForm":"Writing code","status":"in_progress"},{"content":"Run tests","activeForm":"Running tests","status":"pending"}]}'`

func TestTodoWriteRedrawsPanel(t *testing.T) {
	tm, _ := start(t, 60, 20)
	enter(tm, writeTwo)
	waitFor(t, tm, "Todo list updated: 0 completed, 1 in_progress, 1 pending", "Tasks 0/2", "● Writing code")
	enter(tm, `TodoWrite '{"todos":[{"content":"Write code","activeForm":"Writing code","status":"completed"},{"content":"Run tests","activeForm":"Running tests","status":"in_progress"}]}'`)
	waitFor(t, tm, "Tasks 1/2", "● Running tests")
	waitLine(t, "Todo list updated: 1 completed, 1 in_progress, 0 pending")
	golden(t, screen(finalView(t, tm), ""))
}

const seed002 = `TodoWrite '{"todos":[
  {"content":"Analyze requirements","activeForm":"Analyzing requirements","status":"completed"},
  {"content":"Write implementation","activeForm":"Writing implementation","status":"in_progress"},
  {"content":"Run tests","activeForm":"Running tests","status":"pending"}
]}'`

func TestMultiLinePaste(t *testing.T) {
	tm, _ := start(t, 70, 20)
	// A paste is text: its newlines go into the input, and Enter runs it.
	tm.Send(tea.PasteMsg{Content: strings.ReplaceAll(seed002, "\n", "\r") + "\r"})
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	waitFor(t, tm, "Todo list updated: 1 completed, 1 in_progress, 1 pending", "Tasks 1/3")
	golden(t, screen(finalView(t, tm), ""))
}

func TestMultiLineTyped(t *testing.T) {
	tm, _ := start(t, 70, 20)
	for _, line := range strings.Split(seed002, "\n") {
		enter(tm, line)
	}
	waitFor(t, tm, "Todo list updated: 1 completed, 1 in_progress, 1 pending", "Tasks 1/3")
	finalView(t, tm)
}

func TestBashLineWithOutput(t *testing.T) {
	tm, _ := start(t, 60, 20)
	enter(tm, "printf 'hello\\nworld\\n'; echo oops >&2; (exit 3)")
	waitFor(t, tm, "hello", "world", "oops", "exit status 3")
	golden(t, screen(finalView(t, tm), ""))
}

func TestOffloadedResult(t *testing.T) {
	tm, offDir := start(t, 80, 20)
	enter(tm, "seq 1 2000")
	path := filepath.Join(offDir, "test", "toolu_01.md")
	waitFor(t, tm, "[Tool result offloaded to file: ", "  5", "… 1990 more lines", "  2000") // the head and the tail (issue 16.15)
	if !strings.Contains(lastTranscript.String(), "[Tool result offloaded to file: "+path+"]") {
		t.Fatalf("no pointer to %s in\n%s", path, lastTranscript.String())
	}
	data, err := os.ReadFile(path)
	if err != nil || !strings.HasSuffix(string(data), "1999\n2000\n") {
		t.Fatalf("offload file: %v", err)
	}
	golden(t, screen(finalView(t, tm), offDir))
}

// TestPrintedLinesAreNotBrokenAtTheWidth: a line printed into the
// scrollback goes to the terminal whole, wider than the window or not, for
// the terminal to wrap: it reflows when the window is resized, and a path
// in it copies as one line.
func TestPrintedLinesAreNotBrokenAtTheWidth(t *testing.T) {
	tm, _ := start(t, 30, 20)
	long := "/a/long/path/" + strings.Repeat("to/", 20) + "file.md"
	enter(tm, "echo "+long)
	waitLine(t, long)
	waitFor(t, tm, long)
	if err := tm.Quit(); err != nil {
		t.Fatal(err)
	}
	tm.WaitFinished(t)
}

func TestCtrlCCancelsRunningCommand(t *testing.T) {
	tm, _ := start(t, 60, 20)
	enter(tm, "echo started; sleep 30")
	waitFor(t, tm, "Running echo started; sleep 30", "  started") // its output, in the live tail
	tm.Send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	waitFor(t, tm, "Command interrupted")
	enter(tm, "echo still alive")
	waitLine(t, "still alive")
	// SIGINT ends the command (status 130); on a machine too busy for bash
	// to act on it within the grace, the runner's SIGKILL does (137). Either
	// is an interrupted command; how fast is the bash runner's tests' and
	// benchmarks' business.
	golden(t, strings.Replace(screen(finalView(t, tm), ""), "✗137 ❯", "✗130 ❯", 1))
}

func TestResize(t *testing.T) {
	tm, _ := start(t, 80, 20)
	enter(tm, writeTwo)
	waitFor(t, tm, "Tasks 0/2")
	tm.Send(tea.WindowSizeMsg{Width: 24, Height: 20})
	// Messages are handled in order: once this line's output is in, the
	// resize was handled before it. The output is waited for in the
	// scrollback, where it goes when the line is done: seen live, in the
	// running command's tail, the line may still be running.
	enter(tm, "echo resized | tr a-z A-Z")
	waitLine(t, "RESIZED")
	view := finalView(t, tm)
	for _, line := range strings.Split(view, "\n") {
		if w := ansi.StringWidth(line); w > 24 {
			t.Errorf("line wider than 24 cells (%d): %q", w, line)
		}
	}
	golden(t, view)
}

func TestCtrlDAndDoubleCtrlCExit(t *testing.T) {
	for _, keys := range [][]tea.KeyPressMsg{{ctrlKey('d')}, {ctrlKey('c'), ctrlKey('c')}} {
		tm, _ := start(t, 60, 20)
		for _, k := range keys {
			tm.Send(k)
		}
		tm.WaitFinished(t)
	}
}

// BenchmarkTodoWriteToPanel is TodoWrite of 50 items to the redrawn panel:
// the tool call, the store's change event reaching the model, and the new
// view.
func BenchmarkTodoWriteToPanel(b *testing.B) {
	cfg, _ := testConfig(b)
	m := New(cfg)
	m.width = 100
	m.layout()
	var items []string
	for i := 0; i < 50; i++ {
		items = append(items, fmt.Sprintf(`{"content":"Task %d: do the thing that needs doing","activeForm":"Doing task %d","status":"pending"}`, i, i))
	}
	line := router.Classify(`TodoWrite '{"todos":[`+strings.Join(items, ",")+`]}'`, cfg.Shell.Executor)
	sub := m.sub
	b.ReportAllocs()
	for b.Loop() {
		out := cfg.Shell.Run(context.Background(), line, nil)
		if out.ExitCode != 0 {
			b.Fatal(out.Stderr)
		}
		next, _ := m.Update(todosChangedMsg{<-sub.C()})
		if v := next.(*Model).View().Content; !strings.Contains(v, "Tasks 0/50") {
			b.Fatal("panel not redrawn")
		}
	}
}

// TestInterruptMessageOnceWhenOffloaded: an interrupted command whose output
// was offloaded says "Command interrupted" once, not again in the preview.
func TestInterruptMessageOnceWhenOffloaded(t *testing.T) {
	tm, _ := start(t, 80, 20)
	enter(tm, "head -c 3000 /dev/zero | tr '\\0' a; echo; sleep 30")
	waitFor(t, tm, "Running head")
	tm.Send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	waitFor(t, tm, "Command interrupted")
	finalView(t, tm)
	if n := strings.Count(lastTranscript.String(), "Command interrupted"); n != 1 {
		t.Fatalf("%d times \"Command interrupted\" in\n%s", n, lastTranscript.String())
	}
}

// TestCarriageReturnOverwrites: progress printed with '\r' ends as one line.
func TestCarriageReturnOverwrites(t *testing.T) {
	tm, _ := start(t, 80, 20)
	enter(tm, `for i in 1 2 3; do printf '\r%d%%' $i; done; echo`)
	waitLine(t, "3%")
	finalView(t, tm)
	got := lastTranscript.String()
	if strings.Contains(got, "1%") || strings.Contains(got, "2%") || !strings.Contains(got, "\n3%\n") {
		t.Fatalf("progress not overwritten:\n%q", got)
	}
}

func TestTailOverwritesCarriageReturns(t *testing.T) {
	tb := newTailBuffer(1 << 10)
	tb.Write([]byte("start\n\r10%\r20%"))
	if got := tb.lines(5); len(got) != 2 || got[1] != "20%" {
		t.Fatalf("lines %q", got)
	}
}

// TestTypeAheadQueued: a command entered while another runs waits under it
// (not in the scrollback yet), runs after it, and a Ctrl+C that interrupts
// drops it, saying so.
func TestTypeAheadQueued(t *testing.T) {
	tm, _ := start(t, 80, 20)
	enter(tm, "echo first; sleep 30")
	waitFor(t, tm, "Running echo first; sleep 30", "  first")
	enter(tm, "echo queued-one")
	enter(tm, "echo queued-two")
	waitFor(t, tm, "project ❯ echo queued-one", "project ❯ echo queued-two")
	if strings.Contains(lastTranscript.String(), "queued") {
		t.Fatalf("queued commands echoed before they run:\n%s", lastTranscript.String())
	}
	tm.Send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	waitLine(t, "Dropped 2 queued commands")
	waitLine(t, "Command interrupted")
	enter(tm, "echo after")
	waitLine(t, "after")
	finalView(t, tm)
	if strings.Contains(lastTranscript.String(), "\nqueued-one\n") {
		t.Fatal("a dropped command ran")
	}
}

// TestTypeAheadRunsInOrder: queued commands run one after another, each
// echoed after the output of the one before.
func TestTypeAheadRunsInOrder(t *testing.T) {
	tm, _ := start(t, 80, 20)
	enter(tm, "sleep 0.3; echo one")
	waitFor(t, tm, "Running sleep 0.3; echo one")
	enter(tm, "echo two")
	waitLine(t, "two")
	finalView(t, tm)
	want := "project ❯ sleep 0.3; echo one\none\nproject ❯ echo two\ntwo\n"
	if got := lastTranscript.String(); got != want {
		t.Fatalf("scrollback %q, want %q", got, want)
	}
}
