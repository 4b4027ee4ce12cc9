package hold

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/todo-shell/todo-shell/internal/plan"
	"github.com/todo-shell/todo-shell/render"
	"github.com/todo-shell/todo-shell/tools/todo"
)

// DefaultMaxBlocks is how many times a stop is held in one prompt unless
// told otherwise.
const DefaultMaxBlocks = 2

// StopInput is what a Stop hook was told.
type StopInput struct {
	// PromptID is the agent's own id of the prompt the stop ends (Claude
	// Code's prompt_id, Codex's turn_id); "" when it gives none, and the
	// person's last prompt read in the transcript counts instead.
	PromptID string
	// Active is the agent's stop_hook_active: this stop follows a turn a
	// Stop hook made the agent take.
	Active bool
	// MaxBlocks is how many stops may be held in one prompt (0: none).
	MaxBlocks int
}

// Held is one thing a stop is held for.
type Held struct {
	Text string // the item as the reason names it (untrusted text, neutralised)
	Says string // what happened to it
}

// Verdict is a Stop hook's answer.
type Verdict struct {
	// Block holds the stop: Reason goes to the agent.
	Block  bool
	Reason string
	// Note, when the stop goes through with work left, says why to the
	// person (not to the agent).
	Note string
	// Held is what the plan still holds against the agent.
	Held []Held
	// Blocks is how many stops were held in this prompt, this one included.
	Blocks int
}

// Stop decides whether the agent may stop now. It holds the stop when the
// plan has unfinished items, or items that left it unfinished since the
// person's last prompt; never after the person interrupted (since the
// plan last changed), never more than in.MaxBlocks times in one prompt,
// and, when in.Active says another hook made the agent go on, only if
// this hook has held a stop in this prompt already. A held stop is
// counted in the state, which Close keeps.
func (s *Session) Stop(in StopInput) Verdict {
	st := s.st
	held := s.held()
	var v Verdict
	v.Held = held
	promptKey := in.PromptID
	if promptKey == "" {
		promptKey = st.Prompt.ID
	}
	n := 0
	if st.Blocks.Prompt == promptKey {
		n = st.Blocks.N
	}
	v.Blocks = n
	switch {
	case len(held) == 0:
		return v
	case st.Interrupted:
		v.Note = "todo-shell: the plan is not done (" + summary(held) + "), but you interrupted: the stop goes through."
		return v
	case in.MaxBlocks <= 0:
		return v
	case n >= in.MaxBlocks:
		v.Note = fmt.Sprintf("todo-shell: the stop goes through after %s: %s.", plural(n, "hold"), summary(held))
		return v
	case in.Active && n == 0:
		// Another hook made the agent go on: holding it as well could
		// keep it going round.
		return v
	}
	n++
	v.Block, v.Blocks = true, n
	v.Reason = reason(held, n, in.MaxBlocks)
	blocks := Blocks{Prompt: promptKey, N: n}
	st.Blocks = blocks
	if s.save != nil {
		s.save.Blocks = blocks
	}
	return v
}

// ReasonLead starts every reason a held stop sends. An agent that writes
// the reason into its transcript as a user message (Gemini CLI) has not
// had a prompt from the person: the reader knows it by this.
const ReasonLead = "The plan is not finished (todo-shell holds this stop"

// maxNamed is how many items a reason names; the rest are counted.
const maxNamed = 20

// reason is the text a held stop sends the agent.
func reason(held []Held, n, limit int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s, %d of at most %d for this prompt):\n", ReasonLead, n, limit)
	for i, h := range held {
		if i == maxNamed {
			fmt.Fprintf(&b, "- and %d more\n", len(held)-maxNamed)
			break
		}
		b.WriteString("- " + h.Text + " " + h.Says + "\n")
	}
	b.WriteString("Finish each item and mark it completed in the plan; put back an item you removed or reworded, and finish it. " +
		"If one cannot be done, keep it in the plan and tell the person why.")
	return b.String()
}

