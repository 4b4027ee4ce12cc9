package todo

import (
	"github.com/todo-shell/todo-shell/internal/jsonscan"
)

// TodoWrite input is decoded with jsonscan, a strict scanner that accepts
// exactly what encoding/json accepts and decodes strings the same way
// (duplicate keys: the last one wins) but builds no generic maps: it fills
// the few fields TodoWrite looks at and keeps everything else only as far as
// error messages need. BenchmarkDecodeCandidates shows why: a generic
// encoding/json decode costs more than the whole budget of a TodoWrite call.

// SyntaxError is a JSON syntax error at a byte offset of the input.
type SyntaxError = jsonscan.SyntaxError

// field is one value TodoWrite cares about: its kind, its decoded text when
// it is a string and its raw JSON text otherwise (for error messages).
type field struct {
	kind jsonscan.Kind
	str  string
	raw  string
}

type rawItem struct {
	isObject                    bool
	content, status, activeForm field
	unknown                     []string
}

type rawInput struct {
	isObject bool
	todos    field
	items    []rawItem
	unknown  []string
}

// decodeInput parses a whole TodoWrite input text.
func decodeInput(s string) (rawInput, error) {
	d := jsonscan.New(s)
	var in rawInput
	if d.Peek() == '{' {
		in.isObject = true
		if err := d.Object(func(key string) error {
			if key != "todos" {
				in.unknown = appendUnique(in.unknown, key)
				return d.Skip()
			}
			in.items = in.items[:0]
			return decodeTodos(d, &in)
		}); err != nil {
			return in, err
		}
	} else if err := d.Skip(); err != nil {
		return in, err
	}
	return in, d.End()
}

// decodeObjectKeys parses a text that should be an object and returns its
// keys, in order, for "Unknown field" messages.
func decodeObjectKeys(s string) (isObject bool, keys []string, err error) {
	d := jsonscan.New(s)
	if d.Peek() == '{' {
		isObject = true
		err = d.Object(func(key string) error {
			keys = appendUnique(keys, key)
			return d.Skip()
		})
	} else {
		err = d.Skip()
	}
	if err != nil {
		return isObject, keys, err
	}
	return isObject, keys, d.End()
}

func appendUnique(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

// decodeTodos decodes the value of the "todos" key.
func decodeTodos(d *jsonscan.Decoder, in *rawInput) error {
	if d.Peek() != '[' {
		return decodeField(d, &in.todos)
	}
	in.todos = field{kind: jsonscan.KindArray}
	return d.Array(func() error {
		if d.Peek() != '{' {
			in.items = append(in.items, rawItem{})
			return d.Skip()
		}
		in.items = append(in.items, rawItem{isObject: true})
		it := &in.items[len(in.items)-1]
		return d.Object(func(key string) error {
			switch key {
			case "content":
				return decodeField(d, &it.content)
			case "status":
				return decodeField(d, &it.status)
			case "activeForm":
				return decodeField(d, &it.activeForm)
			}
			it.unknown = appendUnique(it.unknown, key)
			return d.Skip()
		})
	})
}

// decodeField decodes one value into f.
func decodeField(d *jsonscan.Decoder, f *field) error {
	kind := d.PeekKind()
	if kind == jsonscan.KindString {
		s, err := d.String()
		*f = field{kind: kind, str: s}
		return err
	}
	f.kind = kind
	raw, err := d.Raw()
	f.str, f.raw = "", raw
	return err
}
