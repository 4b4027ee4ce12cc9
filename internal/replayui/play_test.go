package replayui

import (
	"bytes"
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
