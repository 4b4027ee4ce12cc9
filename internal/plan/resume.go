package plan

import (
	"slices"
	"strconv"
	"strings"
)

// The few things a reader that reads a transcript a piece at a time (the
// Stop hook, the status line) needs to stop and start again: whether a plan
// call still waits for its result (a line boundary where none waits is a
// safe place to stop), the task list built so far, and a way to give a new
// Parser that list before it reads on.

// Waiting reports whether a plan call still waits for its result.
func (p *Parser) Waiting() bool { return len(p.byID) > 0 }

// TaskList returns the list the Task tools' calls have built so far as a
// version (N, Time and Line left zero), or nil when no task was created.
func (p *Parser) TaskList() *Version {
	if len(p.tasks) == 0 {
		return nil
	}
	list, keys := p.taskItems()
	return &Version{Todos: list, Keys: keys, Tasks: true, Info: p.taskInfo()}
}

// SeedTasks starts the Parser's task list from v (a TaskList read from an
// earlier Parser, or one saved from it), so that TaskUpdate calls read
// after it change those tasks. It is for a new Parser, before it reads.
func (p *Parser) SeedTasks(v *Version) {
	p.tasks = p.tasks[:0]
	if v == nil {
		return
	}
	for i, it := range v.Todos {
		id := ""
		if i < len(v.Info) {
			id = v.Info[i].ID
		}
		if id == "" && i < len(v.Keys) {
			id = strings.TrimPrefix(v.Keys[i], "task:")
		}
		if id == "" {
			continue
		}
		t := task{id: id, item: it, info: ItemInfo{ID: id}}
		if i < len(v.Info) {
			t.info = v.Info[i]
			t.info.ID = id
			t.info.Blocks = slices.Clone(t.info.Blocks)
			t.info.BlockedBy = slices.Clone(t.info.BlockedBy)
		}
		p.tasks = append(p.tasks, t)
		if n, err := strconv.Atoi(id); err == nil && n > p.maxTask {
			p.maxTask = n
		}
	}
}
