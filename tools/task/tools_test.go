package task

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/todo-shell/todo-shell/tools"
	"github.com/todo-shell/todo-shell/tools/todo"
)

func newTools(t testing.TB, o Options) (*tools.Registry, *Store) {
	t.Helper()
	if o.Limits == (todo.Limits{}) {
		o.Limits = todo.DefaultLimits()
	}
	reg, store := tools.NewRegistry(), NewStore(nil)
	if err := Register(reg, store, o); err != nil {
		t.Fatal(err)
	}
	return reg, store
}

// step is one call and what it must answer.
type step struct {
	caller string // "" for none
	tool   string
	input  string
	want   string // the whole content, or a prefix ending in "…"
	isErr  bool
}

func run(t *testing.T, reg *tools.Registry, store *Store, steps []step) {
	t.Helper()
	for i, s := range steps {
		ctx := context.Background()
		if s.caller != "" {
			ctx = WithCaller(ctx, s.caller)
		}
		before := store.Snapshot()
		res := reg.Execute(ctx, "toolu_x", s.tool, json.RawMessage(s.input))
		got := res.Content
		ok := got == s.want
		if p, cut := strings.CutSuffix(s.want, "…"); cut {
			ok = strings.HasPrefix(got, p)
		}
		if !ok || res.IsError != s.isErr {
			t.Fatalf("step %d %s %s:\n got %q (is_error %v)\nwant %q (is_error %v)", i, s.tool, s.input, got, res.IsError, s.want, s.isErr)
		}
		if res.IsError && !reflect.DeepEqual(before, store.Snapshot()) {
			t.Fatalf("step %d: a rejected call changed the plan", i)
		}
	}
}

func create(subject string) step {
	return step{tool: CreateName, input: `{"subject":"` + subject + `","description":"d"}`, want: "…"}
}

func TestCreateUpdateListGet(t *testing.T) {
	t.Parallel()
	reg, store := newTools(t, Options{})
	run(t, reg, store, []step{
		{tool: ListName, input: `{}`, want: "No tasks"},
		{tool: CreateName, input: `{"subject":"Read the spec","description":"all of it","activeForm":"Reading the spec"}`, want: "Task #1 created successfully: Read the spec"},
		{tool: CreateName, input: `{"subject":"Write the parser","description":""}`, want: "Task #2 created successfully: Write the parser"},
		{tool: CreateName, input: `{"subject":"Write the tests","description":"d","metadata":{"prio":1,"gone":null}}`, want: "Task #3 created successfully: Write the tests"},
		{tool: UpdateName, input: `{"taskId":"3","addBlockedBy":["2"]}`, want: "Updated task #3 blockedBy"},
		{tool: UpdateName, input: `{"taskId":"1","status":"in_progress"}`, want: "Updated task #1 status"},
		{tool: ListName, input: `{}`, want: "#1 [in_progress] Read the spec\n#2 [pending] Write the parser (free)\n#3 [pending] Write the tests (blocked by #2)"},
		{tool: GetName, input: `{"taskId":"3"}`, want: "Task #3: Write the tests\nStatus: pending\nBlocked by: #2 (pending)\nMetadata: {\"prio\":1}\nDescription:\nd"},
		{tool: GetName, input: `{"taskId":"2"}`, want: "Task #2: Write the parser\nStatus: pending\nBlocks: #3\nFree to take: yes\nDescription: (none)"},
		{tool: UpdateName, input: `{"taskId":"3","metadata":{"prio":null,"k":"v"},"subject":"Write more tests"}`, want: "Updated task #3 subject, metadata"},
		{tool: GetName, input: `{"taskId":"3"}`, want: "Task #3: Write more tests\nStatus: pending\nBlocked by: #2 (pending)\nMetadata: {\"k\":\"v\"}\nDescription:\nd"},
		{tool: UpdateName, input: `{"taskId":"3","subject":"Write more tests"}`, want: "Task #3 is unchanged: it already has those values"},
		{tool: UpdateName, input: `{"taskId":"1","status":"completed"}`, want: "Updated task #1 status"},
		{tool: UpdateName, input: `{"taskId":"3","status":"completed"}`, want: "Updated task #3 status (completed while still blocked by #2, not completed yet)"},
		{tool: UpdateName, input: `{"taskId":"3","status":"deleted"}`, want: "Task #3 deleted"},
		{tool: GetName, input: `{"taskId":"2"}`, want: "Task #2: Write the parser\nStatus: pending\nFree to take: yes\nDescription: (none)"},
		create("After a deletion"),
		{tool: ListName, input: `{}`, want: "#1 [completed] Read the spec\n#2 [pending] Write the parser (free)\n#4 [pending] After a deletion (free)"},
	})
	if st := store.Snapshot(); st.NextID != 5 || st.Version != 10 {
		t.Fatalf("next id %d, version %d", st.NextID, st.Version)
	}
}

