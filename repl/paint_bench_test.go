package repl

import (
	"fmt"
	"io"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/todo-shell/todo-shell/internal/painter"
	"github.com/todo-shell/todo-shell/tools/todo"
)

// BenchmarkRedrawCollapsedPanel is one keystroke's redraw with 50 todos in
// a 100×20 terminal: the model assembles the live area (the panel collapsed
// to fit) and the painter writes it.
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
	cfg.Plan.Publish(todo.Snapshot{Items: items, Version: 1}) // as the engine publishes a new list
	m := New(cfg)
	next, _ := m.Update(tea.WindowSizeMsg{Width: 100, Height: 20})
	m = next.(*Model)
	scr := painter.New(io.Discard, nil)
	scr.SetSize(100, 20)
	keys := []tea.KeyPressMsg{textKey("a"), {Code: tea.KeyBackspace}}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		next, _ := m.update(keys[i%2])
		m = next.(*Model)
		i++
		v, cur := m.draw()
		scr.SetView(v, &painter.Cursor{X: cur.X, Y: cur.Y})
		scr.Flush()
	}
	if v, _ := m.draw(); strings.Count(v, "\n")+1 > 18 || !strings.Contains(v, "Tasks 12/50") {
		b.Fatalf("live area:\n%s", v)
	}
}
