package plan

import (
	"errors"
	"strconv"
	"strings"

	"github.com/todo-shell/todo-shell/internal/jsonscan"
)

// The records are read with jsonscan, the one JSON parser of todo-shell: a
// line is checked whole once (readRecord), keeping the raw text of the
// fields the formats read; the helpers below read those raw values, which
// are known to be valid JSON, without building a tree. A raw value is ""
// when the field is absent.

// record is the raw values of the top-level fields a record of any format
// may have; typ is "type" decoded.
type record struct {
	typ                                          string
	todos, version, tasks, time, toolUseID, info string
	message, cwd, isSidechain, timestamp, result string
	shape, attachment, payload, set, sessionID   string
	projectHash, id, content, messages, typeRaw  string
	raw                                          string // the whole record
}

// errNotObject is a record that is JSON but no object.
var errNotObject = errors.New("not a JSON object")

// readRecord checks that line is one JSON object and picks its fields.
func readRecord(line string, r *record) error {
	r.raw = line
	d := jsonscan.New(line)
	if d.PeekKind() != jsonscan.KindObject {
		if err := d.Skip(); err != nil {
			return err
		}
		return errNotObject
	}
	err := d.Object(func(key string) error {
		dst := r.field(key)
		if dst == nil || *dst != "" { // unknown, or a repeated key: the first counts
			return d.Skip()
		}
		raw, err := d.Raw()
		*dst = raw
		return err
	})
	if err != nil {
		return err
	}
	if err := d.End(); err != nil {
		return err
	}
	r.typ = jsonscan.Str(r.typeRaw)
	return nil
}

// field returns where the raw value of key goes, nil for a key no format
// reads.
func (r *record) field(key string) *string {
	switch key {
	case "type":
		return &r.typeRaw
	case "todos":
		return &r.todos
	case "version":
		return &r.version
	case "tasks":
		return &r.tasks
	case "time":
		return &r.time
	case "tool_use_id":
		return &r.toolUseID
	case "info":
		return &r.info
	case "message":
		return &r.message
	case "cwd":
		return &r.cwd
	case "isSidechain":
		return &r.isSidechain
	case "timestamp":
		return &r.timestamp
	case "toolUseResult":
		return &r.result
	case "shape":
		return &r.shape
	case "attachment":
		return &r.attachment
	}
	return r.agentField(key)
}

// agentField is field for the keys of the other agents' records.
func (r *record) agentField(key string) *string {
	switch key {
	case "payload":
		return &r.payload
	case "$set":
		return &r.set
	case "sessionId":
		return &r.sessionID
	case "projectHash":
		return &r.projectHash
	case "id":
		return &r.id
	case "content":
		return &r.content
	case "messages":
		return &r.messages
	}
	return nil
}

// get returns the raw value at the path of keys in raw, "" when absent.
func get(raw string, path ...string) string {
	var v [1]string
	for _, k := range path {
		jsonscan.Pick(raw, v[:], k)
		raw = v[0]
	}
	return raw
}

// keep is s copied out of the line it was read from, so that what is kept
// does not keep the whole line.
func keep(s string) string { return strings.Clone(s) }

// integer returns the integer raw is, 0 when it is none.
func integer(raw string) int64 {
	n, err := strconv.ParseInt(raw, 10, 64)
	if err != nil {
		return 0
	}
	return n
}

func isArray(raw string) bool  { return raw != "" && raw[0] == '[' }
func isString(raw string) bool { return raw != "" && raw[0] == '"' }
func isNumber(raw string) bool { return raw != "" && (raw[0] == '-' || raw[0] >= '0' && raw[0] <= '9') }

// elems returns the raw text of each element of the array raw (nil when
// raw is no array).
func elems(raw string) []string {
	var out []string
	jsonscan.Each(raw, func(e string) { out = append(out, e) })
	return out
}
