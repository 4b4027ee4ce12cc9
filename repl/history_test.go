package repl

import (
	"testing"

	histfile "github.com/todo-shell/todo-shell/repl/history"
)

func TestHistory(t *testing.T) {
	store, _ := histfile.Open("") // in memory
	h := history{store: store}
	for _, e := range []string{"one", "", "two\nlines", "two\nlines", "three"} {
		h.add(e)
	}
	if want := []string{"one", "two\nlines", "three"}; len(h.entries()) != len(want) {
		t.Fatalf("entries %q, want %q (blanks and repeats skipped, newlines kept)", h.entries(), want)
	}
	steps := []struct {
		op   string
		want string
		ok   bool
	}{
		{"next", "", false},
		{"prev", "three", true},
		{"prev", "two\nlines", true},
		{"prev", "one", true},
		{"prev", "", false},
		{"next", "two\nlines", true},
		{"next", "three", true},
		{"next", "draft", true},
		{"next", "", false},
	}
	for i, s := range steps {
		var got string
		var ok bool
		if s.op == "prev" {
			got, ok = h.prev("draft")
		} else {
			got, ok = h.next()
		}
		if got != s.want || ok != s.ok {
			t.Fatalf("step %d (%s): %q %v, want %q %v", i, s.op, got, ok, s.want, s.ok)
		}
	}
}
