package hold

import (
	"strings"
	"time"

	"github.com/todo-shell/todo-shell/internal/plan"
	"github.com/todo-shell/todo-shell/tools/todo"
)

// StatusCancelled is the status Gemini CLI's write_todos gives an item it
// gave up on.
const StatusCancelled = "cancelled"

// unfinished reports whether an item of status s is still to do.
func unfinished(s string) bool { return s == todo.StatusPending || s == todo.StatusInProgress }

// lossesBetween returns the items that left the plan unfinished from prev
// to cur, as package plan's Changes sees the change (items matched by key,
// or by their words): an item gone (removed, or replaced by a new one at
// its place: reworded away), one reworded and completed at once, one
// cancelled. A task of a task list is named by its id as well.
func lossesBetween(prev, cur *plan.Version, at time.Time) []Loss {
	if prev == nil || cur == nil {
		return nil
	}
	c := plan.Changes(prev, cur)
	// Where each item stands, to pair an item gone with the one that took
	// its place.
	prevAt := map[string]int{}
	for i, it := range prev.Todos {
		if _, ok := prevAt[it.Content]; !ok {
			prevAt[it.Content] = i
		}
	}
	out := gone(prev, cur, c, prevAt, at)
	out = append(out, doneRenamed(prev, cur, c, prevAt, at)...)
	// Gemini CLI keeps a cancelled item in the list.
	for _, it := range cur.Todos {
		if it.Status != StatusCancelled {
			continue
		}
		if i, ok := prevAt[it.Content]; ok && unfinished(prev.Todos[i].Status) {
			out = append(out, Loss{Item: it.Content, Was: prev.Todos[i].Status, How: LossCancelled, Time: at})
		}
	}
	return out
}

// gone is the items of prev no longer in cur, unfinished: removed, or
// replaced by an item added at their place.
func gone(prev, cur *plan.Version, c plan.Change, prevAt map[string]int, at time.Time) []Loss {
	addedAt := map[int]string{}
	for _, a := range c.Added {
		for i, it := range cur.Todos {
			if _, taken := addedAt[i]; it.Content == a && !taken {
				addedAt[i] = a
				break
			}
		}
	}
	var out []Loss
	for _, d := range c.Dropped {
		i, ok := prevAt[d]
		if !ok || !unfinished(prev.Todos[i].Status) {
			continue
		}
		it := prev.Todos[i]
		l := Loss{Item: it.Content, Key: keyAt(prev, i), Was: it.Status, How: LossRemoved, Task: prev.Tasks, Time: at}
		if to, ok := addedAt[i]; ok && !prev.Tasks {
			l.How, l.To = LossReplaced, to
			delete(addedAt, i)
		}
		out = append(out, l)
	}
	return out
}

// doneRenamed is the items reworded and completed in the same change.
func doneRenamed(prev, cur *plan.Version, c plan.Change, prevAt map[string]int, at time.Time) []Loss {
	var out []Loss
	for _, r := range c.Renamed {
		i, ok := prevAt[r.From]
		if !ok || !unfinished(prev.Todos[i].Status) {
			continue
		}
		for j, it := range cur.Todos {
			if it.Content == r.To && it.Status == todo.StatusCompleted {
				out = append(out, Loss{Item: r.From, Key: keyAt(cur, j), Was: prev.Todos[i].Status, How: LossDoneRenamed, To: r.To, Task: cur.Tasks, Time: at})
				break
			}
		}
	}
	return out
}

// keyAt is the task id of item i of v ("" when v is no task list).
func keyAt(v *plan.Version, i int) string {
	if i < len(v.Info) && v.Info[i].ID != "" {
		return v.Info[i].ID
	}
	if i < len(v.Keys) {
		return strings.TrimPrefix(v.Keys[i], "task:")
	}
	return ""
}

// settled drops the losses whose item is back in cur (the same text; for
// one cancelled, no longer cancelled), so what was put back is no longer
// held against the agent (while unfinished it is held as unfinished).
func settled(losses []Loss, cur *List) []Loss {
	if cur == nil || len(losses) == 0 {
		return losses
	}
	var out []Loss
	for _, l := range losses {
		back := false
		for _, it := range cur.Items {
			if it.Content == l.Item && (l.How != LossCancelled || it.Status != StatusCancelled) {
				back = true
				break
			}
		}
		if !back {
			out = append(out, l)
		}
	}
	return out
}
