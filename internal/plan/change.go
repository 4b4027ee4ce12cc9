package plan

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/todo-shell/todo-shell/internal/readgate"
	"github.com/todo-shell/todo-shell/tools"
	"github.com/todo-shell/todo-shell/tools/todo"
)

// Change is what one version changed from the one before, as lists of
// contents.
type Change struct {
	Added     []string // in this version, not in the last
	Started   []string // in progress now, not before
	Completed []string // completed now, not before
	Dropped   []string // gone from the list without being completed
	// Pending are items set back to pending (from in progress or
	// completed): a task stopped or reopened.
	Pending []string
	Renamed []Rename // the same item, its text changed
	// Notes are other changes a task list shows: owners, blockers,
	// descriptions ("#2 blocked by #1").
	Notes []string
}

// Diff returns the change from prev to cur, matching items by their text,
// or for items whose text changed by the similarity of their words and
// their position (a reworded item is renamed, not dropped and added).
func Diff(prev, cur []todo.Item) Change { return diff(prev, cur, nil, nil, nil) }

// Changes returns the change from prev (nil before the first version) to
// cur. Items are matched by their keys when both versions have them (task
// ids, 1.x ids: a renamed task is the same task), as Diff does otherwise.
func Changes(prev, cur *Version) Change {
	var c Change
	var ids []string // the task ids of cur, to name a renamed task by
	if len(cur.Info) == len(cur.Todos) {
		ids = make([]string, len(cur.Info))
		for i, in := range cur.Info {
			ids[i] = in.ID
		}
	}
	switch {
	case prev == nil:
		c = diff(nil, cur.Todos, nil, nil, ids)
	case prev.Keys != nil && cur.Keys != nil:
		c = diff(prev.Todos, cur.Todos, prev.Keys, cur.Keys, ids)
	default:
		c = diff(prev.Todos, cur.Todos, nil, nil, ids)
	}
	c.Notes = taskNotes(prev, cur)
	return c
}

// diff computes the change from prev to cur; pk and ck are their keys
// (nil: match by text), ids the task ids of cur (nil when not a task list).
func diff(prev, cur []todo.Item, pk, ck, ids []string) Change {
	var c Change
	of := match(prev, cur, pk, ck)
	matched := make([]bool, len(prev))
	for i, it := range cur {
		old := ""
		if j := of[i]; j >= 0 {
			matched[j] = true
			old = prev[j].Status
			if prev[j].Content != it.Content {
				r := Rename{From: prev[j].Content, To: it.Content}
				if ids != nil {
					r.ID = ids[i]
				}
				c.Renamed = append(c.Renamed, r)
			}
		} else {
			c.Added = append(c.Added, it.Content)
		}
		switch {
		case it.Status == todo.StatusInProgress && old != todo.StatusInProgress:
			c.Started = append(c.Started, it.Content)
		case it.Status == todo.StatusCompleted && old != todo.StatusCompleted:
			c.Completed = append(c.Completed, it.Content)
		case it.Status == todo.StatusPending && old != "" && old != todo.StatusPending:
			c.Pending = append(c.Pending, it.Content)
		}
	}
	for j, it := range prev {
		if !matched[j] && it.Status != todo.StatusCompleted {
			c.Dropped = append(c.Dropped, it.Content)
		}
	}
	return c
}

// taskNotes lists what changed in a task list besides text and status:
// owners, blockers and descriptions, matched by task id.
func taskNotes(prev, cur *Version) []string {
	if cur.Info == nil {
		return nil
	}
	was := map[string]ItemInfo{}
	if prev != nil {
		for _, in := range prev.Info {
			was[in.ID] = in
		}
	}
	var notes []string
	for _, in := range cur.Info {
		old, ok := was[in.ID]
		if in.Owner != old.Owner {
			if in.Owner == "" {
				notes = append(notes, "#"+in.ID+" has no owner now")
			} else {
				notes = append(notes, "#"+in.ID+" owner "+in.Owner)
			}
		}
		if added := newIDs(old.BlockedBy, in.BlockedBy); len(added) > 0 {
			notes = append(notes, "#"+in.ID+" blocked by "+hashList(added))
		}
		if ok && in.Description != old.Description {
			notes = append(notes, "#"+in.ID+" description changed")
		}
	}
	return notes
}

