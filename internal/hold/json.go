package hold

import "github.com/todo-shell/todo-shell/internal/jsonscan"

// The few fields of a user record are read with jsonscan, todo-shell's one
// JSON parser: the record is checked whole once (members with valid
// false), and the values it holds are walked unchecked after.

// members returns the raw JSON values of keys in the object raw, in
// keys' order ("" for a key not there; the first of repeated keys
// counts); ok is false when raw is no JSON object (or, unless valid says
// raw was checked already, not valid JSON).
func members(raw string, valid bool, keys ...string) (out []string, ok bool) {
	out = make([]string, len(keys))
	if raw == "" {
		return out, false
	}
	d := jsonscan.New(raw)
	if valid {
		d = jsonscan.NewValid(raw)
	}
	if d.PeekKind() != jsonscan.KindObject {
		return out, false
	}
	err := d.Pick(out, keys...)
	if err == nil && !valid {
		err = d.End()
	}
	return out, err == nil
}
