package hook

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/todo-shell/todo-shell/internal/golden"
	"github.com/todo-shell/todo-shell/internal/hold"
	"github.com/todo-shell/todo-shell/tools/task"
	"github.com/todo-shell/todo-shell/tools/todo"
)

// The wording of the Stop hook (the reason a held stop sends the agent,
// the note a stop let through sends the person) and of the shared plan's
// context, for stops and plans of every kind, against
// testdata/stop_wording.golden: written once by the wording as it was in
// internal/hold, it must not change.

// reasonOf, noteOf and contextOf are the wording under test.
func reasonOf(v hold.Verdict) string { return Reason(v) }

func noteOf(v hold.Verdict) string { return Note(v) }

func contextOf(s *hold.Session) (string, bool) {
	c, changed := s.Context()
	if c == nil {
		return "", changed
	}
	return SharedContext(c.Name, c.State), changed
}

// evil is an item that tries to reach the terminal (OSC 52) and to start
// a line of its own.
const evil = "evil\x1b]52;c;aGk=\x07\nnext"

// transcript writes a Claude Code 2.1.332 transcript, record by record, in
// the shape of internal/hold's fixtures.
type transcript struct {
	b bytes.Buffer
	n int // calls so far, for their ids
	t time.Time
}

func newTranscript() *transcript {
	return &transcript{t: time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC)}
}

func (w *transcript) ts() string {
	w.t = w.t.Add(time.Second)
	return w.t.Format("2006-01-02T15:04:05.000Z")
}

func js(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func (w *transcript) prompt(id, text string) {
	fmt.Fprintf(&w.b, `{"parentUuid":null,"isSidechain":false,"promptId":%s,"type":"user","message":{"role":"user","content":%s},"uuid":"u-%s","timestamp":"%s"}`+"\n",
		js(id), js(text), id, w.ts())
}

// call writes a tool call and its result (extra: more fields of the
// result record, each with its leading comma).
func (w *transcript) call(name, input, result, extra string) {
	w.n++
	id := fmt.Sprintf("toolu_%d", w.n)
	at := w.ts()
	fmt.Fprintf(&w.b, `{"parentUuid":"p","isSidechain":false,"message":{"content":[{"id":"%s","input":%s,"name":"%s","type":"tool_use"}],"id":"msg_%s","model":"claude-sonnet-4-5","role":"assistant","stop_reason":"tool_use","type":"message"},"type":"assistant","uuid":"a-%s","timestamp":"%s","sessionId":"s","version":"2.1.332"}`+"\n",
		id, input, name, id, id, at)
	fmt.Fprintf(&w.b, `{"parentUuid":"a-%s","isSidechain":false,"type":"user","message":{"role":"user","content":[{"tool_use_id":"%s","type":"tool_result","content":%s}]},"uuid":"r-%s","timestamp":"%s"%s,"sessionId":"s","version":"2.1.332"}`+"\n",
		id, id, js(result), id, at, extra)
}

// todos writes a TodoWrite of "text=status" items (p, i, c).
func (w *transcript) todos(items ...string) {
	var list []todo.Item
	for _, s := range items {
		i := strings.LastIndex(s, "=")
		st := map[string]string{"p": todo.StatusPending, "i": todo.StatusInProgress, "c": todo.StatusCompleted}[s[i+1:]]
		list = append(list, todo.Item{Content: s[:i], Status: st, ActiveForm: s[:i]})
	}
	in := js(map[string]any{"todos": list})
	w.call("TodoWrite", in, "Todos have been modified successfully.", `,"toolUseResult":{"oldTodos":[],"newTodos":`+js(list)+`}`)
}

func (w *transcript) taskCreate(id, subject string) {
	w.call("TaskCreate", js(map[string]string{"subject": subject, "description": "d", "activeForm": subject}),
		"Task #"+id+" created successfully: "+subject, `,"toolUseResult":{"task":{"id":`+js(id)+`,"subject":`+js(subject)+`}}`)
}

func (w *transcript) taskUpdate(input map[string]string) {
	w.call("TaskUpdate", js(input), "Updated task #"+input["taskId"], "")
}

func (w *transcript) end() {
	fmt.Fprintf(&w.b, `{"parentUuid":"p","isSidechain":false,"message":{"content":[{"text":"All done.","type":"text"}],"role":"assistant","type":"message"},"type":"assistant","uuid":"done-%d","timestamp":"%s"}`+"\n", w.n, w.ts())
}

// wording is what the golden file holds: each case's answers in turn.
type wording struct {
	t   *testing.T
	dir string
	out bytes.Buffer
}

// stops asks src's session for stops in turn, one per input, each in a
// session of its own (as the hook does), and writes what each says.
func (w *wording) stops(name string, src hold.Source, ins ...hold.StopInput) {
	w.t.Helper()
	store := hold.Store{Dir: filepath.Join(w.dir, "state", name)}
	for i, in := range ins {
		s, err := hold.Open(store, src, 0, true)
		if err != nil {
			w.t.Fatalf("%s: %v", name, err)
		}
		v := s.Stop(in)
		if err := s.Close(); err != nil {
			w.t.Fatal(err)
		}
		fmt.Fprintf(&w.out, "== %s, stop %d (max %d, active %v): block %v, %d held, %d blocks\n", name, i+1, in.MaxBlocks, in.Active, v.Block, len(v.Held), v.Blocks)
		fmt.Fprintf(&w.out, "-- reason\n%s\n-- note\n%s\n", reasonOf(v), noteOf(v))
	}
}

// context writes the shared plan's context of src, twice: the second
// time after it was given.
func (w *wording) context(name string, src hold.Source) {
	w.t.Helper()
	store := hold.Store{Dir: filepath.Join(w.dir, "state", name)}
	for i := 0; i < 2; i++ {
		s, err := hold.Open(store, src, 0, true)
		if err != nil {
			w.t.Fatalf("%s: %v", name, err)
		}
		text, changed := contextOf(s)
		s.GaveContext()
		if err := s.Close(); err != nil {
			w.t.Fatal(err)
		}
		fmt.Fprintf(&w.out, "== %s, context %d: changed %v\n%s\n", name, i+1, changed, text)
	}
}

// file writes data to a file of its own and returns its path.
func (w *wording) file(name string, data []byte) string {
	w.t.Helper()
	path := filepath.Join(w.dir, name)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		w.t.Fatal(err)
	}
	return path
}