// summary is the held items in a few words, for the person.
func summary(held []Held) string {
	parts := make([]string, 0, 3)
	for i, h := range held {
		if i == 2 {
			parts = append(parts, "and "+strconv.Itoa(len(held)-2)+" more")
			break
		}
		parts = append(parts, h.Text+" "+h.Says)
	}
	return strings.Join(parts, "; ")
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

// quote is an item's text as a reason names it: neutralised, cut, quoted.
func quote(s string) string {
	return "'" + plan.Shorten(render.Sanitize(s), 120) + "'"
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

// held lists what the plan holds against the agent: the items left that
// left since the prompt, then those still unfinished.
func (s *Session) held() []Held {
	st := s.st
	var out []Held
	for _, l := range s.losses() {
		out = append(out, lossHeld(l))
	}
	if st.Plan != nil {
		for _, it := range st.Plan.Items {
			if unfinished(it.Status) {
				out = append(out, Held{Text: quote(it.Content), Says: "is still " + statusWords(it.Status)})
			}
		}
	}
	tasks := st.Tasks
	if s.taskFiles != nil {
		tasks = s.taskFiles
	}
	if tasks != nil {
		for i, it := range tasks.Items {
			if unfinished(it.Status) {
				out = append(out, Held{Text: taskName(keyAt(tasks.version(), i), it.Content), Says: "is still " + statusWords(it.Status)})
			}
		}
	}
	if sh := st.Shared; sh != nil {
		for i := range sh.State.Tasks {
			t := &sh.State.Tasks[i]
			if unfinished(t.Status) && sh.Mine(t, s.src.Owner) {
				says := "is still " + statusWords(t.Status)
				if open := sh.State.OpenBlockers(*t); len(open) > 0 {
					says += " (blocked by #" + strings.Join(open, ", #") + ")"
				}
				out = append(out, Held{Text: taskName(t.ID, t.Subject) + " of plan " + render.Sanitize(sh.Name), Says: says})
			}
		}
	}
	return out
}

// taskName names a task: "task #3 'Update the docs'".
func taskName(id, subject string) string {
	if id == "" {
		return quote(subject)
	}
	return "task #" + render.Sanitize(id) + " " + quote(strings.TrimPrefix(subject, "#"+id+" "))
}

// lossHeld says what happened to an item that left the plan.
func lossHeld(l Loss) Held {
	name := quote(l.Item)
	if l.Task {
		name = taskName(l.Key, l.Item)
	}
	was := statusWords(l.Was)
	switch l.How {
	case LossReplaced:
		return Held{Text: name, Says: "was replaced by " + quote(l.To) + " while " + was}
	case LossDoneRenamed:
		return Held{Text: name, Says: "was reworded to " + quote(l.To) + " and marked completed in the same change, while " + was}
	case LossCancelled:
		return Held{Text: name, Says: "was cancelled while " + was}
	}
	if l.Task {
		return Held{Text: name, Says: "was deleted while " + was}
	}
	return Held{Text: name, Says: "was removed while " + was}
}

// Context is the shared plan as context for the agent, and whether it is
// new to this session (another version than the one last given). It is
// "" when no shared plan is named.
func (s *Session) Context() (text string, changed bool) {
	sh := s.st.Shared
	if sh == nil {
		return "", false
	}
	var b strings.Builder
	fmt.Fprintf(&b, "This session works on the todo-shell task plan %q, shared with other agents and people (version %d).\n",
		render.Sanitize(sh.Name), sh.State.Version)
	if len(sh.State.Tasks) == 0 {
		b.WriteString("It has no tasks yet.\n")
	} else {
		list := render.PlainTasks(sh.State)
		if len(list) > maxContext {
			list = list[:maxContext] + "\n… (cut: the plan is longer; TaskList shows all of it)\n"
		}
		b.WriteString("Its tasks now:\n" + list + "\n")
	}
	b.WriteString("Keep it with the todo-shell tools (TaskList, TaskGet, TaskCreate, TaskUpdate): take a free task before you work on it, " +
		"and mark it completed when it is done. The stop hook holds you to the tasks you own or created.")
	return b.String(), s.st.Context != sh.State.Version+1
}

// GaveContext notes that the shared plan's current version was given.
func (s *Session) GaveContext() {
	if sh := s.st.Shared; sh != nil {
		s.st.Context = sh.State.Version + 1
		if s.save != nil {
			s.save.Context = sh.State.Version + 1
		}
	}
}

// maxContext caps the task list a context carries, in bytes.
const maxContext = 6000