func TestRejections(t *testing.T) {
	t.Parallel()
	reg, store := newTools(t, Options{Limits: todo.Limits{MaxItems: 4, MaxContentLength: 10, MaxInProgress: 1}})
	run(t, reg, store, []step{
		create("a"), create("b"), create("c"),
		{tool: CreateName, input: `{"subject":"","description":"d"}`, want: "'subject' cannot be empty", isErr: true},
		{tool: CreateName, input: `{"subject":" \u200b ","description":"d"}`, want: "'subject' cannot be empty", isErr: true},
		{tool: CreateName, input: `{"description":"d"}`, want: "'subject' is required", isErr: true},
		{tool: CreateName, input: `{"subject":"a"}`, want: "'description' is required", isErr: true},
		{tool: CreateName, input: `{"subject":"abcdefghijk","description":""}`, want: "'subject' exceeds 10 characters", isErr: true},
		{tool: CreateName, input: `{"subject":"a","description":"","x":1}`, want: "Unknown field 'x'", isErr: true},
		{tool: CreateName, input: `{"subject":"a","description":"","metadata":[]}`, want: "'metadata' must be an object", isErr: true},
		{tool: CreateName, input: `[]`, want: "Input must be a JSON object", isErr: true},
		{tool: CreateName, input: `{"subject":"","description":"d","x":1}`, want: "Validation failed\n- 'subject' cannot be empty\n- Unknown field 'x'", isErr: true},
		{tool: CreateName, input: `{"subject":`, want: "Invalid JSON input: …", isErr: true},
		{tool: UpdateName, input: `{"taskId":"9","status":"completed"}`, want: "Task #9 not found", isErr: true},
		{tool: UpdateName, input: `{"taskId":1}`, want: "'taskId' must be a string", isErr: true},
		{tool: UpdateName, input: `{"taskId":"1","status":"done"}`, want: "Invalid status 'done'. Must be one of: pending, in_progress, completed, deleted", isErr: true},
		{tool: UpdateName, input: `{"taskId":"1","addBlocks":["1"]}`, want: "Task #1 cannot block itself", isErr: true},
		{tool: UpdateName, input: `{"taskId":"1","addBlocks":["7"]}`, want: "Task #7 not found", isErr: true},
		{tool: UpdateName, input: `{"taskId":"1","addBlocks":[2]}`, want: "'addBlocks' must be an array of task ids (strings)", isErr: true},
		{tool: UpdateName, input: `{"taskId":"1","addBlocks":["2"]}`, want: "Updated task #1 blocks"},
		{tool: UpdateName, input: `{"taskId":"2","addBlocks":["3"]}`, want: "Updated task #2 blocks"},
		{tool: UpdateName, input: `{"taskId":"3","addBlocks":["1"]}`, want: "Task #1 cannot be blocked by #3: that would make a cycle (#1 → #2 → #3 → #1)", isErr: true},
		{tool: UpdateName, input: `{"taskId":"1","addBlockedBy":["3"]}`, want: "Task #1 cannot be blocked by #3: that would make a cycle (#1 → #2 → #3 → #1)", isErr: true},
		{tool: UpdateName, input: `{"taskId":"1","status":"in_progress"}`, want: "Updated task #1 status"},
		{tool: UpdateName, input: `{"taskId":"2","status":"in_progress"}`, want: "Only one task can be in_progress at a time (#1 is); complete it or set it back to pending first", isErr: true},
		create("d"),
		{tool: CreateName, input: `{"subject":"e","description":""}`, want: "Too many tasks: the plan holds 4 (max 4); complete or delete some first", isErr: true},
		{tool: GetName, input: `{"taskId":"5"}`, want: "Task #5 not found", isErr: true},
		{tool: GetName, input: `{}`, want: "'taskId' is required", isErr: true},
		{tool: ListName, input: `{"a":1}`, want: "Unknown field 'a'", isErr: true},
	})
}

