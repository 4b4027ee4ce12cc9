package plan

import (
	"slices"
	"strconv"
	"strings"

	"github.com/todo-shell/todo-shell/internal/jsonscan"
	"github.com/todo-shell/todo-shell/tools"
	"github.com/todo-shell/todo-shell/tools/todo"
)

// ItemInfo is what a task list keeps beside an item's text and status.
type ItemInfo struct {
	ID          string
	Owner       string
	Description string
	Blocks      []string // ids of the tasks this one blocks
	BlockedBy   []string // ids of the tasks that block this one
}

// task is one entry of a TaskCreate/TaskUpdate list.
type task struct {
	id   string
	item todo.Item
	info ItemInfo
}

// taskUpdate is what a TaskCreate or TaskUpdate call sets besides subject,
// activeForm and status (Claude Code 2.1: TaskUpdate's description, owner,
// addBlocks and addBlockedBy).
type taskUpdate struct {
	description  *string
	owner        *string
	addBlocks    []string
	addBlockedBy []string
}

func readTaskUpdate(in string) taskUpdate {
	var u taskUpdate
	var f [4]string
	jsonscan.Pick(in, f[:], "description", "owner", "addBlocks", "addBlockedBy")
	if isString(f[0]) {
		s := keep(jsonscan.Str(f[0]))
		u.description = &s
	}
	if isString(f[1]) {
		s := keep(jsonscan.Str(f[1]))
		u.owner = &s
	}
	jsonscan.Each(f[2], func(v string) {
		if s := scalar(v); s != "" {
			u.addBlocks = append(u.addBlocks, keep(s))
		}
	})
	jsonscan.Each(f[3], func(v string) {
		if s := scalar(v); s != "" {
			u.addBlockedBy = append(u.addBlockedBy, keep(s))
		}
	})
	return u
}

func (p *Parser) findTask(id string) *task {
	for i := range p.tasks {
		if p.tasks[i].id == id {
			return &p.tasks[i]
		}
	}
	return nil
}

// createTask adds the task a successful TaskCreate made; created is the id
// its result gave it ("" when the result named none: the next number).
func (p *Parser) createTask(c pendingCall, created string) {
	if created == "" {
		created = strconv.Itoa(p.maxTask + 1)
	}
	if n, err := strconv.Atoi(created); err == nil && n > p.maxTask {
		p.maxTask = n
	}
	af := c.activeForm
	if af == "" {
		af = c.subject
	}
	p.tasks = append(p.tasks, task{id: created, item: todo.Item{Content: c.subject, Status: todo.StatusPending, ActiveForm: af}, info: ItemInfo{ID: created}})
	p.setExtra(&p.tasks[len(p.tasks)-1], c.upd)
}

// updateTask applies a successful TaskUpdate.
func (p *Parser) updateTask(c pendingCall) {
	t := p.findTask(c.taskID)
	if t == nil {
		return
	}
	if c.status == "deleted" {
		id := t.id
		p.tasks = slices.DeleteFunc(p.tasks, func(t task) bool { return t.id == id })
		for i := range p.tasks {
			in := &p.tasks[i].info
			in.Blocks = slices.DeleteFunc(in.Blocks, func(s string) bool { return s == id })
			in.BlockedBy = slices.DeleteFunc(in.BlockedBy, func(s string) bool { return s == id })
		}
		return
	}
	if c.status != "" {
		t.item.Status = knownStatus(c.status)
	}
	if c.subject != "" {
		if t.item.ActiveForm == t.item.Content {
			t.item.ActiveForm = c.subject
		}
		t.item.Content = c.subject
	}
	if c.activeForm != "" {
		t.item.ActiveForm = c.activeForm
	}
	p.setExtra(t, c.upd)
}

// setExtra applies description, owner and blockers. Claude Code keeps both
// sides of a block: "2 blocked by 1" is also "1 blocks 2".
func (p *Parser) setExtra(t *task, u taskUpdate) {
	if u.description != nil {
		t.info.Description = *u.description
	}
	if u.owner != nil {
		t.info.Owner = *u.owner
	}
	id := t.id
	for _, b := range u.addBlocks {
		t.info.Blocks = addID(t.info.Blocks, b)
		if o := p.findTask(b); o != nil {
			o.info.BlockedBy = addID(o.info.BlockedBy, id)
		}
	}
	t = p.findTask(id) // findTask above does not move tasks; kept for clarity
	for _, b := range u.addBlockedBy {
		t.info.BlockedBy = addID(t.info.BlockedBy, b)
		if o := p.findTask(b); o != nil {
			o.info.Blocks = addID(o.info.Blocks, id)
		}
	}
}

