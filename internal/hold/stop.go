package hold

import "github.com/todo-shell/todo-shell/tools/task"

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

// Held is one thing a stop is held for: an item of the plan, still in it
// unfinished or gone from it unfinished, as the plan has it. Its texts are
// the files' own (untrusted): whoever shows them neutralises them.
type Held struct {
	// Item is the item's text (a task's subject) as the plan has it.
	Item string
	// ID is the task's id ("" for a todo, or for a task that has none).
	ID string
	// Task is set for a task (of a task list or a shared plan), not a todo.
	Task bool
	// Plan is the shared plan's name, for a task still in a shared plan
	// ("" otherwise: a task that left one is not told apart).
	Plan string
	// Status is the item's status now, or when it left the plan.
	Status string
	// How is how it left the plan (LossRemoved, LossReplaced,
	// LossDoneRenamed, LossCancelled); "" while it is still in the plan,
	// unfinished.
	How string
	// To is what it became (LossReplaced, LossDoneRenamed).
	To string
	// Blockers are the ids of the open tasks that block a task of a shared
	// plan.
	Blockers []string
}

// Through is why a stop goes through though the plan holds items against
// the agent: what the person is told.
type Through uint8

// Why a stop goes through.
const (
	// ThroughUnsaid: the stop is held, nothing is held against the agent,
	// or it goes through with nothing to tell (holding is off, or another
	// hook made the agent go on).
	ThroughUnsaid Through = iota
	// ThroughInterrupted: the person interrupted since the plan last
	// changed.
	ThroughInterrupted
	// ThroughLimit: the stop was held MaxBlocks times in this prompt.
	ThroughLimit
)

// Verdict is a Stop hook's answer, as data: package hook words it.
type Verdict struct {
	// Block holds the stop: the agent is to go on.
	Block bool
	// Held is what the plan still holds against the agent.
	Held []Held
	// Blocks is how many stops were held in this prompt, this one included.
	Blocks int
	// MaxBlocks is how many stops may be held in this prompt
	// (StopInput.MaxBlocks).
	MaxBlocks int
	// Through, when the stop goes through with items held, is why (to be
	// told to the person, not to the agent).
	Through Through
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
	v := Verdict{Held: held, MaxBlocks: in.MaxBlocks}
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
		v.Through = ThroughInterrupted
		return v
	case in.MaxBlocks <= 0:
		return v
	case n >= in.MaxBlocks:
		v.Through = ThroughLimit
		return v
	case in.Active && n == 0:
		// Another hook made the agent go on: holding it as well could
		// keep it going round.
		return v
	}
	n++
	v.Block, v.Blocks = true, n
	blocks := Blocks{Prompt: promptKey, N: n}
	st.Blocks = blocks
	if s.save != nil {
		s.save.Blocks = blocks
	}
	return v
}

// ReasonLead starts every reason a held stop sends (package hook writes
// the reason). An agent that writes the reason into its transcript as a
// user message (Gemini CLI) has not had a prompt from the person: the
// reader knows it by this.
const ReasonLead = "The plan is not finished (todo-shell holds this stop"

// held lists what the plan holds against the agent: the items that left
// it unfinished since the prompt, then those still unfinished (the list,
// the task list, the agent's own tasks of the shared plan).
func (s *Session) held() []Held {
	st := s.st
	var out []Held
	for _, l := range s.losses() {
		out = append(out, lossHeld(l))
	}
	if st.Plan != nil {
		for _, it := range st.Plan.Items {
			if unfinished(it.Status) {
				out = append(out, Held{Item: it.Content, Status: it.Status})
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
				out = append(out, Held{Item: it.Content, ID: keyAt(tasks.version(), i), Task: true, Status: it.Status})
			}
		}
	}
	return append(out, s.sharedHeld()...)
}

// sharedHeld is the agent's own unfinished tasks of the shared plan.
func (s *Session) sharedHeld() []Held {
	sh := s.st.Shared
	if sh == nil {
		return nil
	}
	var out []Held
	for i := range sh.State.Tasks {
		t := &sh.State.Tasks[i]
		if unfinished(t.Status) && sh.Mine(t, s.src.Owner) {
			out = append(out, Held{Item: t.Subject, ID: t.ID, Task: true, Plan: sh.Name, Status: t.Status, Blockers: sh.State.OpenBlockers(*t)})
		}
	}
	return out
}

// lossHeld is an item that left the plan, as a stop is held for it.
func lossHeld(l Loss) Held {
	h := Held{Item: l.Item, Task: l.Task, Status: l.Was, How: l.How, To: l.To}
	if l.Task {
		h.ID = l.Key
	}
	return h
}

// PlanContext is the shared plan as the agent is told it at the start of
// a session or with a prompt: package hook words it.
type PlanContext struct {
	// Name is the plan's name.
	Name string
	// State is its tasks now (a copy of the session's).
	State task.State
}

// Context is the shared plan as context for the agent (nil when no shared
// plan is named), and whether it is new to this session (another version
// than the one last given).
func (s *Session) Context() (c *PlanContext, changed bool) {
	sh := s.st.Shared
	if sh == nil {
		return nil, false
	}
	return &PlanContext{Name: sh.Name, State: sh.State.Clone()}, s.st.Context != sh.State.Version+1
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