// sharedPlan is a shared plan in dir written the way todo-shell mcp
// writes one, every change at a time after the one before.
type sharedPlan struct {
	t     *testing.T
	store *task.Store
	now   time.Time
}

func newSharedPlan(t *testing.T, dir string, now time.Time) *sharedPlan {
	p := &sharedPlan{t: t, now: now}
	s, err := task.OpenStore(dir, func() time.Time { return p.now })
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	p.store = s
	return p
}

func (p *sharedPlan) create(by, subject string) {
	p.t.Helper()
	p.do(by, "TaskCreate", func(s task.State) (task.Change, error) {
		limits := todo.DefaultLimits()
		limits.MaxItems = 1000
		c, _, err := task.Create(s, task.CreateInput{Subject: subject, ActiveForm: "Doing: " + subject}, limits)
		return c, err
	})
}

func (p *sharedPlan) update(by string, in task.UpdateInput) {
	p.t.Helper()
	p.do(by, "TaskUpdate", func(s task.State) (task.Change, error) {
		c, _, err := task.Update(s, in, todo.DefaultLimits(), by)
		return c, err
	})
}

func (p *sharedPlan) do(by, tool string, f func(task.State) (task.Change, error)) {
	p.t.Helper()
	p.now = p.now.Add(time.Second)
	if _, err := p.store.Do(task.Record{Tool: tool, By: by}, f); err != nil {
		p.t.Fatal(err)
	}
}

func str(s string) *string { return &s }

