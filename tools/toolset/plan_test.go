package toolset

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/todo-shell/todo-shell/tools"
	"github.com/todo-shell/todo-shell/tools/offload"
	"github.com/todo-shell/todo-shell/tools/task"
	"github.com/todo-shell/todo-shell/tools/todo"
)

func newSet(t testing.TB) *Set {
	t.Helper()
	s, err := New(Options{Limits: todo.DefaultLimits(), Offload: offload.Config{Dir: t.TempDir(), Session: "s", Threshold: 1000}, BashTimeout: time.Minute, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func call(t testing.TB, s *Set, name, input string) {
	t.Helper()
	if res := s.Executor.Execute(context.Background(), "toolu_1", name, json.RawMessage(input)); res.IsError {
		t.Fatalf("%s: %s", name, res.Content)
	}
}

// TestPlanIsTodosThenTasks: Set.Plan publishes one version per change of
// either store, the todo list first, then the tasks as rows; a late
// subscriber starts with the current plan; a restored list is published; a
// task plan attached without tasks publishes nothing new.
func TestPlanIsTodosThenTasks(t *testing.T) {
	s := newSet(t)
	every := 0
	s.Plan.Every(func(todo.Snapshot) { every++ })
	if err := s.Tasks.Attach(t.TempDir()); err != nil { // an empty plan
		t.Fatal(err)
	}
	if _, ok := s.Plan.Last(); ok || every != 0 {
		t.Fatalf("an empty plan attached published %d versions", every)
	}
	s.Store.Restore(todo.Snapshot{Items: []todo.Item{{Content: "Old", ActiveForm: "Old", Status: todo.StatusCompleted}}, Version: 7})
	call(t, s, task.CreateName, `{"subject":"Ship","description":"d"}`)
	call(t, s, todo.WriteName, `{"todos":[{"content":"Write","status":"in_progress","activeForm":"Writing"}]}`)
	late := s.Plan.Latest()
	defer late.Close()
	got := <-late.C()
	var rows []string
	for _, it := range got.Items {
		rows = append(rows, it.Status+" "+it.Content)
	}
	if every != 3 || got.Version != 3 || strings.Join(rows, "|") != "in_progress Write|pending #1 Ship" {
		t.Fatalf("%d versions; version %d: %q", every, got.Version, rows)
	}
	call(t, s, task.UpdateName, `{"taskId":"1","status":"completed"}`)
	if got := <-late.C(); got.Version != 4 || got.Items[1].Status != todo.StatusCompleted {
		t.Fatalf("after TaskUpdate: %+v", got)
	}
}

// BenchmarkTodoWrite is TodoWrite of ten items through the executor: with
// the engine's plan feed (the standard set) and, beside it, on a bare
// registry with no subscriber (the cost of the feed is the difference).
func BenchmarkTodoWrite(b *testing.B) {
	var items []string
	for i := range 10 {
		items = append(items, fmt.Sprintf(`{"content":"Step %d of the plan","status":"pending","activeForm":"Doing step %d"}`, i, i))
	}
	input := json.RawMessage(`{"todos":[` + strings.Join(items, ",") + `]}`)
	run := func(b *testing.B, ex *tools.Executor) {
		b.ReportAllocs()
		for b.Loop() {
			if res := ex.Execute(context.Background(), "toolu_b", todo.WriteName, input); res.IsError {
				b.Fatal(res.Content)
			}
		}
	}
	b.Run("set with plan feed", func(b *testing.B) {
		s := newSet(b)
		sub := s.Plan.Latest()
		defer sub.Close()
		run(b, s.Executor)
	})
	b.Run("bare registry", func(b *testing.B) {
		reg := tools.NewRegistry()
		if err := todo.Register(reg, todo.NewStore(nil), todo.DefaultLimits(), nil); err != nil {
			b.Fatal(err)
		}
		run(b, tools.NewExecutor(reg, offload.Policy{Config: offload.Config{Dir: b.TempDir(), Session: "s", Threshold: 1000}}))
	})
}
