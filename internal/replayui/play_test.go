package replayui

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/todo-shell/todo-shell/internal/painter"
	"github.com/todo-shell/todo-shell/internal/plan"
	"github.com/todo-shell/todo-shell/render"
	"github.com/todo-shell/todo-shell/tools/todo"
)

// TestPlayerWarnsAsItHappens: a version that drops an item prints the
// warning above the panel when it arrives, and the panel is the live area
// (updated in place), not printed.
func TestPlayerWarnsAsItHappens(t *testing.T) {
	var out bytes.Buffer
	pnt := painter.New(&out, nil)
	pnt.SetSize(60, 20)
	pl := &player{pnt: pnt, styles: render.PlainStyles(), limits: todo.DefaultLimits(), width: 60, rows: 20}
	v1 := &plan.Version{N: 1, Todos: []todo.Item{
		{Content: "Write", ActiveForm: "Writing", Status: todo.StatusInProgress},
		{Content: "Docs", ActiveForm: "Documenting", Status: todo.StatusPending},
	}}
	v2 := &plan.Version{N: 2, Todos: []todo.Item{{Content: "Write", ActiveForm: "Writing", Status: todo.StatusCompleted}}}
	for _, v := range []*plan.Version{v1, v2} {
		pl.show(plan.Event{Kind: plan.KindVersion, Version: v})
		pnt.Flush()
	}
	got := ansi.Strip(out.String())
	warn := strings.Index(got, "! DROPPED without being completed: Docs")
	last := strings.LastIndex(got, "Tasks 1/1")
	if warn < 0 || last < warn {
		t.Fatalf("no warning above the last panel:\n%q", got)
	}
	if strings.Count(got, "Tasks 0/2") != 1 {
		t.Fatalf("the first panel drawn %d times:\n%q", strings.Count(got, "Tasks 0/2"), got)
	}
}

// TestPlayerShowsTaskOwnersAndRenames: a task plan's panel carries each
// task's owner ("@bob"), and a task renamed (matched by its id) is no drop.
func TestPlayerShowsTaskOwnersAndRenames(t *testing.T) {
	var out bytes.Buffer
	pnt := painter.New(&out, nil)
	pnt.SetSize(60, 20)
	pl := &player{pnt: pnt, styles: render.PlainStyles(), limits: todo.DefaultLimits(), width: 60, rows: 20}
	version := func(n int, subject string) *plan.Version {
		return &plan.Version{N: n, Tasks: true, Keys: []string{"4"}, Info: []plan.ItemInfo{{ID: "4", Owner: "bob"}},
			Todos: []todo.Item{{Content: "#4 " + subject, ActiveForm: "#4 " + subject, Status: todo.StatusInProgress}}}
	}
	for _, v := range []*plan.Version{version(1, "Mine"), version(2, "Yours now")} {
		pl.show(plan.Event{Kind: plan.KindVersion, Version: v})
		pnt.Flush()
	}
	got := ansi.Strip(out.String())
	if !strings.Contains(got, "#4 Yours now · @bob") || strings.Contains(got, "DROPPED") {
		t.Fatalf("want the renamed task with its owner, no drop:\n%q", got)
	}
}

// TestStepBackShowsWhatStepForwardShowed: stepping back to a version (←)
// shows the same warnings above its panel as stepping forward to it did
// ("! breaks a rule" of claude-code-2.1.330_todowrite.jsonl's version 2).
func TestStepBackShowsWhatStepForwardShowed(t *testing.T) {
	for _, file := range []string{"claude-code-2.1.330_todowrite.jsonl", "claude-code-2.1.330_tasks.jsonl", "claude_dropped.jsonl"} {
		t.Run(file, func(t *testing.T) {
			f, err := os.Open(filepath.Join("..", "plan", "testdata", file))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			var events []plan.Event
			p := plan.Parser{Playback: true}
			if err := plan.Scan(f, &p, func(e plan.Event) { events = append(events, e) }, func(error) {}); err != nil {
				t.Fatal(err)
			}
			newPlayer := func(out *bytes.Buffer) *player {
				pnt := painter.New(out, nil)
				pnt.SetSize(80, 24)
				return &player{pnt: pnt, styles: render.PlainStyles(), limits: todo.DefaultLimits(), width: 80, rows: 24}
			}
			warned := 0
			for at, e := range events {
				if e.Kind != plan.KindVersion {
					continue
				}
				var fwd, back bytes.Buffer
				pf := newPlayer(&fwd)
				for _, e := range events[:at+1] {
					pf.show(e)
				}
				pf.pnt.Flush()
				pb := newPlayer(&back)
				for _, e := range events {
					pb.show(e) // to the end, then back to at
				}
				pb.pnt.Flush()
				back.Reset()
				pb.redrawTo(events, at)
				pb.pnt.Flush()
				got := ansi.Strip(back.String())
				for _, l := range strings.Split(ansi.Strip(fwd.String()), "\n") {
					if i := strings.Index(l, "! "); i >= 0 {
						warned++
						if w := strings.TrimSpace(l[i:]); !strings.Contains(got, w) {
							t.Errorf("version %d: stepping back does not show %q:\n%s", e.Version.N, w, got)
						}
					}
				}
			}
			if file == "claude-code-2.1.330_todowrite.jsonl" && warned == 0 {
				t.Fatal("no warning stepping forward")
			}
		})
	}
}

// TestPlayerDrawsAFailedCallFailed: a plan tool's call that failed
// (claude-code-2.1.330_tasks.jsonl: TaskUpdate of task 9, "Task not
// found", toolUseResult.success false) has its reason in one line under
// it, as the shell shows a failed call; the calls that succeeded have none.
func TestPlayerDrawsAFailedCallFailed(t *testing.T) {
	f, err := os.Open(filepath.Join("..", "plan", "testdata", "claude-code-2.1.330_tasks.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, width := range []int{80, 60} {
		var out bytes.Buffer
		pnt := painter.New(&out, nil)
		pnt.SetSize(width, 20)
		pl := &player{pnt: pnt, styles: render.PlainStyles(), limits: todo.DefaultLimits(), width: width, rows: 20}
		f.Seek(0, 0)
		p := plan.Parser{Playback: true}
		if err := plan.Scan(f, &p, func(e plan.Event) { pl.show(e); pnt.Flush() }, func(error) {}); err != nil {
			t.Fatal(err)
		}
		got := ansi.Strip(out.String())
		call := strings.Index(got, "● TaskUpdate(#9 completed)")
		failed := strings.Index(got, "  ⎿ failed: Task not found")
		if call < 0 || failed < call || strings.Count(got, "⎿ failed") != 1 {
			t.Errorf("%d columns: want the call, then one '⎿ failed: Task not found' line:\n%s", width, got)
		}
	}
}