// newIDs returns the ids of cur not in old.
func newIDs(old, cur []string) []string {
	var out []string
	for _, id := range cur {
		if !slices.Contains(old, id) {
			out = append(out, id)
		}
	}
	return out
}

// Check returns the rules of v's own format that v breaks: todo-shell's
// TodoWrite validator (Problems) for a TodoWrite list; none for a list of
// Claude Code's Task tools, whose rules are not TodoWrite's (several tasks
// may be in progress), nor for Codex, Gemini CLI or opencode lists: each of
// those tools rejects a bad call itself, and a rejected call makes no
// version.
func Check(v *Version, limits todo.Limits) []string {
	if v.Tasks || v.OwnRules {
		return nil
	}
	return Problems(v.Todos, limits)
}

// Problems returns the rules of todo-shell's TodoWrite validator that the
// list breaks under limits (two in progress, blank content, too many items…),
// in the validator's own words; nil when it would be accepted.
func Problems(list []todo.Item, limits todo.Limits) []string {
	buf := todo.AppendList(make([]byte, 0, 64+len(list)*96), list)
	_, err := todo.Validate(buf, limits)
	var ve *todo.ValidationError
	if errors.As(err, &ve) {
		return ve.Messages
	}
	if err != nil {
		return []string{err.Error()}
	}
	return nil
}

// AppendRecord appends one replay JSON object for v (no newline):
// {"version","time","tool_use_id","todos","added","started","completed","dropped","problems"},
// then, only when there are some, "renamed":[{"from","to"}] (with "id" for
// a task), "pending":[…] (set back to pending), "notes":[…]
// and for a task list "tasks":[{"id","owner","description","blocks","blocked_by"}].
func AppendRecord(dst []byte, v *Version, c Change, problems []string) []byte {
	o := tools.AppendObject(dst).Int("version", int64(v.N))
	if v.Time.IsZero() {
		o = o.Raw("time", []byte("null"))
	} else {
		o = o.Time("time", v.Time)
	}
	o = o.String("tool_use_id", v.ToolUseID).Value("todos", func(b []byte) []byte { return todo.AppendItems(b, v.Todos) }).
		Strings("added", c.Added).Strings("started", c.Started).Strings("completed", c.Completed).
		Strings("dropped", c.Dropped).Strings("problems", problems)
	return appendExtra(o, v, c).Close()
}

// maxDocument caps a session file that is one JSON document.
const maxDocument = 64 << 20

var errDocTooLarge = errors.New("a JSON document of more than 64 MiB")

// Scan feeds every line of r to p, calling emit for each event and bad for
// each line p cannot read (nil bad stops at the first such line with its
// error), then flushes p. A line longer than readgate.MaxLine is not read:
// it is a *LineError saying so. Memory stays bounded by that cap, however
// long the file or its lines.
func Scan(r io.Reader, p *Parser, emit func(Event), bad func(error)) error {
	br := bufio.NewReaderSize(r, 64<<10)
	if doc, ok, err := wholeDocument(br, maxDocument); ok {
		// One JSON document over many lines (opencode's export).
		if err != nil {
			return p.bad(err)
		}
		if err := p.Feed(doc, emit); err != nil {
			return err
		}
		p.Flush(emit)
		return nil
	}
	r = br
	skipTo := func(n int) error { // lines before n were too long
		for p.line+1 < n {
			p.line++
			err := p.bad(fmt.Errorf("longer than %d MiB: not read", readgate.MaxLine>>20))
			if bad == nil {
				return err
			}
			bad(err)
		}
		return nil
	}
	skipped, err := readgate.ScanLines(r, readgate.MaxLine, func(n int, line []byte) error {
		if err := skipTo(n); err != nil {
			return err
		}
		if ferr := p.Feed(line, emit); ferr != nil {
			if bad == nil {
				return ferr
			}
			bad(ferr)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if len(skipped) > 0 {
		if err := skipTo(skipped[len(skipped)-1].Line + 1); err != nil {
			return err
		}
	}
	p.Flush(emit)
	return nil
}
