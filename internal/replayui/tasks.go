package replayui

import (
	"bufio"
	"io"
	"os"

	"github.com/todo-shell/todo-shell/internal/plan"
	"github.com/todo-shell/todo-shell/tools"
	"github.com/todo-shell/todo-shell/tools/task"
	"github.com/todo-shell/todo-shell/tools/todo"
)

// taskJournalAsTodos turns f, when it is a task journal (tasks.jsonl), into a
// temporary file in the todos.jsonl format the replay reader knows: one line
// per version, each task a row "#3 Write the tests" (its id and subject, so a
// task is the same row across versions and one deleted unfinished is a
// drop), and beside the rows an "info" list of each task's id, owner,
// description and blockers (the panel's "@owner · blocked by #2", the
// timeline's owner and blocker notes). Any other file is returned as it is. The returned function removes
// the temporary file.
func taskJournalAsTodos(f *os.File) (*os.File, func(), error) {
	head := make([]byte, 64<<10)
	n, _ := f.ReadAt(head, 0)
	if !task.IsJournal(head[:n]) {
		return f, func() {}, nil
	}
	tmp, err := os.CreateTemp("", "todo-shell-replay-*.jsonl")
	if err != nil {
		return nil, nil, err
	}
	done := func() { _ = tmp.Close(); _ = os.Remove(tmp.Name()) }
	w := bufio.NewWriter(tmp)
	var buf []byte
	if _, err := task.ReadJournal(io.NewSectionReader(f, 0, 1<<62), func(st task.State, rec task.Record) {
		items := task.Rows(st)
		for i := range st.Tasks {
			t := &st.Tasks[i]
			active := t.ActiveForm
			if active == "" {
				active = t.Subject
			}
			// Owner and blockers go in "info", for the panel and the notes.
			items[i].Content, items[i].ActiveForm = "#"+t.ID+" "+t.Subject, "#"+t.ID+" "+active
		}
		buf = appendTaskLine(buf[:0], st, rec, items)
		_, _ = w.Write(buf)
	}); err != nil {
		done()
		return nil, nil, err
	}
	if err := w.Flush(); err != nil {
		done()
		return nil, nil, err
	}
	if _, err := tmp.Seek(0, io.SeekStart); err != nil {
		done()
		return nil, nil, err
	}
	return tmp, done, nil
}

// appendTaskLine appends the todos.jsonl line of one task plan version
// (with its newline): its rows items and, in "info", each task's id, owner,
// description and blockers.
func appendTaskLine(buf []byte, st task.State, rec task.Record, items []todo.Item) []byte {
	buf = tools.AppendObject(buf).Raw("tasks", []byte("true")).Uint("version", st.Version).Time("time", rec.Time.UTC()).
		String("tool_use_id", rec.ToolUseID).
		Value("info", func(b []byte) []byte {
			return tools.AppendArray(b, len(st.Tasks), func(b []byte, i int) []byte {
				t := &st.Tasks[i]
				return plan.AppendItemInfo(b, plan.ItemInfo{ID: t.ID, Owner: t.Owner, Description: t.Description, Blocks: t.Blocks, BlockedBy: t.BlockedBy})
			})
		}).
		Value("todos", func(b []byte) []byte { return todo.AppendItems(b, items) }).Close()
	return append(buf, '\n')
}
