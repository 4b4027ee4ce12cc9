package hold

import (
	"strings"
	"testing"
	"time"

	"github.com/todo-shell/todo-shell/internal/plan"
	"github.com/todo-shell/todo-shell/tools/todo"
)

// list makes a version from "text=status" items (status p, i, c, x for
// pending, in_progress, completed, cancelled).
func list(items ...string) *plan.Version {
	v := &plan.Version{}
	for _, s := range items {
		text, st, _ := strings.Cut(s, "=")
		status := map[string]string{"p": todo.StatusPending, "i": todo.StatusInProgress, "c": todo.StatusCompleted, "x": StatusCancelled}[st]
		v.Todos = append(v.Todos, todo.Item{Content: text, Status: status, ActiveForm: text})
	}
	return v
}

func tasks(items ...string) *plan.Version {
	v := list(items...)
	v.Tasks = true
	for i := range v.Todos {
		id := string(rune('1' + i))
		v.Keys = append(v.Keys, "task:"+id)
		v.Info = append(v.Info, plan.ItemInfo{ID: id})
	}
	return v
}

func TestLossesBetween(t *testing.T) {
	for _, tc := range []struct {
		name      string
		prev, cur *plan.Version
		want      string
	}{
		{"nothing left", list("A=p", "B=i"), list("A=c", "B=i"), ""},
		{"completed then gone is no loss", list("A=c", "B=i"), list("B=i"), ""},
		{"removed while pending", list("Write the parser=c", "Add tests=p", "Update the docs=p"), list("Write the parser=c", "Update the docs=i"),
			"Add tests removed pending"},
		{"removed while in progress", list("A=i", "B=p"), list("B=p"), "A removed in_progress"},
		{"replaced at its place", list("Write the parser=c", "Add tests=p"), list("Write the parser=c", "Review the coverage report=c"),
			"Add tests replaced pending -> Review the coverage report"},
		{"reworded and completed at once", list("Write tests=i", "Docs=p"), list("Write unit tests=c", "Docs=p"),
			"Write tests done-renamed in_progress -> Write unit tests"},
		{"reworded, still to do, is no loss", list("Write tests=i"), list("Write unit tests=i"), ""},
		{"cancelled", list("A=i", "B=p"), list("A=x", "B=p"), "A cancelled in_progress"},
		{"task deleted", tasks("Write the parser=c", "Write tests=p", "Update the docs=i"), tasks("Write the parser=c", "Write tests=p"),
			"Update the docs removed in_progress task #3"},
		{"a first version", nil, list("A=p"), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, l := range lossesBetween(tc.prev, tc.cur, time.Time{}) {
				s := l.Item + " " + l.How + " " + l.Was
				if l.To != "" {
					s += " -> " + l.To
				}
				if l.Task {
					s += " task #" + l.Key
				}
				got = append(got, s)
			}
			if g := strings.Join(got, "; "); g != tc.want {
				t.Errorf("got %q, want %q", g, tc.want)
			}
		})
	}
}

func TestLossHeldSays(t *testing.T) {
	for _, tc := range []struct {
		l    Loss
		want string
	}{
		{Loss{Item: "Add tests", Was: "pending", How: LossRemoved}, "'Add tests' was removed while pending"},
		{Loss{Item: "Add tests", Was: "in_progress", How: LossReplaced, To: "Review"}, "'Add tests' was replaced by 'Review' while in progress"},
		{Loss{Item: "Write tests", Was: "pending", How: LossDoneRenamed, To: "Tests written"}, "'Write tests' was reworded to 'Tests written' and marked completed in the same change, while pending"},
		{Loss{Item: "Docs", Key: "3", Was: "in_progress", How: LossRemoved, Task: true}, "task #3 'Docs' was deleted while in progress"},
		{Loss{Item: "A", Was: "pending", How: LossCancelled}, "'A' was cancelled while pending"},
		// Hostile text: neutralised, and cut.
		{Loss{Item: "evil\x1b]52;c;aGk=\x07\nnext", Was: "pending", How: LossRemoved}, "'evil␛]52;c;aGk=␇ next' was removed while pending"},
	} {
		h := lossHeld(tc.l)
		if got := h.Text + " " + h.Says; got != tc.want {
			t.Errorf("got  %q\nwant %q", got, tc.want)
		}
	}
	long := quote(strings.Repeat("x", 500))
	if n := len([]rune(long)); n > 122 {
		t.Errorf("a long item is %d characters in the reason", n)
	}
}
