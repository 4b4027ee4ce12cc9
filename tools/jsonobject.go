package tools

import (
	"strconv"
	"time"
)

// JSONObject writes one JSON object at the end of a byte slice, member by
// member: the one encoder of the task shapes todo-shell writes by hand on
// its hot paths (a todo item and list, a task, a plan version's journal
// line and replay record). Strings are written as AppendJSONString writes
// them; keys are written as given (they are the callers' constants).
//
//	dst = tools.AppendObject(dst).String("id", t.ID).Strings("blocks", t.Blocks).Close()
type JSONObject []byte

// AppendObject starts an object at the end of dst.
func AppendObject(dst []byte) JSONObject { return append(dst, '{') }

// key writes the member's key, after a comma unless it is the first.
func (o JSONObject) key(k string) JSONObject {
	if o[len(o)-1] != '{' { // no JSON value ends in '{': a member was written
		o = append(o, ',')
	}
	o = append(o, '"')
	o = append(o, k...)
	return append(o, '"', ':')
}

// String writes a string member.
func (o JSONObject) String(k, s string) JSONObject { return AppendJSONString(o.key(k), s) }

// Strings writes an array of strings (nil is []).
func (o JSONObject) Strings(k string, list []string) JSONObject {
	return AppendJSONStrings(o.key(k), list)
}

// Int writes an integer member.
func (o JSONObject) Int(k string, n int64) JSONObject { return strconv.AppendInt(o.key(k), n, 10) }

// Uint writes an unsigned integer member.
func (o JSONObject) Uint(k string, n uint64) JSONObject { return strconv.AppendUint(o.key(k), n, 10) }

// Time writes t as an RFC 3339 string with nanoseconds, in t's location.
func (o JSONObject) Time(k string, t time.Time) JSONObject {
	o = append(o.key(k), '"')
	o = t.AppendFormat(o, time.RFC3339Nano)
	return append(o, '"')
}

// Raw writes a member whose value is raw, a JSON text.
func (o JSONObject) Raw(k string, raw []byte) JSONObject { return append(o.key(k), raw...) }

// Value writes a member whose value appendValue appends (another
// encoder's object or array).
func (o JSONObject) Value(k string, appendValue func([]byte) []byte) JSONObject {
	return appendValue(o.key(k))
}

// Close ends the object and returns the slice.
func (o JSONObject) Close() []byte { return append(o, '}') }

// AppendArray appends a JSON array of n elements to dst, element i written
// by appendElem.
func AppendArray(dst []byte, n int, appendElem func(dst []byte, i int) []byte) []byte {
	dst = append(dst, '[')
	for i := range n {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendElem(dst, i)
	}
	return append(dst, ']')
}
