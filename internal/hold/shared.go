package hold

import (
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"path/filepath"
	"slices"

	"github.com/todo-shell/todo-shell/internal/readgate"
	"github.com/todo-shell/todo-shell/tools/task"
)

// maxSharedLosses bounds the losses kept for a shared plan: the oldest go
// first (only those since the person's last prompt are ever shown).
const maxSharedLosses = 256

// readShared brings sh (nil: never read) up to date with the journal of
// the shared plan name in dir, through the read gate, from where it was
// last read. A journal that is another file than before, or shorter, is
// read again from its start. A plan not started yet is an empty one.
func readShared(sh *Shared, name, dir string) (*Shared, error) {
	f, info, err := readgate.Open(filepath.Join(dir, task.JournalFile))
	if errors.Is(err, fs.ErrNotExist) {
		return &Shared{Name: name, State: task.NewState()}, nil
	}
	if err != nil {
		return sh, err
	}
	defer func() { _ = f.Close() }()
	dev, ino := fileID(info)
	if sh == nil || sh.Name != name || sh.Dev != dev || sh.Ino != ino || sh.Offset > info.Size() {
		sh = &Shared{Name: name, State: task.NewState()}
	} else {
		c := *sh
		c.State = sh.State.Clone()
		c.Losses = slices.Clone(sh.Losses)
		c.Creators = make(map[string]string, len(sh.Creators))
		for k, v := range sh.Creators {
			c.Creators[k] = v
		}
		sh = &c
	}
	sh.Dev, sh.Ino = dev, ino
	if sh.Creators == nil {
		sh.Creators = map[string]string{}
	}
	if _, err := f.Seek(sh.Offset, io.SeekStart); err != nil {
		return sh, err
	}
	end, err := forEachLine(io.LimitReader(f, info.Size()-sh.Offset), sh.Offset, info.Size()-sh.Offset, func(l line) error {
		if l.long {
			return nil
		}
		// As task.ApplyLine applies it, keeping what the tasks it
		// changes were before.
		var rec task.Record
		if json.Unmarshal(l.bytes, &rec) != nil || rec.Version == 0 {
			return nil
		}
		before := map[string]task.Task{}
		for i := range rec.Set {
			if old, ok := sh.State.Get(rec.Set[i].ID); ok {
				before[rec.Set[i].ID] = old
			}
		}
		for _, id := range rec.Deleted {
			if old, ok := sh.State.Get(id); ok {
				before[id] = old
			}
		}
		sh.State.Apply(rec.Change)
		sh.State.Version = rec.Version
		sh.note(before, rec)
		return nil
	})
	sh.Offset = end
	return sh, err
}

// note keeps what one journal record did to the plan: the tasks it
// created and by whom, and those that left the plan unfinished.
func (sh *Shared) note(before map[string]task.Task, rec task.Record) {
	for i := range rec.Set {
		t := &rec.Set[i]
		old, ok := before[t.ID]
		if !ok {
			sh.Creators[t.ID] = rec.By
			continue
		}
		if old.Subject != t.Subject && unfinished(old.Status) && t.Status == task.StatusCompleted {
			sh.loss(Loss{Item: old.Subject, Key: t.ID, Was: old.Status, How: LossDoneRenamed, To: t.Subject, Task: true, Time: rec.Time})
		}
	}
	for _, id := range rec.Deleted {
		if old, ok := before[id]; ok && unfinished(old.Status) {
			sh.loss(Loss{Item: old.Subject, Key: id, Was: old.Status, How: LossRemoved, Task: true, Time: rec.Time})
		}
		delete(sh.Creators, id)
	}
}

func (sh *Shared) loss(l Loss) {
	sh.Losses = append(sh.Losses, l)
	if len(sh.Losses) > maxSharedLosses {
		sh.Losses = slices.Delete(sh.Losses, 0, len(sh.Losses)-maxSharedLosses)
	}
}

// Mine reports whether task t of the plan is the agent's own: owned by
// owner, or free and created by owner (a task nobody created through a
// named caller counts as the agent's when free).
func (sh *Shared) Mine(t *task.Task, owner string) bool {
	if t.Owner != "" {
		return t.Owner == owner
	}
	by := sh.Creators[t.ID]
	return by == "" || by == owner
}
