package watchui

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/todo-shell/todo-shell/internal/follow"
	"github.com/todo-shell/todo-shell/internal/plan"
	"github.com/todo-shell/todo-shell/render"
	"github.com/todo-shell/todo-shell/tools/todo"
)

// TestViewKeepsToTheRows: the header and the panel keep to the rows the
// painter draws (the height less two), the panel collapsing with the item
// in progress shown.
func TestViewKeepsToTheRows(t *testing.T) {
	var items []todo.Item
	for i := range 30 {
		st := todo.StatusPending
		if i == 10 {
			st = todo.StatusInProgress
		}
		items = append(items, todo.Item{Content: fmt.Sprintf("Task %d", i), ActiveForm: fmt.Sprintf("Doing %d", i), Status: st})
	}
	for _, rows := range []int{10, 20, 30} {
		v := view{st: render.PlainStyles(), what: "sessions in x", width: 60, rows: rows,
			last: follow.Update{Source: "s1", Version: &plan.Version{N: 3, Todos: items}}}
		got := v.String()
		if n := strings.Count(got, "\n") + 1; n > rows-2 {
			t.Errorf("%d rows: %d lines:\n%s", rows, n, got)
		}
		if !strings.HasPrefix(got, "watching s1 · v3 · q quits") || !strings.Contains(got, "● Doing 10") {
			t.Errorf("%d rows:\n%s", rows, got)
		}
	}
}

// TestViewKeepsTheNewestWarning: the header keeps the newest warning of
// the updates taken at once, neutralised.
func TestViewKeepsTheNewestWarning(t *testing.T) {
	updates := make(chan follow.Update, 2)
	updates <- follow.Update{Source: "s1", Warnings: []string{"second \x1b[2Jwarning"}}
	updates <- follow.Update{Source: "s1"}
	v := view{st: render.PlainStyles(), what: "sessions in x", width: 60, rows: 20}
	v.take(follow.Update{Source: "s1", Warnings: []string{"first"}}, updates)
	got := v.String()
	if !strings.Contains(got, "q quits · second") || strings.Contains(got, "\x1b") || !strings.Contains(got, WaitingText) {
		t.Fatalf("%q", got)
	}
}

func TestDecodeAllKeys(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []allKey
	}{
		{"q", []allKey{allQuit}},
		{"\x1b[A\x1b[B", []allKey{allUp, allDown}},
		{"kj\r", []allKey{allUp, allDown, allOpen}},
		{"\x1b[D\x1b\x7f", []allKey{allBack, allBack, allBack}},
		{"x", nil},
	} {
		if got := decodeAllKeys([]byte(tc.in)); !slices.Equal(got, tc.want) {
			t.Errorf("%q: %v, want %v", tc.in, got, tc.want)
		}
	}
}

// TestViewKeepsTheSwitchNote: the note of a switch stays in the header
// while the same session is shown, however many versions follow at once,
// and goes when another source is shown.
func TestViewKeepsTheSwitchNote(t *testing.T) {
	v1 := &plan.Version{N: 1, Todos: []todo.Item{{Content: "a", ActiveForm: "A", Status: todo.StatusInProgress}}}
	v2 := &plan.Version{N: 2, Todos: v1.Todos}
	v := view{st: render.PlainStyles(), what: "sessions in x", width: 120, rows: 20}
	steps := []struct {
		u    follow.Update
		want string // in the header; "" for no note
	}{
		{follow.Update{Source: "main1", Version: v1, Note: "switched from oneshot to main1: oneshot has ended"}, "switched from oneshot to main1"},
		{follow.Update{Source: "main1", Version: v2, New: []*plan.Version{v2}}, "switched from oneshot to main1"},
		{follow.Update{Source: "other", Version: v1}, ""},
	}
	for i, s := range steps {
		v.take(s.u, nil)
		head, _, _ := strings.Cut(v.String(), "\n")
		if s.want == "" && strings.Contains(head, "switched") || s.want != "" && !strings.Contains(head, s.want) {
			t.Fatalf("step %d: header %q, want %q", i, head, s.want)
		}
	}
}