func TestStopWordingGolden(t *testing.T) {
	t.Parallel()
	w := &wording{t: t, dir: t.TempDir()}
	fixture, err := os.ReadFile("../hold/testdata/claude-code-2.1.332_hook.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	ls := bytes.SplitAfter(fixture, []byte("\n"))
	first := hold.Source{Transcript: w.file("fixture.jsonl", bytes.Join(ls[:33], nil))}
	w.stops("fixture, limit 2", first, hold.StopInput{MaxBlocks: 2}, hold.StopInput{MaxBlocks: 2, Active: true}, hold.StopInput{MaxBlocks: 2, Active: true},
		hold.StopInput{MaxBlocks: 2, PromptID: "next"})
	w.stops("fixture, limit 1", first, hold.StopInput{MaxBlocks: 1}, hold.StopInput{MaxBlocks: 1, Active: true})
	w.stops("fixture, limit 3", first, hold.StopInput{MaxBlocks: 3}, hold.StopInput{MaxBlocks: 3, Active: true}, hold.StopInput{MaxBlocks: 3, Active: true}, hold.StopInput{MaxBlocks: 3, Active: true})
	w.stops("fixture, another hook's turn", first, hold.StopInput{MaxBlocks: 2, Active: true})
	w.stops("fixture, never held", first, hold.StopInput{MaxBlocks: 0})
	w.stops("fixture, done", hold.Source{Transcript: w.file("done.jsonl", fixture)}, hold.StopInput{MaxBlocks: 2})
	interrupt, err := os.ReadFile("../hold/testdata/claude-code-2.1.332_interrupt.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	w.stops("interrupted", hold.Source{Transcript: w.file("interrupt.jsonl", interrupt)}, hold.StopInput{MaxBlocks: 2})

	w.stops("hostile and long items", hold.Source{Transcript: w.file("hostile.jsonl", hostileTodos())},
		hold.StopInput{MaxBlocks: 2}, hold.StopInput{MaxBlocks: 2, Active: true}, hold.StopInput{MaxBlocks: 2, Active: true})
	w.stops("many items", hold.Source{Transcript: w.file("many.jsonl", manyTodos(25))}, hold.StopInput{MaxBlocks: 2},
		hold.StopInput{MaxBlocks: 2, Active: true}, hold.StopInput{MaxBlocks: 2, Active: true})
	w.stops("exactly 20 items", hold.Source{Transcript: w.file("twenty.jsonl", manyTodos(20))}, hold.StopInput{MaxBlocks: 1})
	w.stops("three items", hold.Source{Transcript: w.file("three.jsonl", manyTodos(3))}, hold.StopInput{MaxBlocks: 1}, hold.StopInput{MaxBlocks: 1, Active: true})
	w.stops("task tools", hold.Source{Transcript: w.file("tasks.jsonl", taskTools())}, hold.StopInput{MaxBlocks: 2},
		hold.StopInput{MaxBlocks: 2, Active: true}, hold.StopInput{MaxBlocks: 2, Active: true})
	sharedCases(w)
	golden.Check(t, filepath.Join("testdata", "stop_wording.golden"), w.out.Bytes())
}

// hostileTodos is a TodoWrite plan after a prompt: items with escapes, a
// long one, one removed, one replaced, one reworded and completed.
func hostileTodos() []byte {
	w := newTranscript()
	w.prompt("p1", "Build it")
	long := strings.Repeat("a long item ", 50)
	w.todos("Write the parser=i", evil+"=p", golden.Hostile+"=i", long+"=p", "Add tests=p", "Write tests for the lexer=i", "Polish=p")
	w.todos("Write the parser=i", golden.Hostile+"=i", long+"=p", "Review the coverage report=c", "Write unit tests for the lexer=c", "Polish=p")
	w.end()
	return w.b.Bytes()
}

// manyTodos is a plan of n items, every one pending.
func manyTodos(n int) []byte {
	w := newTranscript()
	w.prompt("p1", "Build it")
	var items []string
	for i := 0; i < n; i++ {
		items = append(items, fmt.Sprintf("Step %d=p", i+1))
	}
	w.todos(items...)
	w.end()
	return w.b.Bytes()
}

// taskTools is a task list (the Task tools) after a prompt: a task
// deleted, one reworded and completed, one whose subject names its id,
// one with escapes.
func taskTools() []byte {
	w := newTranscript()
	w.prompt("p1", "Build it")
	for i, s := range []string{"Read the spec", "Write the parser", "#3 Update the docs", evil, "Write tests", "Ship it"} {
		w.taskCreate(fmt.Sprint(i+1), s)
	}
	w.taskUpdate(map[string]string{"taskId": "1", "status": "completed"})
	w.taskUpdate(map[string]string{"taskId": "2", "status": "in_progress"})
	w.taskUpdate(map[string]string{"taskId": "5", "status": "deleted"})
	w.taskUpdate(map[string]string{"taskId": "6", "subject": "Shipped", "status": "completed"})
	w.end()
	return w.b.Bytes()
}

// sharedCases are the stops and contexts of shared plans: one with tasks
// of this agent's and another's, blocked, deleted, hostile; one with no
// tasks; one too long to give whole.
func sharedCases(w *wording) {
	t0 := time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC)
	planDir := filepath.Join(w.dir, "plans", "build")
	p := newSharedPlan(w.t, planDir, t0)
	p.create("claude-code", "Read the spec")    // #1
	p.create("claude-code", "Write the parser") // #2
	p.create("codex", "Write the lexer")        // #3: codex's
	p.create("claude-code", "Update the docs")  // #4
	p.create("claude-code", evil)               // #5
	p.create("claude-code", golden.Hostile)     // #6
	p.create("claude-code", "Test the parser")  // #7
	p.update("claude-code", task.UpdateInput{TaskID: "1", Status: str(task.StatusCompleted)})
	p.update("codex", task.UpdateInput{TaskID: "3", Status: str(task.StatusInProgress)})
	p.update("claude-code", task.UpdateInput{TaskID: "2", Status: str(task.StatusInProgress)})
	p.update("claude-code", task.UpdateInput{TaskID: "7", AddBlockedBy: []string{"2", "3", "1"}})
	p.update("claude-code", task.UpdateInput{TaskID: "6", Owner: str("claude-code")})
	tr := newTranscript()
	tr.t = t0.Add(30 * time.Minute)
	tr.prompt("p1", "Build it")
	p.now = t0.Add(time.Hour)
	p.update("claude-code", task.UpdateInput{TaskID: "4", Status: str(task.StatusDeleted)})
	src := hold.Source{Transcript: w.file("shared.jsonl", tr.b.Bytes()), PlanName: "build", PlanDir: planDir, Owner: "claude-code"}
	w.stops("shared plan", src, hold.StopInput{MaxBlocks: 2}, hold.StopInput{MaxBlocks: 2, Active: true}, hold.StopInput{MaxBlocks: 2, Active: true})
	w.context("shared plan", src)
	w.context("shared plan alone", hold.Source{PlanName: "build", PlanDir: planDir, Owner: "codex"})

	empty := filepath.Join(w.dir, "plans", "empty")
	newSharedPlan(w.t, empty, t0)
	w.context("shared plan, no tasks", hold.Source{PlanName: "empty", PlanDir: empty})

	bigDir := filepath.Join(w.dir, "plans", "big")
	big := newSharedPlan(w.t, bigDir, t0)
	for i := 0; i < 150; i++ {
		big.create("claude-code", fmt.Sprintf("Task %d of a plan too long to be given whole as context é", i+1))
	}
	w.context("shared plan, long", hold.Source{PlanName: "big", PlanDir: bigDir})
	// A cut that would fall inside a character falls before it: the
	// context stays valid UTF-8.
	wideDir := filepath.Join(w.dir, "plans", "wide")
	wide := newSharedPlan(w.t, wideDir, t0)
	for i := 0; i < 90; i++ {
		wide.create("claude-code", strings.Repeat("é", 40+i%2))
	}
	w.context("shared plan, long, cut in a character", hold.Source{PlanName: "wide", PlanDir: wideDir})
}

// TestHeldLine: how a reason and a note say one held item: quoted,
// neutralised (hostile text cannot reach the terminal or start a line),
// a task by its id, a task of a shared plan with its plan and blockers.
func TestHeldLine(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		h    hold.Held
		want string
	}{
		{hold.Held{Item: "Add tests", Status: "pending", How: hold.LossRemoved}, "'Add tests' was removed while pending"},
		{hold.Held{Item: "Add tests", Status: "in_progress", How: hold.LossReplaced, To: "Review"}, "'Add tests' was replaced by 'Review' while in progress"},
		{hold.Held{Item: "Write tests", Status: "pending", How: hold.LossDoneRenamed, To: "Tests written"}, "'Write tests' was reworded to 'Tests written' and marked completed in the same change, while pending"},
		{hold.Held{Item: "Docs", ID: "3", Task: true, Status: "in_progress", How: hold.LossRemoved}, "task #3 'Docs' was deleted while in progress"},
		{hold.Held{Item: "A", Status: "pending", How: hold.LossCancelled}, "'A' was cancelled while pending"},
		// Hostile text: neutralised, and cut.
		{hold.Held{Item: evil, Status: "pending", How: hold.LossRemoved}, "'evil␛]52;c;aGk=␇ next' was removed while pending"},
		{hold.Held{Item: "Update the docs", Status: "in_progress"}, "'Update the docs' is still in progress"},
		{hold.Held{Item: "#3 Update the docs", ID: "3", Task: true, Status: "pending"}, "task #3 'Update the docs' is still pending"},
		{hold.Held{Item: "No id", Task: true, Status: "pending"}, "'No id' is still pending"},
		{hold.Held{Item: "Test the parser", ID: "7", Task: true, Plan: "build", Status: "pending", Blockers: []string{"2", "3"}},
			"task #7 'Test the parser' of plan build is still pending (blocked by #2, #3)"},
	} {
		if got := heldLine(tc.h); got != tc.want {
			t.Errorf("got  %q\nwant %q", got, tc.want)
		}
	}
	long := quote(strings.Repeat("x", 500))
	if n := len([]rune(long)); n > 122 {
		t.Errorf("a long item is %d characters in the reason", n)
	}
}

