package replayui

import (
	"bufio"
	"io"
	"os"
	"strconv"
	"time"

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
		buf = append(buf[:0], `{"tasks":true,"version":`...)
		buf = strconv.AppendUint(buf, st.Version, 10)
		buf = append(buf, `,"time":"`...)
		buf = rec.Time.UTC().AppendFormat(buf, time.RFC3339Nano)
		buf = append(buf, `","tool_use_id":`...)
		buf = tools.AppendJSONString(buf, rec.ToolUseID)
		buf = append(buf, `,"info":[`...)
		for i := range st.Tasks {
			t := &st.Tasks[i]
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = append(buf, `{"id":`...)
			buf = tools.AppendJSONString(buf, t.ID)
			buf = append(buf, `,"owner":`...)
			buf = tools.AppendJSONString(buf, t.Owner)
			buf = append(buf, `,"description":`...)
			buf = tools.AppendJSONString(buf, t.Description)
			buf = appendIDs(append(buf, `,"blocks":`...), t.Blocks)
			buf = appendIDs(append(buf, `,"blocked_by":`...), t.BlockedBy)
			buf = append(buf, '}')
		}
		buf = append(buf, ']')
		list := todo.AppendList(nil, items) // {"todos":[…]}
		buf = append(append(append(buf, ','), list[1:]...), '\n')
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

// appendIDs appends ids as a JSON array of strings.
func appendIDs(buf []byte, ids []string) []byte {
	buf = append(buf, '[')
	for i, id := range ids {
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = tools.AppendJSONString(buf, id)
	}
	return append(buf, ']')
}