func TestOwners(t *testing.T) {
	t.Parallel()
	reg, store := newTools(t, Options{})
	run(t, reg, store, []step{
		create("a"), create("b"), create("c"),
		{caller: "alice", tool: UpdateName, input: `{"taskId":"1","status":"in_progress"}`, want: "Updated task #1 status, owner"},
		{caller: "bob", tool: UpdateName, input: `{"taskId":"1","owner":"bob"}`, want: "Task #1 is owned by alice", isErr: true},
		{caller: "bob", tool: UpdateName, input: `{"taskId":"1","status":"deleted"}`, want: "Task #1 is owned by alice; only they can delete it", isErr: true},
		// Nor may bob change the status of alice's task, even to the one
		// it has: "unchanged" would read as his own start.
		{caller: "bob", tool: UpdateName, input: `{"taskId":"1","status":"completed"}`, want: "Task #1 is owned by alice; only they can change its status", isErr: true},
		{caller: "bob", tool: UpdateName, input: `{"taskId":"1","status":"in_progress"}`, want: "Task #1 is owned by alice; only they can change its status", isErr: true},
		{caller: "bob", tool: UpdateName, input: `{"taskId":"1","status":"pending","subject":"b2"}`, want: "Task #1 is owned by alice; only they can change its status", isErr: true},
		// Nor any other field of it: what the task is, what it waits for.
		{caller: "bob", tool: UpdateName, input: `{"taskId":"1","subject":"b2"}`, want: "Task #1 is owned by alice; only they can change its subject", isErr: true},
		{caller: "bob", tool: UpdateName, input: `{"taskId":"1","subject":"a"}`, want: "Task #1 is owned by alice; only they can change its subject", isErr: true},
		{caller: "bob", tool: UpdateName, input: `{"taskId":"1","description":"d"}`, want: "Task #1 is owned by alice; only they can change its description", isErr: true},
		{caller: "bob", tool: UpdateName, input: `{"taskId":"1","activeForm":"Doing b"}`, want: "Task #1 is owned by alice; only they can change its activeForm", isErr: true},
		{caller: "bob", tool: UpdateName, input: `{"taskId":"1","addBlocks":["3"]}`, want: "Task #1 is owned by alice; only they can change its blocks", isErr: true},
		{caller: "bob", tool: UpdateName, input: `{"taskId":"1","addBlockedBy":["3"]}`, want: "Task #1 is owned by alice; only they can change its blockedBy", isErr: true},
		{caller: "bob", tool: UpdateName, input: `{"taskId":"1","metadata":{"k":"v"}}`, want: "Task #1 is owned by alice; only they can change its metadata", isErr: true},
		// Its owner may, and so may a person at the shell (no caller).
		{caller: "alice", tool: UpdateName, input: `{"taskId":"1","subject":"a2"}`, want: "Updated task #1 subject"},
		{tool: UpdateName, input: `{"taskId":"1","subject":"a","description":"by hand"}`, want: "Updated task #1 subject, description"},
		{caller: "bob", tool: UpdateName, input: `{"taskId":"2","owner":"bob"}`, want: "Updated task #2 owner"},
		{caller: "bob", tool: UpdateName, input: `{"taskId":"2","status":"in_progress"}`, want: "Updated task #2 status"},
		// One in progress per owner: bob has #2.
		{caller: "bob", tool: UpdateName, input: `{"taskId":"3","status":"in_progress"}`, want: "Only one task can be in_progress at a time for bob (#2 is); complete it or set it back to pending first", isErr: true},
		{tool: ListName, input: `{}`, want: "#1 [in_progress] a (owner: alice)\n#2 [in_progress] b (owner: bob)\n#3 [pending] c (free)"},
		{caller: "alice", tool: UpdateName, input: `{"taskId":"1","owner":""}`, want: "Updated task #1 owner"},
		// A person at the shell (no caller) may change any claim.
		{tool: UpdateName, input: `{"taskId":"2","owner":"carol"}`, want: "Updated task #2 owner"},
		{caller: "bob", tool: UpdateName, input: `{"taskId":"2","owner":"bob"}`, want: "Task #2 is owned by carol", isErr: true},
		{caller: "x", tool: UpdateName, input: `{"taskId":"2","owner":" "}`, want: `'owner' cannot be blank (use "" to clear it)`, isErr: true},
	})
}

