package todo

import (
	"errors"
	"strings"
	"unicode/utf8"

	"github.com/todo-shell/todo-shell/internal/jsonscan"
)

// errBail stops the fast path; validateString then takes the slow path,
// which finds every error and words it.
var errBail = errors.New("bail")

// decodeValid is the fast path of validation: it decodes input straight into
// items and succeeds only when the input is valid, with no duplicate keys
// and nothing unusual. Anything else, it gives up and says so (ok false).
func decodeValid(s string, limits Limits) (items []Item, ok bool) {
	d := jsonscan.New(s)
	if d.Peek() != '{' {
		return nil, false
	}
	n := strings.Count(s, "{") - 1 // at least the number of items
	items = make([]Item, 0, min(max(n, 0), limits.MaxItems))
	seen, inProgress := false, 0
	err := d.Object(func(key string) error {
		if key != "todos" || seen || d.Peek() != '[' {
			return errBail
		}
		seen = true
		return d.Array(func() error {
			if d.Peek() != '{' || len(items) == limits.MaxItems {
				return errBail
			}
			it, err := decodeItem(d, limits)
			if err != nil {
				return err
			}
			if it.Status == StatusInProgress {
				inProgress++
			}
			items = append(items, it)
			return nil
		})
	})
	if err != nil || !seen || d.End() != nil {
		return nil, false
	}
	if limits.MaxInProgress > 0 && inProgress > limits.MaxInProgress {
		return nil, false
	}
	return items, true
}

// decodeItem decodes one item of the fast path, the object at d's offset;
// it gives up (errBail) on anything but the three fields, each a string
// once, a known status and acceptable texts.
func decodeItem(d *jsonscan.Decoder, limits Limits) (Item, error) {
	var it Item
	var have uint8
	if err := d.Object(func(key string) error {
		if d.Peek() != '"' {
			return errBail
		}
		v, err := d.String()
		if err != nil {
			return err
		}
		var bit uint8
		switch key {
		case "content":
			it.Content, bit = v, 1
		case "status":
			it.Status, bit = v, 2
		case "activeForm":
			it.ActiveForm, bit = v, 4
		}
		if bit == 0 || have&bit != 0 {
			return errBail
		}
		have |= bit
		return nil
	}); err != nil {
		return Item{}, err
	}
	switch it.Status {
	case StatusInProgress, StatusPending, StatusCompleted:
	default:
		return Item{}, errBail
	}
	if have != 7 || !textOK(it.Content, limits.MaxContentLength) || !textOK(it.ActiveForm, limits.MaxContentLength) {
		return Item{}, errBail
	}
	return it, nil
}

// textOK reports whether content or activeForm is acceptable.
func textOK(s string, limit int) bool {
	if isBlank(s) {
		return false
	}
	return len(s) <= limit || utf8.RuneCountInString(s) <= limit
}
