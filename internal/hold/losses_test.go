package hold

import (
	"reflect"
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
	t.Parallel()
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

// TestLossHeld: an item that left the plan is held as the plan had it:
// its text as written (untrusted: package hook's TestHeldLine neutralises
// it, and cuts a long one), its task id (none for a todo), its status
// then, how it left, what it became.
func TestLossHeld(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", 500)
	for _, tc := range []struct {
		l    Loss
		want Held
	}{
		{Loss{Item: "Add tests", Was: "pending", How: LossRemoved}, Held{Item: "Add tests", Status: "pending", How: LossRemoved}},
		{Loss{Item: "Add tests", Was: "in_progress", How: LossReplaced, To: "Review"}, Held{Item: "Add tests", Status: "in_progress", How: LossReplaced, To: "Review"}},
		{Loss{Item: "Write tests", Was: "pending", How: LossDoneRenamed, To: "Tests written"}, Held{Item: "Write tests", Status: "pending", How: LossDoneRenamed, To: "Tests written"}},
		{Loss{Item: "Docs", Key: "3", Was: "in_progress", How: LossRemoved, Task: true}, Held{Item: "Docs", ID: "3", Task: true, Status: "in_progress", How: LossRemoved}},
		{Loss{Item: "A", Was: "pending", How: LossCancelled}, Held{Item: "A", Status: "pending", How: LossCancelled}},
		// A todo's key is no task id.
		{Loss{Item: "A", Key: "a1", Was: "pending", How: LossRemoved}, Held{Item: "A", Status: "pending", How: LossRemoved}},
		// Hostile text, and a long one: kept as written.
		{Loss{Item: "evil\x1b]52;c;aGk=\x07\nnext", Was: "pending", How: LossRemoved}, Held{Item: "evil\x1b]52;c;aGk=\x07\nnext", Status: "pending", How: LossRemoved}},
		{Loss{Item: long, Was: "pending", How: LossRemoved}, Held{Item: long, Status: "pending", How: LossRemoved}},
	} {
		if got := lossHeld(tc.l); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("got  %+v\nwant %+v", got, tc.want)
		}
	}
}
