package task

import (
	"strconv"

	"github.com/todo-shell/todo-shell/tools"
)

// AppendTask appends t as JSON to dst, in the field order of Task: id,
// subject, description, activeForm (when set), status, owner (when set),
// blocks, blockedBy, metadata (when set).
func AppendTask(dst []byte, t Task) []byte {
	dst = append(dst, `{"id":`...)
	dst = tools.AppendJSONString(dst, t.ID)
	dst = append(dst, `,"subject":`...)
	dst = tools.AppendJSONString(dst, t.Subject)
	dst = append(dst, `,"description":`...)
	dst = tools.AppendJSONString(dst, t.Description)
	if t.ActiveForm != "" {
		dst = append(dst, `,"activeForm":`...)
		dst = tools.AppendJSONString(dst, t.ActiveForm)
	}
	dst = append(dst, `,"status":`...)
	dst = tools.AppendJSONString(dst, t.Status)
	if t.Owner != "" {
		dst = append(dst, `,"owner":`...)
		dst = tools.AppendJSONString(dst, t.Owner)
	}
	dst = append(dst, `,"blocks":`...)
	dst = tools.AppendJSONStrings(dst, t.Blocks)
	dst = append(dst, `,"blockedBy":`...)
	dst = tools.AppendJSONStrings(dst, t.BlockedBy)
	if len(t.Metadata) > 0 {
		dst = append(dst, `,"metadata":`...)
		dst = appendMetadata(dst, t.Metadata)
	}
	return append(dst, '}')
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
	dst = append(dst, `{"version":`...)
	dst = strconv.AppendUint(dst, st.Version, 10)
	dst = append(dst, `,"next_id":`...)
	dst = strconv.AppendInt(dst, int64(st.NextID), 10)
	dst = append(dst, `,"journal_bytes":`...)
	dst = strconv.AppendInt(dst, journalBytes, 10)
	dst = append(dst, `,"tasks":[`...)
	for i := range st.Tasks {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = AppendTask(dst, st.Tasks[i])
	}
	return append(dst, "]}"...)
}