func TestDefaultCaller(t *testing.T) {
	t.Parallel()
	reg, store := newTools(t, Options{Caller: "agent"})
	run(t, reg, store, []step{
		create("a"),
		{tool: UpdateName, input: `{"taskId":"1","status":"in_progress"}`, want: "Updated task #1 status, owner"},
		{caller: "other", tool: UpdateName, input: `{"taskId":"1","owner":"other"}`, want: "Task #1 is owned by agent", isErr: true},
	})
}

func TestHooksSeeEveryVersion(t *testing.T) {
	t.Parallel()
	reg, store := newTools(t, Options{})
	var versions []uint64
	store.Events().Every(func(e Event) {
		st, rec := e.State, e.Record
		if rec.Version != st.Version || rec.Tool == "" {
			t.Errorf("record %+v for version %d", rec, st.Version)
		}
		versions = append(versions, st.Version)
	})
	run(t, reg, store, []step{create("a"), create("b"), {tool: UpdateName, input: `{"taskId":"1","status":"completed"}`, want: "…"}})
	if !reflect.DeepEqual(versions, []uint64{1, 2, 3}) {
		t.Fatalf("versions %v", versions)
	}
}

func TestResultsUseToolUseID(t *testing.T) {
	t.Parallel()
	reg, store := newTools(t, Options{})
	var ids []string
	store.Events().Every(func(e Event) { ids = append(ids, e.Record.ToolUseID+" "+string(e.Record.Input)) })
	reg.Execute(context.Background(), "toolu_a", CreateName, json.RawMessage("{ \"subject\" : \"a\",\n\"description\":\"\"}"))
	if len(ids) != 1 || ids[0] != `toolu_a {"subject":"a","description":""}` {
		t.Fatalf("%q", ids)
	}
}

// TestOwnerChangeOfATaskInProgress: clearing or changing the owner of a
// task in progress is refused only when its new owner (for "", the tasks
// with no owner) is at the limit, and then says so, with the call that
// does it; that call works (issue 29, item 12).
func TestOwnerChangeOfATaskInProgress(t *testing.T) {
	t.Parallel()
	reg, store := newTools(t, Options{Limits: todo.Limits{MaxItems: 10, MaxContentLength: 20, MaxInProgress: 1}})
	run(t, reg, store, []step{
		create("a"), create("b"), create("c"), create("d"),
		{tool: UpdateName, input: `{"taskId":"4","status":"in_progress"}`, want: "Updated task #4 status"},
		{caller: "bob", tool: UpdateName, input: `{"taskId":"3","status":"in_progress"}`, want: "Updated task #3 status, owner"},
		{caller: "ann", tool: UpdateName, input: `{"taskId":"2","status":"in_progress"}`, want: "Updated task #2 status, owner"},
		{tool: UpdateName, input: `{"taskId":"3","owner":""}`, want: `Task #3 is in_progress: clearing its owner (bob) would make it a second in_progress task with no owner (#4 is one); the limit is one in_progress task per owner, the tasks with no owner counting as one. Clear the owner and set it back to pending together: TaskUpdate '{"taskId":"3","owner":"","status":"pending"}'`, isErr: true},
		{tool: UpdateName, input: `{"taskId":"2","owner":"bob"}`, want: `Task #2 is in_progress: giving it to bob would make it a second in_progress task of bob (#3 is one); the limit is one in_progress task per owner. Give it and set it back to pending together: TaskUpdate '{"taskId":"2","owner":"bob","status":"pending"}'`, isErr: true},
		{tool: UpdateName, input: `{"taskId":"3","owner":"","status":"pending"}`, want: "Updated task #3 status, owner"},
		{tool: UpdateName, input: `{"taskId":"2","owner":"bob"}`, want: "Updated task #2 owner"},
		{tool: UpdateName, input: `{"taskId":"4","owner":"carol"}`, want: "Updated task #4 owner"},
		{tool: UpdateName, input: `{"taskId":"2","owner":""}`, want: "Updated task #2 owner"},
	})
}
