package plan

import (
	"testing"

	"github.com/todo-shell/todo-shell/tools/todo"
)

func TestMatchRenames(t *testing.T) {
	t.Parallel()
	it := func(s, st string) todo.Item { return todo.Item{Content: s, Status: st, ActiveForm: s} }
	p, ip, c := todo.StatusPending, todo.StatusInProgress, todo.StatusCompleted
	for _, tc := range []struct {
		name      string
		prev, cur []todo.Item
		want      string // short(Diff)
	}{
		{"reworded", []todo.Item{it("Write tests", p)}, []todo.Item{it("Write unit tests", p)}, "~Write tests→Write unit tests"},
		{"reworded and started", []todo.Item{it("Fix the bug", ip), it("Write tests", p)}, []todo.Item{it("Fix the bug", c), it("Write the tests", ip)},
			"~Write tests→Write the tests >Write the tests ✓Fix the bug"},
		{"unrelated is dropped and added", []todo.Item{it("Write tests", p)}, []todo.Item{it("Deploy to staging", p)}, "+Deploy to staging !Write tests"},
		// Half the words in common: a rename only in the same place.
		{"same place", []todo.Item{it("a", c), it("Write tests", p)}, []todo.Item{it("a", c), it("Run tests", p)}, "~Write tests→Run tests"},
		{"other place", []todo.Item{it("Write tests", p), it("a", c)}, []todo.Item{it("a", c), it("Run tests", p)}, "+Run tests !Write tests"},
		{"best pair first", []todo.Item{it("Update the docs", p), it("Update the changelog", p)},
			[]todo.Item{it("Update the changelog file", p), it("Update the docs page", p)},
			"~Update the changelog→Update the changelog file ~Update the docs→Update the docs page"},
		{"case and punctuation", []todo.Item{it("write tests.", p)}, []todo.Item{it("Write Tests", p)}, "~write tests.→Write Tests"},
		{"completed and gone is no drop", []todo.Item{it("Done thing", c), it("x", p)}, []todo.Item{it("x", p)}, ""},
		{"repeated text", []todo.Item{it("x", p), it("x", ip)}, []todo.Item{it("x", p)}, "!x"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := short(Diff(tc.prev, tc.cur)); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}
