package repl

import (
	"fmt"
	"strings"
	"testing"

	"github.com/todo-shell/todo-shell/tools/todo"
)

// TestPanelGrowsForEveryItemInProgress: six items in progress far apart
// (six agents on a shared plan) take the panel past its third of the
// rows while the terminal has room, a running command's output lines
// giving way: all six are shown and the rest counted (issue 29, item 3).
// In a terminal too short for them, the panel counts those it hides.
func TestPanelGrowsForEveryItemInProgress(t *testing.T) {
	cfg, _ := testConfig(t)
	var items []todo.Item
	for i := 1; i <= 12; i++ {
		st := todo.StatusPending
		if i%2 == 1 {
			st = todo.StatusInProgress
		}
		items = append(items, todo.Item{Content: fmt.Sprintf("Task %d", i), ActiveForm: fmt.Sprintf("Doing task %d", i), Status: st})
	}
	cfg.Plan.Publish(todo.Snapshot{Items: items, Version: 1}) // as the engine publishes a new list
	for _, tt := range []struct {
		height, shown int
		hidden        string
	}{
		{24, 6, ""},
		{20, 6, ""},
		{12, 6, ""},
		{10, 4, "(+8 more, 2 in progress)"},
	} {
		t.Run(fmt.Sprint(tt.height), func(t *testing.T) {
			m := New(cfg)
			m.width, m.height = 80, tt.height
			m.running = &run{line: "make", lines: []string{"o1", "o2", "o3", "o4", "o5"}}
			view, _ := m.draw()
			if n := strings.Count(view, "\n") + 1; n > tt.height-2 {
				t.Fatalf("%d rows in a %d-row terminal:\n%s", n, tt.height, view)
			}
			if n := strings.Count(view, "● Doing task"); n != tt.shown {
				t.Errorf("%d items in progress shown, want %d:\n%s", n, tt.shown, view)
			}
			if tt.hidden != "" && !strings.Contains(view, tt.hidden) {
				t.Errorf("no %q:\n%s", tt.hidden, view)
			}
		})
	}
}
