package task

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/todo-shell/todo-shell/tools/todo"
)

// ErrNoChange is returned by Update for an update that changes nothing: it
// is accepted, and no version is written.
var ErrNoChange = errors.New("no change")

// PlanError is a rejection that depends on the plan: an unknown task, a
// cycle, a task owned by someone else, a limit.
type PlanError struct{ Msg string }

func (e *PlanError) Error() string { return e.Msg }

func planErr(format string, args ...any) error {
	return &PlanError{Msg: fmt.Sprintf(format, args...)}
}

// Create computes the change of a TaskCreate on s: a new pending task with
// the next id.
func Create(s State, in CreateInput, limits todo.Limits) (Change, Task, error) {
	if len(s.Tasks) >= limits.MaxItems {
		return Change{}, Task{}, planErr("Too many tasks: the plan holds %d (max %d); complete or delete some first", len(s.Tasks), limits.MaxItems)
	}
	next := max(s.NextID, 1)
	t := Task{
		ID:          strconv.Itoa(next),
		Subject:     in.Subject,
		Description: in.Description,
		ActiveForm:  in.ActiveForm,
		Status:      StatusPending,
		Blocks:      []string{},
		BlockedBy:   []string{},
		Metadata:    mergeMetadata(nil, in.Metadata),
	}
	return Change{Set: []Task{t}, NextID: next + 1}, t, nil
}

