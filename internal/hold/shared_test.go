package hold

import (
	"errors"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/todo-shell/todo-shell/tools/task"
	"github.com/todo-shell/todo-shell/tools/todo"
)

// planWriter changes a shared plan the way todo-shell mcp does.
type planWriter struct {
	t     *testing.T
	store *task.Store
	now   time.Time
}

func newPlan(t *testing.T, dir string, now time.Time) *planWriter {
	w := &planWriter{t: t, now: now}
	s, err := task.OpenStore(dir, func() time.Time { return w.now })
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	w.store = s
	return w
}

func (w *planWriter) create(by, subject string) {
	w.t.Helper()
	_, err := w.store.Do(task.Record{Tool: "TaskCreate", By: by}, func(s task.State) (task.Change, error) {
		c, _, err := task.Create(s, task.CreateInput{Subject: subject}, todo.DefaultLimits())
		return c, err
	})
	if err != nil {
		w.t.Fatal(err)
	}
}

func (w *planWriter) update(by, id string, status, owner *string) {
	w.t.Helper()
	_, err := w.store.Do(task.Record{Tool: "TaskUpdate", By: by}, func(s task.State) (task.Change, error) {
		c, _, err := task.Update(s, task.UpdateInput{TaskID: id, Status: status, Owner: owner}, todo.DefaultLimits(), by)
		return c, err
	})
	if err != nil {
		w.t.Fatal(err)
	}
}

func ptr(s string) *string { return &s }

// TestSharedPlanHoldsWhatIsMine: the agent is held to the tasks of the
// shared plan it owns or created and nobody took, not to other agents';
// a task of its own deleted unfinished since the person's prompt is named;
// the plan is given as context once per version.
func TestSharedPlanHoldsWhatIsMine(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	planDir := filepath.Join(dir, "plans", "build")
	t0 := time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC)
	w := newPlan(t, planDir, t0)
	w.create("claude-code", "Read the spec")    // #1
	w.create("claude-code", "Write the parser") // #2
	w.create("codex", "Write the lexer")        // #3: codex's
	w.create("claude-code", "Update the docs")  // #4
	w.update("claude-code", "1", ptr("completed"), nil)
	w.update("codex", "3", ptr("in_progress"), nil)

	// The person's prompt comes after those; then #4 is deleted.
	transcript := filepath.Join(dir, "s.jsonl")
	writeLines(t, transcript, [][]byte{[]byte(`{"parentUuid":null,"isSidechain":false,"promptId":"p1","type":"user","message":{"role":"user","content":"Build it"},"uuid":"u1","timestamp":"2026-11-28T09:30:00.000Z"}` + "\n")})
	w.now = t0.Add(time.Hour)
	w.update("claude-code", "4", ptr("deleted"), nil)

	store := Store{Dir: filepath.Join(dir, "state")}
	src := Source{Transcript: transcript, PlanName: "build", PlanDir: planDir, Owner: "claude-code"}
	s, err := Open(store, src, 0, true)
	if err != nil {
		t.Fatal(err)
	}
	v := s.Stop(StopInput{MaxBlocks: 2})
	docsDeleted := Held{Item: "Update the docs", ID: "4", Task: true, Status: todo.StatusPending, How: LossRemoved}
	want := []Held{docsDeleted, {Item: "Write the parser", ID: "2", Task: true, Plan: "build", Status: todo.StatusPending}}
	if !reflect.DeepEqual(v.Held, want) || !v.Block {
		t.Fatalf("held:\n%+v\nwant:\n%+v", v.Held, want)
	}
	c, changed := s.Context()
	if !changed || c == nil || c.Name != "build" || !hasTask(c.State, "2", "Write the parser") || !hasTask(c.State, "3", "Write the lexer") {
		t.Fatalf("context %v: %+v", changed, c)
	}
	// The context's tasks are a copy: changing them changes no session.
	for i := range c.State.Tasks {
		c.State.Tasks[i].Subject = "changed"
	}
	if c, _ := s.Context(); !hasTask(c.State, "2", "Write the parser") {
		t.Fatalf("the context's tasks are the session's: %+v", c.State.Tasks)
	}
	s.GaveContext()
	if view := s.View(); len(view.Items) != 3 || view.Dropped != 1 {
		t.Fatalf("view %+v", view)
	}
	s.Close()

	// Read again: nothing new, the context already given.
	s, _ = Open(store, src, 0, true)
	if _, changed := s.Context(); changed {
		t.Error("the same version given twice")
	}
	s.Close()
	// Another agent takes #2: it is theirs now; completing... nothing of
	// ours is left but the deleted task.
	w.update("codex", "2", nil, ptr("codex"))
	s, _ = Open(store, src, 0, true)
	if got := s.held(); !reflect.DeepEqual(got, []Held{docsDeleted}) {
		t.Fatalf("after #2 was taken:\n%+v", got)
	}
	if _, changed := s.Context(); !changed {
		t.Error("a new version not given")
	}
	s.Close()
	// A deletion before the prompt is not held (another prompt's doing).
	writeLines(t, transcript, [][]byte{[]byte(`{"type":"user","promptId":"p2","message":{"role":"user","content":"Next"},"uuid":"u2","timestamp":"2026-11-28T11:00:00.000Z"}` + "\n")})
	s, _ = Open(store, src, 0, true)
	if got := s.held(); len(got) != 0 {
		t.Fatalf("after a new prompt:\n%+v", got)
	}
	s.Close()
}

// hasTask reports whether st has task id with subject.
func hasTask(st task.State, id, subject string) bool {
	t, ok := st.Get(id)
	return ok && t.Subject == subject
}

// TestSharedPlanAlone: a shared plan with no transcript (status --plan).
func TestSharedPlanAlone(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	planDir := filepath.Join(dir, "plans", "p")
	w := newPlan(t, planDir, time.Now())
	w.create("a", "One")
	w.update("a", "1", ptr("in_progress"), nil)
	w.create("a", "Two")
	s, err := Open(Store{Dir: filepath.Join(dir, "state")}, Source{PlanName: "p", PlanDir: planDir}, 1<<20, false)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	v := s.View()
	if len(v.Items) != 2 || v.Items[0].Status != todo.StatusInProgress {
		t.Fatalf("%+v", v)
	}
	if _, err := Open(Store{Dir: dir}, Source{}, 0, false); !errors.Is(err, ErrNoSource) {
		t.Fatalf("no source: %v", err)
	}
}