func addID(list []string, id string) []string {
	if id == "" || slices.Contains(list, id) {
		return list
	}
	return append(list, id)
}

// taskItems returns the task list as items and their ids.
func (p *Parser) taskItems() ([]todo.Item, []string) {
	list := make([]todo.Item, len(p.tasks))
	keys := make([]string, len(p.tasks))
	for i := range p.tasks {
		list[i], keys[i] = p.tasks[i].item, "task:"+p.tasks[i].id
	}
	return list, keys
}

// taskInfo returns a copy of what the list keeps beside each item.
func (p *Parser) taskInfo() []ItemInfo {
	out := make([]ItemInfo, len(p.tasks))
	for i := range p.tasks {
		in := p.tasks[i].info
		in.Blocks = slices.Clone(in.Blocks)
		in.BlockedBy = slices.Clone(in.BlockedBy)
		out[i] = in
	}
	return out
}

// OpenBlockers returns the ids of the tasks of v that block item i and are
// not completed.
func (v *Version) OpenBlockers(i int) []string {
	if v.Info == nil || i >= len(v.Info) {
		return nil
	}
	var open []string
	for _, b := range v.Info[i].BlockedBy {
		done := false
		for j, in := range v.Info {
			if in.ID == b && j < len(v.Todos) && v.Todos[j].Status == todo.StatusCompleted {
				done = true
			}
		}
		if !done {
			open = append(open, b)
		}
	}
	return open
}

// Display returns the items of v as a panel shows them: for a task list,
// each with its id, its owner and what blocks it ("#2 Write tests · @ana ·
// blocked by #1"); otherwise the items themselves. The text is the file's:
// sanitise it before it reaches a terminal.
func Display(v *Version) []todo.Item {
	if v == nil || v.Info == nil {
		if v == nil {
			return nil
		}
		return v.Todos
	}
	out := make([]todo.Item, len(v.Todos))
	for i, it := range v.Todos {
		in := v.Info[i]
		pre := ""
		if in.ID != "" && !strings.HasPrefix(it.Content, "#"+in.ID+" ") { // a task plan's rows carry their ids
			pre = "#" + in.ID + " "
		}
		post := ""
		if in.Owner != "" {
			post += " · @" + in.Owner
		}
		if b := v.OpenBlockers(i); len(b) > 0 && it.Status != todo.StatusCompleted {
			post += " · blocked by " + hashList(b)
		}
		it.Content = pre + it.Content + post
		it.ActiveForm = pre + it.ActiveForm + post
		out[i] = it
	}
	return out
}

func hashList(ids []string) string {
	s := ""
	for i, id := range ids {
		if i > 0 {
			s += ", "
		}
		s += "#" + id
	}
	return s
}

// appendExtra writes the members of a replay record only some versions
// have.
func appendExtra(o tools.JSONObject, v *Version, c Change) tools.JSONObject {
	if len(c.Renamed) > 0 {
		o = o.Value("renamed", func(b []byte) []byte {
			return tools.AppendArray(b, len(c.Renamed), func(b []byte, i int) []byte {
				r := &c.Renamed[i]
				o := tools.AppendObject(b).String("from", r.From).String("to", r.To)
				if r.ID != "" {
					o = o.String("id", r.ID)
				}
				return o.Close()
			})
		})
	}
	if len(c.Pending) > 0 {
		o = o.Strings("pending", c.Pending)
	}
	if len(c.Notes) > 0 {
		o = o.Strings("notes", c.Notes)
	}
	if v.Info != nil {
		o = o.Value("tasks", func(b []byte) []byte {
			return tools.AppendArray(b, len(v.Info), func(b []byte, i int) []byte { return AppendItemInfo(b, v.Info[i]) })
		})
	}
	return o
}

// AppendItemInfo appends what a task list keeps beside an item:
// {"id","owner","description","blocks","blocked_by"}, as replay --json's
// "tasks" and a replayed task plan's "info" write it.
func AppendItemInfo(dst []byte, in ItemInfo) []byte {
	return tools.AppendObject(dst).String("id", in.ID).String("owner", in.Owner).String("description", in.Description).
		Strings("blocks", in.Blocks).Strings("blocked_by", in.BlockedBy).Close()
}
