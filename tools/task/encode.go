package task

import (
	"github.com/todo-shell/todo-shell/tools"
)

// AppendTask appends t as JSON to dst, in the field order of Task: id,
// subject, description, activeForm (when set), status, owner (when set),
// blocks, blockedBy, metadata (when set).
func AppendTask(dst []byte, t Task) []byte {
	o := tools.AppendObject(dst).String("id", t.ID).String("subject", t.Subject).String("description", t.Description)
	if t.ActiveForm != "" {
		o = o.String("activeForm", t.ActiveForm)
	}
	o = o.String("status", t.Status)
	if t.Owner != "" {
		o = o.String("owner", t.Owner)
	}
	o = o.Strings("blocks", t.Blocks).Strings("blockedBy", t.BlockedBy)
	if len(t.Metadata) > 0 {
		o = o.Value("metadata", func(b []byte) []byte { return appendMetadata(b, t.Metadata) })
	}
	return o.Close()
}

// MarshalJSON encodes t as AppendTask does.
func (t Task) MarshalJSON() ([]byte, error) { return AppendTask(nil, t), nil }

func appendMetadata(dst []byte, m Metadata) []byte {
	dst = append(dst, '{')
	for i, e := range m {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = tools.AppendJSONString(dst, e.Key)
		dst = append(dst, ':')
		dst = append(dst, e.Value...)
	}
	return append(dst, '}')
}

// appendSnapshot appends the snapshot document of st to dst.
func appendSnapshot(dst []byte, st *State, journalBytes int64) []byte {
	return tools.AppendObject(dst).Uint("version", st.Version).Int("next_id", int64(st.NextID)).Int("journal_bytes", journalBytes).
		Value("tasks", func(b []byte) []byte {
			return tools.AppendArray(b, len(st.Tasks), func(b []byte, i int) []byte { return AppendTask(b, st.Tasks[i]) })
		}).Close()
}
