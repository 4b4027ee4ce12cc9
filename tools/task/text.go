package task

import (
	"strings"
)

// ListText is TaskList's result: one line per live task, in id order —
// "#2 [in_progress] Write the parser (owner: builder)", "#3 [pending] Add
// tests (blocked by #2)", "#4 [pending] Write docs (free)" — or "No tasks".
func ListText(st State) string {
	if len(st.Tasks) == 0 {
		return "No tasks"
	}
	var b strings.Builder
	for i := range st.Tasks {
		t := &st.Tasks[i]
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString("#" + t.ID + " [" + t.Status + "] " + t.Subject)
		var notes []string
		if t.Owner != "" {
			notes = append(notes, "owner: "+t.Owner)
		}
		if open := st.OpenBlockers(*t); len(open) > 0 {
			notes = append(notes, "blocked by "+hashIDs(open, ", "))
		}
		if st.Free(*t) {
			notes = append(notes, "free")
		}
		if len(notes) > 0 {
			b.WriteString(" (" + strings.Join(notes, "; ") + ")")
		}
	}
	return b.String()
}

// GetText is TaskGet's result: the task in full.
func GetText(st State, t Task) string {
	var b strings.Builder
	b.WriteString("Task #" + t.ID + ": " + t.Subject + "\n")
	b.WriteString("Status: " + t.Status + "\n")
	if t.Owner != "" {
		b.WriteString("Owner: " + t.Owner + "\n")
	}
	if t.ActiveForm != "" {
		b.WriteString("Active form: " + t.ActiveForm + "\n")
	}
	if len(t.BlockedBy) > 0 {
		parts := make([]string, 0, len(t.BlockedBy))
		for _, id := range t.BlockedBy {
			status := "deleted"
			if x, ok := st.Get(id); ok {
				status = x.Status
			}
			parts = append(parts, "#"+id+" ("+status+")")
		}
		b.WriteString("Blocked by: " + strings.Join(parts, ", ") + "\n")
	}
	if len(t.Blocks) > 0 {
		b.WriteString("Blocks: " + hashIDs(t.Blocks, ", ") + "\n")
	}
	if len(t.Metadata) > 0 {
		b.WriteString("Metadata: " + string(appendMetadata(nil, t.Metadata)) + "\n")
	}
	if st.Free(t) {
		b.WriteString("Free to take: yes\n")
	}
	b.WriteString("Description:")
	if t.Description == "" {
		b.WriteString(" (none)")
	} else {
		b.WriteString("\n" + t.Description)
	}
	return b.String()
}