// mergeMetadata applies edits to m (a null value removes its key) and
// returns the result, sorted; nil when empty.
func mergeMetadata(m Metadata, edits []MetaEdit) Metadata {
	out := slices.Clone(m)
	for _, e := range edits {
		i, found := slices.BinarySearchFunc(out, e.Key, func(m Meta, k string) int { return compareStrings(m.Key, k) })
		switch {
		case e.Value == nil && found:
			out = slices.Delete(out, i, i+1)
		case e.Value == nil:
		case found:
			out[i].Value = e.Value
		default:
			out = slices.Insert(out, i, Meta(e))
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// fieldOrder is the order an update's result names the fields it changed.
const fieldOrder = "subject description activeForm status owner metadata blocks blockedBy"

// UpdateResult says what an accepted update did, for its result text.
type UpdateResult struct {
	Task    Task
	Fields  []string // the fields that changed, in a fixed order
	Deleted bool
	// OpenBlockers are the blockers still open when the task was
	// completed.
	OpenBlockers []string
}

// otherField names the first field besides status and owner that in sets
// ("" for none).
func otherField(in UpdateInput) string {
	switch {
	case in.Subject != nil:
		return "subject"
	case in.Description != nil:
		return "description"
	case in.ActiveForm != nil:
		return "activeForm"
	case len(in.AddBlocks) > 0:
		return "blocks"
	case len(in.AddBlockedBy) > 0:
		return "blockedBy"
	case in.HasMetadata:
		return "metadata"
	}
	return ""
}

// Update computes the change of a TaskUpdate on s made by caller ("" when
// unknown: a person at the shell). It refuses an unknown task, a dependency
// on an unknown task or one that would close a cycle, an owner change on a
// task someone else owns, any other change of a task someone else owns
// (status, subject, description, activeForm, blockers, metadata: a person
// at the shell, caller "", may), and too many tasks in progress for one
// owner. An
// update that changes nothing returns ErrNoChange.
func Update(s State, in UpdateInput, limits todo.Limits, caller string) (Change, UpdateResult, error) {
	i := s.index(in.TaskID)
	if i < 0 {
		return Change{}, UpdateResult{}, planErr("Task #%s not found", in.TaskID)
	}
	old := s.Tasks[i]
	if in.Status != nil && *in.Status == StatusDeleted {
		return deleteTask(s, old, caller)
	}
	if err := checkOwnerRights(old, in, caller); err != nil {
		return Change{}, UpdateResult{}, err
	}
	t := old.clone()
	u := &update{s: s, t: &t, touched: map[string]*Task{t.ID: &t}}
	if err := u.setFields(in, caller); err != nil {
		return Change{}, UpdateResult{}, err
	}
	if err := u.addEdges(in); err != nil {
		return Change{}, UpdateResult{}, err
	}
	if len(u.fields) == 0 {
		return Change{}, UpdateResult{Task: old}, ErrNoChange
	}
	order := strings.Fields(fieldOrder)
	slices.SortFunc(u.fields, func(a, b string) int { return slices.Index(order, a) - slices.Index(order, b) })
	if err := checkInProgressLimit(s, old, t, limits); err != nil {
		return Change{}, UpdateResult{}, err
	}
	res := UpdateResult{Task: t, Fields: u.fields}
	if t.Status == StatusCompleted && old.Status != StatusCompleted {
		res.OpenBlockers = s.OpenBlockers(t)
	}
	return u.change(), res, nil
}

// deleteTask computes the change of deleting old: the task goes, and so do
// the edges other tasks keep to it. Only its owner (or a person at the
// shell) deletes an owned task.
func deleteTask(s State, old Task, caller string) (Change, UpdateResult, error) {
	if old.Owner != "" && caller != "" && caller != old.Owner {
		return Change{}, UpdateResult{}, planErr("Task #%s is owned by %s; only they can delete it", old.ID, old.Owner)
	}
	c := Change{Deleted: []string{old.ID}, NextID: s.NextID}
	for _, id := range append(slices.Clone(old.Blocks), old.BlockedBy...) {
		j := s.index(id)
		if j < 0 || slices.ContainsFunc(c.Set, func(x Task) bool { return x.ID == id }) {
			continue
		}
		o := s.Tasks[j].clone()
		o.Blocks = slices.DeleteFunc(o.Blocks, func(x string) bool { return x == old.ID })
		o.BlockedBy = slices.DeleteFunc(o.BlockedBy, func(x string) bool { return x == old.ID })
		c.Set = append(c.Set, o)
	}
	return c, UpdateResult{Task: old, Deleted: true, Fields: []string{"status"}}, nil
}

// checkOwnerRights refuses a caller that is not the owner of an owned task
// any change but of its owner (which setFields checks).
func checkOwnerRights(old Task, in UpdateInput, caller string) error {
	if old.Owner == "" || caller == "" || caller == old.Owner {
		return nil
	}
	// Status: only its owner (or a person at the shell) changes the status
	// of an owned task; asked by anyone else, even for the status it has
	// already, it is refused, so the caller cannot take "unchanged" for
	// its own start or finish.
	if in.Status != nil {
		return planErr("Task #%s is owned by %s; only they can change its status", old.ID, old.Owner)
	}
	// Any other field of an owned task is its owner's too: a caller that
	// is not the owner may not rewrite what the task is (its subject,
	// description, activeForm), what it waits for or its metadata. A
	// person at the shell (no caller name) is the one in charge and may.
	if f := otherField(in); f != "" {
		return planErr("Task #%s is owned by %s; only they can change its %s", old.ID, old.Owner, f)
	}
	return nil
}

// checkInProgressLimit refuses t in progress when its owner already has
// limits.MaxInProgress other tasks in progress (and t was not in progress
// for that owner before).
func checkInProgressLimit(s State, old, t Task, limits todo.Limits) error {
	if t.Status != StatusInProgress || limits.MaxInProgress <= 0 || (old.Status == StatusInProgress && old.Owner == t.Owner) {
		return nil
	}
	var others []string
	for k := range s.Tasks {
		x := &s.Tasks[k]
		if x.ID != t.ID && x.Status == StatusInProgress && x.Owner == t.Owner {
			others = append(others, "#"+x.ID)
		}
	}
	if len(others) < limits.MaxInProgress {
		return nil
	}
	if old.Status == StatusInProgress && old.Owner != t.Owner {
		return ownerChangeErr(old, t, others, limits)
	}
	who := "at a time"
	if t.Owner != "" {
		who = "at a time for " + t.Owner
	}
	if limits.MaxInProgress == 1 {
		return planErr("Only one task can be in_progress %s (%s is); complete it or set it back to pending first", who, others[0])
	}
	return planErr("At most %d tasks can be in_progress %s (%s are)", limits.MaxInProgress, who, strings.Join(others, ", "))
}

// ownerChangeErr is why the owner of t, a task in progress, cannot change
// from old's: the new owner (or, for an owner cleared, the tasks with no
// owner, which count as one owner) has as many tasks in progress as the
// limit allows. It says what is refused and the call that does it: the
// owner change with the task set back to pending.
func ownerChangeErr(old, t Task, others []string, limits todo.Limits) error {
	has := others[0] + " is one"
	nth := "a second"
	if len(others) > 1 || limits.MaxInProgress > 1 {
		has, nth = strings.Join(others, ", ")+" are", "one more"
	}
	limit := "one in_progress task per owner"
	if limits.MaxInProgress > 1 {
		limit = fmt.Sprintf("%d in_progress tasks per owner", limits.MaxInProgress)
	}
	var what, fix, verb string
	if t.Owner == "" {
		what = fmt.Sprintf("clearing its owner (%s) would make it %s in_progress task with no owner (%s); the limit is %s, the tasks with no owner counting as one",
			old.Owner, nth, has, limit)
		fix, verb = `"owner":""`, "Clear the owner"
	} else {
		what = fmt.Sprintf("giving it to %s would make it %s in_progress task of %s (%s); the limit is %s", t.Owner, nth, t.Owner, has, limit)
		fix, verb = fmt.Sprintf(`"owner":%q`, t.Owner), "Give it"
	}
	return planErr("Task #%s is in_progress: %s. %s and set it back to pending together: TaskUpdate '{\"taskId\":\"%s\",%s,\"status\":\"pending\"}'",
		t.ID, what, verb, t.ID, fix)
}

// update is one TaskUpdate in the making: the task it changes, private
// copies of the tasks its dependencies touch, and the fields changed so far.
type update struct {
	s       State
	t       *Task            // the task updated; also touched[t.ID]
	touched map[string]*Task // copies of the tasks changed, by id
	fields  []string
}

// field records name among the changed fields when changed.
func (u *update) field(name string, changed bool) {
	if changed && !slices.Contains(u.fields, name) {
		u.fields = append(u.fields, name)
	}
}

// setString sets *dst to *v when v is given and differs, recording name.
func (u *update) setString(dst, v *string, name string) {
	if v != nil && *v != *dst {
		*dst = *v
		u.field(name, true)
	}
}

// setFields applies in's fields besides the dependencies: the texts, the
// owner, the status and the metadata.
func (u *update) setFields(in UpdateInput, caller string) error {
	t := u.t
	u.setString(&t.Subject, in.Subject, "subject")
	u.setString(&t.Description, in.Description, "description")
	u.setString(&t.ActiveForm, in.ActiveForm, "activeForm")
	// Owner: claiming a task someone else holds is refused.
	if in.Owner != nil && *in.Owner != t.Owner {
		if t.Owner != "" && caller != "" && caller != t.Owner {
			return planErr("Task #%s is owned by %s", t.ID, t.Owner)
		}
		t.Owner = *in.Owner
		u.field("owner", true)
	}
	if in.Status != nil && *in.Status != t.Status {
		t.Status = *in.Status
		u.field("status", true)
		// Starting an unowned task takes it, for a caller that has a name.
		if t.Status == StatusInProgress && t.Owner == "" && in.Owner == nil && caller != "" {
			t.Owner = caller
			u.field("owner", true)
		}
	}
	if in.HasMetadata {
		m := mergeMetadata(t.Metadata, in.Metadata)
		u.field("metadata", !metadataEqual(m, t.Metadata))
		t.Metadata = m
	}
	return nil
}

// addEdges adds in's new blockers, both ways.
func (u *update) addEdges(in UpdateInput) error {
	t := u.t
	for _, id := range in.AddBlocks {
		before := len(t.Blocks)
		if err := u.edge(t.ID, id); err != nil {
			return err
		}
		u.field("blocks", len(t.Blocks) != before)
	}
	for _, id := range in.AddBlockedBy {
		before := len(t.BlockedBy)
		if err := u.edge(id, t.ID); err != nil {
			return err
		}
		u.field("blockedBy", len(t.BlockedBy) != before)
	}
	return nil
}

// get returns the private copy of task id, making it on first use.
func (u *update) get(id string) (*Task, error) {
	if x, ok := u.touched[id]; ok {
		return x, nil
	}
	j := u.s.index(id)
	if j < 0 {
		return nil, planErr("Task #%s not found", id)
	}
	x := u.s.Tasks[j].clone()
	u.touched[id] = &x
	return &x, nil
}

// edge makes blocker block blocked, refusing a self-block, an unknown task
// and a cycle; an edge already there is left as it is.
func (u *update) edge(blocker, blocked string) error {
	if blocker == blocked {
		return planErr("Task #%s cannot block itself", blocker)
	}
	a, err := u.get(blocker)
	if err != nil {
		return err
	}
	b, err := u.get(blocked)
	if err != nil {
		return err
	}
	if slices.Contains(a.Blocks, blocked) {
		return nil
	}
	if path := pathBetween(blocked, blocker, u.touched, u.s); path != nil {
		return planErr("Task #%s cannot be blocked by #%s: that would make a cycle (%s)", blocked, blocker, hashIDs(append(path, blocked), " → "))
	}
	a.Blocks = append(a.Blocks, blocked)
	b.BlockedBy = append(b.BlockedBy, blocker)
	return nil
}

// change is the Change that writes the touched tasks, in id order.
func (u *update) change() Change {
	c := Change{NextID: u.s.NextID}
	ids := make([]string, 0, len(u.touched))
	for id := range u.touched {
		ids = append(ids, id)
	}
	slices.SortFunc(ids, func(a, b string) int {
		x, _ := strconv.Atoi(a)
		y, _ := strconv.Atoi(b)
		return x - y
	})
	for _, id := range ids {
		c.Set = append(c.Set, *u.touched[id])
	}
	return c
}

// pathBetween returns a chain of ids from → … → to following Blocks edges
// (the plan's, as changed in touched), or nil when to cannot be reached.
func pathBetween(from, to string, touched map[string]*Task, s State) []string {
	blocks := func(id string) []string {
		if x, ok := touched[id]; ok {
			return x.Blocks
		}
		if x, ok := s.Get(id); ok {
			return x.Blocks
		}
		return nil
	}
	prev := map[string]string{from: ""}
	queue := []string{from}
	for len(queue) > 0 {
		id := queue[0]
		queue = queue[1:]
		if id == to {
			var path []string
			for x := to; x != ""; x = prev[x] {
				path = append(path, x)
			}
			slices.Reverse(path)
			return path
		}
		for _, n := range blocks(id) {
			if _, seen := prev[n]; !seen {
				prev[n] = id
				queue = append(queue, n)
			}
		}
	}
	return nil
}

func metadataEqual(a, b Metadata) bool {
	return slices.EqualFunc(a, b, func(x, y Meta) bool { return x.Key == y.Key && string(x.Value) == string(y.Value) })
}
