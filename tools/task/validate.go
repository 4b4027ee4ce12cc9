package task

import (
	"bytes"
	"encoding/json"
	"fmt"
	"unicode/utf8"
	"unsafe"

	"github.com/todo-shell/todo-shell/internal/jsonscan"
	"github.com/todo-shell/todo-shell/tools/todo"
)

// MaxDescriptionLength is the most characters (code points) a description
// holds: room for a paragraph or two of context, not a document.
const MaxDescriptionLength = 4000

// SyntaxError is a JSON syntax error at a byte offset of the input.
type SyntaxError = jsonscan.SyntaxError

// ValidationError lists every reason an input was rejected, in the order the
// checks ran. Its Error is the first; the tool result carries them
// all (see InputError).
type ValidationError struct {
	Messages []string
}

func (e *ValidationError) Error() string { return e.Messages[0] }

// MetaEdit is one metadata key of an input: its new value as compact JSON,
// or a nil Value to remove the key (the input said null).
type MetaEdit struct {
	Key   string
	Value json.RawMessage
}

// CreateInput is a checked TaskCreate input.
type CreateInput struct {
	Subject, Description, ActiveForm string
	Metadata                         []MetaEdit
}

// UpdateInput is a checked TaskUpdate input; a nil field was not given.
type UpdateInput struct {
	TaskID                                   string
	Subject, Description, ActiveForm, Status *string
	Owner                                    *string
	Metadata                                 []MetaEdit
	HasMetadata                              bool
	AddBlocks, AddBlockedBy                  []string
}

// GetInput is a checked TaskGet input.
type GetInput struct{ TaskID string }

// value is one top-level value of an input.
type value struct {
	kind  jsonscan.Kind
	str   string   // jsonscan.KindString: the decoded text
	raw   string   // the raw text (objects, and messages)
	strs  []string // jsonscan.KindArray: the string elements
	other bool     // jsonscan.KindArray: some element is not a string
}

// object is a decoded input object: its values by key (the last of a
// duplicated key wins) and the keys it does not know.
type object struct {
	isObject bool
	values   map[string]*value
	unknown  []string
}

// decodeObject scans input, keeping the values of the known keys.
func decodeObject(input []byte, known ...string) (object, error) {
	s := unsafe.String(unsafe.SliceData(input), len(input))
	d := jsonscan.New(s)
	obj := object{values: make(map[string]*value, len(known))}
	if d.Peek() != '{' {
		if err := d.Skip(); err != nil {
			return obj, err
		}
		return obj, d.End()
	}
	obj.isObject = true
	err := d.Object(func(key string) error {
		for _, k := range known {
			if k == key {
				v := &value{}
				obj.values[k] = v
				return decodeValue(d, v)
			}
		}
		if !contains(obj.unknown, key) {
			obj.unknown = append(obj.unknown, key)
		}
		return d.Skip()
	})
	if err != nil {
		return obj, err
	}
	return obj, d.End()
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func decodeValue(d *jsonscan.Decoder, v *value) error {
	v.kind = d.PeekKind()
	switch v.kind {
	case jsonscan.KindString:
		s, err := d.String()
		v.str = s
		return err
	case jsonscan.KindArray:
		return d.Array(func() error {
			if d.Peek() != '"' {
				v.other = true
				return d.Skip()
			}
			s, err := d.String()
			v.strs = append(v.strs, s)
			return err
		})
	}
	raw, err := d.Raw()
	v.raw = raw
	return err
}

// checker collects messages.
type checker struct {
	msgs   []string
	limits todo.Limits
}

func (c *checker) add(format string, args ...any) {
	c.msgs = append(c.msgs, fmt.Sprintf(format, args...))
}

func (c *checker) err() error {
	if len(c.msgs) == 0 {
		return nil
	}
	return &ValidationError{Messages: c.msgs}
}

// decodeInput decodes a tool's input, keeping the values of the known keys,
// and starts its checker. The error is a *SyntaxError when the input is not
// JSON, a *ValidationError when it is no object.
func decodeInput(input []byte, limits todo.Limits, known ...string) (object, *checker, error) {
	obj, err := decodeObject(input, known...)
	if err != nil {
		return obj, nil, err
	}
	c := &checker{limits: limits}
	if !obj.isObject {
		c.add("Input must be a JSON object")
		return obj, nil, c.err()
	}
	return obj, c, nil
}

func (c *checker) unknown(obj object) {
	for _, k := range obj.unknown {
		c.add("Unknown field '%s'", k)
	}
}

// text checks a subject-like field: a string, not blank, at most the
// content limit. It returns the text and whether the field was given.
func (c *checker) text(obj object, name string, required bool) (*string, bool) {
	v := obj.values[name]
	switch {
	case v == nil:
		if required {
			c.add("'%s' is required", name)
		}
		return nil, false
	case v.kind != jsonscan.KindString:
		c.add("'%s' must be a string", name)
	case todo.IsBlank(v.str):
		c.add("'%s' cannot be empty", name)
	case !todo.TextOK(v.str, c.limits.MaxContentLength):
		c.add("'%s' exceeds %d characters", name, c.limits.MaxContentLength)
	default:
		return &v.str, true
	}
	return nil, true
}

// description checks a description: a string of at most
// MaxDescriptionLength characters (it may be empty).
func (c *checker) description(obj object, required bool) *string {
	v := obj.values["description"]
	switch {
	case v == nil:
		if required {
			c.add("'description' is required")
		}
	case v.kind != jsonscan.KindString:
		c.add("'description' must be a string")
	case len(v.str) > MaxDescriptionLength && utf8.RuneCountInString(v.str) > MaxDescriptionLength:
		c.add("'description' exceeds %d characters", MaxDescriptionLength)
	default:
		return &v.str
	}
	return nil
}

// taskID checks a taskId: a string.
func (c *checker) taskID(obj object) string {
	v := obj.values["taskId"]
	switch {
	case v == nil:
		c.add("'taskId' is required")
	case v.kind != jsonscan.KindString:
		c.add("'taskId' must be a string")
	default:
		return v.str
	}
	return ""
}

// metadata checks a metadata object and returns its entries.
func (c *checker) metadata(obj object) ([]MetaEdit, bool) {
	v := obj.values["metadata"]
	if v == nil {
		return nil, false
	}
	if v.kind != jsonscan.KindObject {
		c.add("'metadata' must be an object")
		return nil, true
	}
	edits, err := metaEdits(v.raw)
	if err != nil {
		c.add("'metadata': %v", err)
	}
	return edits, true
}

// metaEdits decodes a metadata object (known to be valid JSON) into edits,
// values in canonical compact form.
func metaEdits(raw string) ([]MetaEdit, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(raw), &m); err != nil {
		return nil, err
	}
	edits := make([]MetaEdit, 0, len(m))
	for k, v := range m {
		if string(v) == "null" {
			edits = append(edits, MetaEdit{Key: k})
			continue
		}
		edits = append(edits, MetaEdit{Key: k, Value: canonical(v)})
	}
	sortEdits(edits)
	return edits, nil
}