// stopAt is the verdict of a stop at the first n lines of internal/hold's
// fixture name (all of them for n < 0), in the state of store: one
// transcript per store, written over at each stop.
func stopAt(t *testing.T, store hold.Store, name string, n int, in hold.StopInput) hold.Verdict {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "hold", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	if ls := bytes.SplitAfter(b, []byte("\n")); n >= 0 {
		b = bytes.Join(ls[:n], nil)
	}
	path := store.Dir + ".jsonl"
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := hold.Open(store, hold.Source{Transcript: path}, 0, true)
	if err != nil {
		t.Fatal(err)
	}
	v := s.Stop(in)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	return v
}

// TestStopWording: at internal/hold's fixture's first stop the reason
// names both items and the count; at its second, all done, nothing is
// said; after the person's Esc the note says they interrupted; past the
// limit it says the stop goes through.
func TestStopWording(t *testing.T) {
	t.Parallel()
	const hookFixture, interruptFixture = "claude-code-2.1.332_hook.jsonl", "claude-code-2.1.332_interrupt.jsonl"
	store := hold.Store{Dir: t.TempDir()}
	v := stopAt(t, store, hookFixture, 33, hold.StopInput{MaxBlocks: 2})
	reason := Reason(v)
	if !v.Block || !strings.HasPrefix(reason, hold.ReasonLead) || Note(v) != "" {
		t.Fatalf("first stop: %+v, reason %q, note %q", v, reason, Note(v))
	}
	for _, w := range []string{"'Add tests' was removed while pending", "'Update the docs' is still in progress", "1 of at most 2"} {
		if !strings.Contains(reason, w) {
			t.Errorf("reason %q lacks %q", reason, w)
		}
	}
	v = stopAt(t, store, hookFixture, 44, hold.StopInput{MaxBlocks: 2, Active: true})
	if v.Block || Reason(v) != "" || Note(v) != "" {
		t.Fatalf("second stop: %+v, reason %q, note %q", v, Reason(v), Note(v))
	}
	v = stopAt(t, hold.Store{Dir: t.TempDir()}, interruptFixture, -1, hold.StopInput{MaxBlocks: 2})
	if v.Block || Reason(v) != "" || !strings.Contains(Note(v), "you interrupted") {
		t.Fatalf("after the interrupt: %+v, note %q", v, Note(v))
	}
	for _, limit := range []int{1, 2, 3} {
		store := hold.Store{Dir: t.TempDir()}
		for i := 0; i < limit; i++ {
			if v := stopAt(t, store, hookFixture, 33, hold.StopInput{MaxBlocks: limit, Active: i > 0}); !v.Block || Note(v) != "" {
				t.Fatalf("limit %d, stop %d: %+v, note %q", limit, i+1, v, Note(v))
			}
		}
		v := stopAt(t, store, hookFixture, 33, hold.StopInput{MaxBlocks: limit, Active: true})
		if v.Block || Reason(v) != "" || !strings.Contains(Note(v), "goes through after") {
			t.Fatalf("limit %d, the stop after: %+v, note %q", limit, v, Note(v))
		}
	}
}

