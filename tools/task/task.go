// Package task implements the Task tools — TaskCreate, TaskUpdate, TaskList
// and TaskGet — over a plan of numbered tasks with dependencies and owners,
// held in a Store that front ends watch and that several processes may share
// through a plan directory (see Dir).
//
// A session has two lists: TodoWrite's todo list (package tools/todo, whole
// list replaced on every call, exactly as before) and this task plan (tasks
// changed one at a time by id). They are independent: neither tool family
// reads or changes the other's list; the panel shows both, todos first.
package task

import (
	"encoding/json"
	"slices"
	"strconv"
)

// Status values, exactly as they appear on the wire. StatusDeleted is only
// ever an input: a deleted task leaves the plan.
const (
	StatusPending    = "pending"
	StatusInProgress = "in_progress"
	StatusCompleted  = "completed"
	StatusDeleted    = "deleted"
)

// Task is one task of the plan.
type Task struct {
	ID          string `json:"id"`
	Subject     string `json:"subject"`
	Description string `json:"description"`
	ActiveForm  string `json:"activeForm,omitempty"`
	Status      string `json:"status"`
	Owner       string `json:"owner,omitempty"`
	// Blocks are the tasks that wait for this one; BlockedBy the tasks this
	// one waits for. Both sides of every edge are kept.
	Blocks    []string `json:"blocks"`
	BlockedBy []string `json:"blockedBy"`
	// Metadata is free-form, its keys sorted.
	Metadata Metadata `json:"metadata,omitempty"`
}

// Meta is one metadata entry: a key and its value as compact JSON.
type Meta struct {
	Key   string
	Value json.RawMessage
}

// Metadata is a task's metadata, sorted by key.
type Metadata []Meta

// MarshalJSON writes the metadata as an object, keys in order.
func (m Metadata) MarshalJSON() ([]byte, error) { return appendMetadata(nil, m), nil }

// UnmarshalJSON reads an object into sorted entries.
func (m *Metadata) UnmarshalJSON(b []byte) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	out := make(Metadata, 0, len(raw))
	for k, v := range raw {
		out = append(out, Meta{Key: k, Value: v})
	}
	slices.SortFunc(out, func(a, b Meta) int { return compareStrings(a.Key, b.Key) })
	*m = out
	return nil
}

func compareStrings(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// clone returns a deep copy of t (the slices are its own).
func (t Task) clone() Task {
	t.Blocks = slices.Clone(t.Blocks)
	t.BlockedBy = slices.Clone(t.BlockedBy)
	t.Metadata = slices.Clone(t.Metadata)
	return t
}

// State is the plan at one version.
type State struct {
	// Tasks are the live tasks, in id order.
	Tasks []Task
	// NextID is the id the next TaskCreate takes: one more than the
	// highest ever given, so ids are never reused.
	NextID int
	// Version counts accepted changes: 0 for a new plan.
	Version uint64
}

// NewState returns an empty plan whose first task will be #1.
func NewState() State { return State{NextID: 1} }

// Clone returns a deep copy of s.
func (s State) Clone() State {
	out := s
	out.Tasks = make([]Task, len(s.Tasks))
	for i := range s.Tasks {
		out.Tasks[i] = s.Tasks[i].clone()
	}
	return out
}

// index returns the position of the task id, or -1.
func (s *State) index(id string) int {
	n, err := strconv.Atoi(id)
	if err != nil || strconv.Itoa(n) != id {
		return -1
	}
	i, ok := slices.BinarySearchFunc(s.Tasks, n, func(t Task, n int) int {
		m, _ := strconv.Atoi(t.ID)
		return m - n
	})
	if !ok {
		return -1
	}
	return i
}

// Get returns the task id.
func (s State) Get(id string) (Task, bool) {
	i := s.index(id)
	if i < 0 {
		return Task{}, false
	}
	return s.Tasks[i], true
}

// OpenBlockers returns the ids of the tasks t waits for that are not
// completed.
func (s State) OpenBlockers(t Task) []string {
	var open []string
	for _, id := range t.BlockedBy {
		if b, ok := s.Get(id); ok && b.Status != StatusCompleted {
			open = append(open, id)
		}
	}
	return open
}

// Free reports whether t can be taken: pending, with no owner and no open
// blocker.
func (s State) Free(t Task) bool {
	return t.Status == StatusPending && t.Owner == "" && len(s.OpenBlockers(t)) == 0
}

// Counts returns how many live tasks are completed, in progress and pending.
func (s State) Counts() (completed, inProgress, pending int) {
	for i := range s.Tasks {
		switch s.Tasks[i].Status {
		case StatusCompleted:
			completed++
		case StatusInProgress:
			inProgress++
		default:
			pending++
		}
	}
	return
}

// Change is what one accepted call did to the plan: the tasks it created or
// changed (whole, as they are after it), the tasks it deleted, and the next
// id. Applying it to the state it was computed on gives the new state.
type Change struct {
	Set     []Task   `json:"set,omitempty"`
	Deleted []string `json:"deleted,omitempty"`
	NextID  int      `json:"next_id"`
}

// Empty reports whether the change changes nothing.
func (c Change) Empty() bool { return len(c.Set) == 0 && len(c.Deleted) == 0 }

// Apply applies c to s, in place, and counts one more version.
func (s *State) Apply(c Change) {
	for _, id := range c.Deleted {
		if i := s.index(id); i >= 0 {
			s.Tasks = slices.Delete(s.Tasks, i, i+1)
		}
	}
	for k := range c.Set {
		t := c.Set[k].clone()
		if i := s.index(t.ID); i >= 0 {
			s.Tasks[i] = t
			continue
		}
		n, _ := strconv.Atoi(t.ID)
		at, _ := slices.BinarySearchFunc(s.Tasks, n, func(t Task, n int) int {
			m, _ := strconv.Atoi(t.ID)
			return m - n
		})
		s.Tasks = slices.Insert(s.Tasks, at, t)
	}
	if c.NextID > s.NextID {
		s.NextID = c.NextID
	}
	s.Version++
}