// canonical re-encodes a JSON value compactly, objects with sorted keys,
// numbers as written.
func canonical(v json.RawMessage) json.RawMessage {
	d := json.NewDecoder(bytes.NewReader(v))
	d.UseNumber()
	var x any
	if err := d.Decode(&x); err != nil {
		return v
	}
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	if err := e.Encode(x); err != nil {
		return v
	}
	return json.RawMessage(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
}

func sortEdits(e []MetaEdit) {
	for i := 1; i < len(e); i++ {
		for j := i; j > 0 && e[j].Key < e[j-1].Key; j-- {
			e[j], e[j-1] = e[j-1], e[j]
		}
	}
}

// ids checks an array of task ids.
func (c *checker) ids(obj object, name string) []string {
	v := obj.values[name]
	switch {
	case v == nil:
		return nil
	case v.kind != jsonscan.KindArray || v.other:
		c.add("'%s' must be an array of task ids (strings)", name)
		return nil
	}
	return v.strs
}

const statusChoices = "Must be one of: pending, in_progress, completed, deleted"

// ValidateCreate decodes and checks a TaskCreate input: a *SyntaxError
// when it is not JSON, a *ValidationError listing every problem.
func ValidateCreate(input []byte, limits todo.Limits) (CreateInput, error) {
	obj, c, err := decodeInput(input, limits, "subject", "description", "activeForm", "metadata")
	if err != nil {
		return CreateInput{}, err
	}
	var in CreateInput
	if s, _ := c.text(obj, "subject", true); s != nil {
		in.Subject = *s
	}
	if s := c.description(obj, true); s != nil {
		in.Description = *s
	}
	if s, _ := c.text(obj, "activeForm", false); s != nil {
		in.ActiveForm = *s
	}
	in.Metadata, _ = c.metadata(obj)
	c.unknown(obj)
	return in, c.err()
}

// ValidateUpdate decodes and checks a TaskUpdate input, as ValidateCreate.
// Whether the task exists, and what the change would do to the plan, is
// for Update to say.
func ValidateUpdate(input []byte, limits todo.Limits) (UpdateInput, error) {
	obj, c, err := decodeInput(input, limits, "taskId", "subject", "description", "activeForm", "status", "owner", "metadata", "addBlocks", "addBlockedBy")
	if err != nil {
		return UpdateInput{}, err
	}
	var in UpdateInput
	in.TaskID = c.taskID(obj)
	in.Subject, _ = c.text(obj, "subject", false)
	in.Description = c.description(obj, false)
	in.ActiveForm, _ = c.text(obj, "activeForm", false)
	if v := obj.values["status"]; v != nil {
		switch {
		case v.kind != jsonscan.KindString:
			c.add("Invalid status '%s'. %s", v.raw, statusChoices)
		case v.str == StatusPending || v.str == StatusInProgress || v.str == StatusCompleted || v.str == StatusDeleted:
			in.Status = &v.str
		default:
			c.add("Invalid status '%s'. %s", v.str, statusChoices)
		}
	}
	if v := obj.values["owner"]; v != nil {
		switch {
		case v.kind != jsonscan.KindString:
			c.add("'owner' must be a string")
		case v.str != "" && todo.IsBlank(v.str):
			c.add("'owner' cannot be blank (use \"\" to clear it)")
		case v.str != "" && !todo.TextOK(v.str, limits.MaxContentLength):
			c.add("'owner' exceeds %d characters", limits.MaxContentLength)
		default:
			in.Owner = &v.str
		}
	}
	in.Metadata, in.HasMetadata = c.metadata(obj)
	in.AddBlocks = c.ids(obj, "addBlocks")
	in.AddBlockedBy = c.ids(obj, "addBlockedBy")
	c.unknown(obj)
	return in, c.err()
}

// ValidateGet decodes and checks a TaskGet input.
func ValidateGet(input []byte) (GetInput, error) {
	obj, c, err := decodeInput(input, todo.Limits{}, "taskId")
	if err != nil {
		return GetInput{}, err
	}
	in := GetInput{TaskID: c.taskID(obj)}
	c.unknown(obj)
	return in, c.err()
}

// ValidateList checks a TaskList input: absent, null or an empty object.
func ValidateList(input []byte) error {
	if len(input) == 0 || string(input) == "null" || string(input) == "{}" {
		return nil
	}
	obj, c, err := decodeInput(input, todo.Limits{})
	if err != nil {
		return err
	}
	c.unknown(obj)
	return c.err()
}
