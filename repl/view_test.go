package repl

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/todo-shell/todo-shell/tools/todo"
)

// TestLiveAreaKeepsToTheTerminal: with 50 todos, a running command with
// its output lines and a hint, the live area is never taller than the
// terminal minus two rows; the panel's title and the item in progress stay
// while there is room for them, and output lines give way first.
func TestLiveAreaKeepsToTheTerminal(t *testing.T) {
	cfg, _ := testConfig(t)
	var items []todo.Item
	for i := 0; i < 50; i++ {
		st := todo.StatusPending
		switch {
		case i < 30:
			st = todo.StatusCompleted
		case i == 30:
			st = todo.StatusInProgress
		}
		items = append(items, todo.Item{Content: fmt.Sprintf("Task %d", i), ActiveForm: fmt.Sprintf("Doing task %d", i), Status: st})
	}
	cfg.Store.Replace(items)
	for _, h := range []int{0, 3, 5, 6, 7, 8, 10, 12, 20, 32, 60} {
		t.Run(fmt.Sprint(h), func(t *testing.T) {
			m := New(cfg)
			next, _ := m.update(tea.WindowSizeMsg{Width: 100, Height: h})
			m = next.(*Model)
			m.running = &run{line: "make", lines: []string{"o1", "o2", "o3", "o4", "o5"}}
			m.hint = "a hint"
			lines := strings.Split(m.View().Content, "\n")
			fixed := 3 // the running line, the hint, the prompt
			if h > 0 && len(lines) > max(h-2, fixed) {
				t.Fatalf("%d rows in a %d-row terminal:\n%s", len(lines), h, strings.Join(lines, "\n"))
			}
			view := strings.Join(lines, "\n")
			room := h - 2 - fixed
			if (h == 0 || room >= 1) && !strings.Contains(view, "Tasks 30/50") {
				t.Errorf("no title:\n%s", view)
			}
			if (h == 0 || room >= 3) && !strings.Contains(view, "● Doing task 30") {
				t.Errorf("no item in progress:\n%s", view)
			}
			if h == 0 && !strings.Contains(view, "Task 49") {
				t.Errorf("unknown height: the whole list is shown:\n%s", view)
			}
			if h >= 60 && !strings.Contains(view, "o1") {
				t.Errorf("room for every output line, yet some went:\n%s", view)
			}
		})
	}
}
