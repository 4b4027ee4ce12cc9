package jsonscan

// Helpers that read a few members out of a value, for the readers of
// records (plan versions, the user records of a transcript) that want a
// handful of fields and skip the rest.

// Pick puts in out[i] the raw text of the value of keys[i] in the object
// at d's offset, which it consumes ("" for a key not there; the first of
// repeated keys counts). A value that is no object is consumed and out
// left empty.
func (d *Decoder) Pick(out []string, keys ...string) error {
	clear(out)
	if d.PeekKind() != KindObject {
		return d.Skip()
	}
	return d.Object(func(key string) error {
		for i, k := range keys {
			if k == key && out[i] == "" {
				v, err := d.Raw()
				out[i] = v
				return err
			}
		}
		return d.Skip()
	})
}

// Pick is Decoder.Pick on raw, a value already checked (one Raw returned,
// or a text Valid accepted): it is walked without checking it again.
func Pick(raw string, out []string, keys ...string) {
	_ = NewValid(raw).Pick(out, keys...)
}

// Each calls f with the raw text of each element of the array raw, a
// value already checked; nothing when raw is no array.
func Each(raw string, f func(elem string)) {
	d := NewValid(raw)
	if d.PeekKind() != KindArray {
		return
	}
	_ = d.Array(func() error {
		v, err := d.Raw()
		if err == nil {
			f(v)
		}
		return err
	})
}

// Str returns the string the raw JSON value decodes to, "" when it is no
// string (or no valid one). A string with no escape is a slice of raw.
func Str(raw string) string {
	if raw == "" || raw[0] != '"' {
		return ""
	}
	s, err := New(raw).String()
	if err != nil {
		return ""
	}
	return s
}

// Valid reports whether s is one JSON value (white space around it
// allowed).
func Valid(s string) bool {
	d := New(s)
	return d.Skip() == nil && d.End() == nil
}
