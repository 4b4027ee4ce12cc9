package hook

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/todo-shell/todo-shell/internal/hold"
	"github.com/todo-shell/todo-shell/internal/plan"
	"github.com/todo-shell/todo-shell/render"
	"github.com/todo-shell/todo-shell/tools/task"
	"github.com/todo-shell/todo-shell/tools/todo"
)

// maxNamed is how many items a reason names; the rest are counted.
const maxNamed = 20

// maxContext caps the task list a context carries, in bytes.
const maxContext = 6000

// maxQuoted caps an item's text in a reason or a note, in characters.
const maxQuoted = 120

// Reason is the text a held stop sends the agent (Block's reason): the
// items held, at most maxNamed of them, and what to do. It starts with
// hold.ReasonLead. It is "" for a verdict that does not hold the stop.
func Reason(v hold.Verdict) string {
	if !v.Block {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s, %d of at most %d for this prompt):\n", hold.ReasonLead, v.Blocks, v.MaxBlocks)
	for i := range v.Held {
		if i == maxNamed {
			fmt.Fprintf(&b, "- and %d more\n", len(v.Held)-maxNamed)
			break
		}
		b.WriteString("- " + heldLine(v.Held[i]) + "\n")
	}
	b.WriteString("Finish each item and mark it completed in the plan; put back an item you removed or reworded, and finish it. " +
		"If one cannot be done, keep it in the plan and tell the person why.")
	return b.String()
}

// Note is what the person is told when a stop goes through with items
// held (Allow's note): why, and the items in a few words. It is "" when
// there is nothing to tell (the stop is held, nothing is held, holding is
// off, another hook made the agent go on).
func Note(v hold.Verdict) string {
	if v.Block {
		return ""
	}
	switch v.Through {
	case hold.ThroughInterrupted:
		return "todo-shell: the plan is not done (" + summary(v.Held) + "), but you interrupted: the stop goes through."
	case hold.ThroughLimit:
		return fmt.Sprintf("todo-shell: the stop goes through after %s: %s.", plural(v.Blocks, "hold"), summary(v.Held))
	}
	return ""
}

// SharedContext is the shared plan name, its tasks st, as context for the
// agent (Context's text): what it is, its tasks (cut at maxContext bytes)
// and how to keep it.
func SharedContext(name string, st task.State) string {
	var b strings.Builder
	fmt.Fprintf(&b, "This session works on the todo-shell task plan %q, shared with other agents and people (version %d).\n",
		render.Sanitize(name), st.Version)
	if len(st.Tasks) == 0 {
		b.WriteString("It has no tasks yet.\n")
	} else {
		list := render.PlainTasks(st)
		if len(list) > maxContext {
			cut := maxContext
			for cut > 0 && !utf8.RuneStart(list[cut]) {
				cut-- // not inside a character
			}
			list = list[:cut] + "\n… (cut: the plan is longer; TaskList shows all of it)\n"
		}
		b.WriteString("Its tasks now:\n" + list + "\n")
	}
	b.WriteString("Keep it with the todo-shell tools (TaskList, TaskGet, TaskCreate, TaskUpdate): take a free task before you work on it, " +
		"and mark it completed when it is done. The stop hook holds you to the tasks you own or created.")
	return b.String()
}

// summary is the held items in a few words, for the person.
func summary(held []hold.Held) string {
	parts := make([]string, 0, 3)
	for i := range held {
		if i == 2 {
			parts = append(parts, "and "+strconv.Itoa(len(held)-2)+" more")
			break
		}
		parts = append(parts, heldLine(held[i]))
	}
	return strings.Join(parts, "; ")
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

// heldLine says one held item: "'Add tests' was removed while pending".
func heldLine(h hold.Held) string { return heldName(h) + " " + heldSays(h) }

// heldName names a held item: "'Add tests'", "task #3 'Update the docs'",
// "task #2 'Write the parser' of plan build".
func heldName(h hold.Held) string {
	name := quote(h.Item)
	if h.Task {
		name = taskName(h.ID, h.Item)
	}
	if h.Plan != "" {
		name += " of plan " + render.Sanitize(h.Plan)
	}
	return name
}

// heldSays says what happened to a held item: still unfinished (and what
// blocks it), or how it left the plan.
func heldSays(h hold.Held) string {
	was := statusWords(h.Status)
	switch h.How {
	case "":
		says := "is still " + was
		if len(h.Blockers) > 0 {
			says += " (blocked by #" + strings.Join(h.Blockers, ", #") + ")"
		}
		return says
	case hold.LossReplaced:
		return "was replaced by " + quote(h.To) + " while " + was
	case hold.LossDoneRenamed:
		return "was reworded to " + quote(h.To) + " and marked completed in the same change, while " + was
	case hold.LossCancelled:
		return "was cancelled while " + was
	}
	if h.Task {
		return "was deleted while " + was
	}
	return "was removed while " + was
}

// quote is an item's text as a reason names it: neutralised, cut, quoted.
func quote(s string) string {
	return "'" + plan.Shorten(render.Sanitize(s), maxQuoted) + "'"
}

// statusWords says a status: "pending", "in progress".
func statusWords(s string) string {
	if s == todo.StatusInProgress {
		return "in progress"
	}
	if s == "" {
		return "pending"
	}
	return render.Sanitize(s)
}

// taskName names a task: "task #3 'Update the docs'".
func taskName(id, subject string) string {
	if id == "" {
		return quote(subject)
	}
	return "task #" + render.Sanitize(id) + " " + quote(strings.TrimPrefix(subject, "#"+id+" "))
}