// TestSharedContext: the shared plan given as context names the plan and
// its tasks, another agent's too.
func TestSharedContext(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "plans", "build")
	p := newSharedPlan(t, dir, time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC))
	p.create("claude-code", "Read the spec")
	p.create("claude-code", "Write the parser")
	p.create("codex", "Write the lexer")
	p.update("codex", task.UpdateInput{TaskID: "3", Status: str(task.StatusInProgress)})
	s, err := hold.Open(hold.Store{Dir: t.TempDir()}, hold.Source{PlanName: "build", PlanDir: dir, Owner: "claude-code"}, 0, true)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	c, changed := s.Context()
	if c == nil || !changed {
		t.Fatalf("context %v: %+v", changed, c)
	}
	text := SharedContext(c.Name, c.State)
	for _, w := range []string{`task plan "build"`, "#2 Write the parser", "#3 Write the lexer"} {
		if !strings.Contains(text, w) {
			t.Errorf("context lacks %q:\n%s", w, text)
		}
	}
}

// FuzzStopWording: any transcript, stopped at three times: a held stop
// has a reason that starts with hold.ReasonLead, a stop let through none;
// a note is there exactly when the verdict gives why; neither carries a
// control character (the reason's own newlines aside) or invalid UTF-8.
func FuzzStopWording(f *testing.F) {
	for _, name := range []string{"claude-code-2.1.332_hook.jsonl", "claude-code-2.1.332_interrupt.jsonl"} {
		b, err := os.ReadFile(filepath.Join("..", "hold", "testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add(hostileTodos())
	f.Add(taskTools())
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(dir, "t.jsonl")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		store := hold.Store{Dir: filepath.Join(dir, "state")}
		os.RemoveAll(store.Dir)
		for i := 0; i < 3; i++ {
			s, err := hold.Open(store, hold.Source{Transcript: path}, 0, true)
			if err != nil {
				t.Fatal(err)
			}
			v := s.Stop(hold.StopInput{MaxBlocks: 2, Active: i > 0})
			s.Close()
			reason, note := Reason(v), Note(v)
			if v.Block != strings.HasPrefix(reason, hold.ReasonLead) || v.Block != (reason != "") ||
				(note != "") != (v.Through != hold.ThroughUnsaid) || !clean(reason, true) || !clean(note, false) {
				t.Fatalf("verdict %+v:\nreason %q\nnote %q", v, reason, note)
			}
		}
	})
}

// clean reports whether s is valid UTF-8 with no control character but,
// with lines, newlines.
func clean(s string, lines bool) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if r == '\n' && lines {
			continue
		}
		if r < 0x20 || r >= 0x7f && r < 0xa0 {
			return false
		}
	}
	return true
}
