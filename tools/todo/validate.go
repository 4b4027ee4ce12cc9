package todo

import (
	"bytes"
	"encoding/json"
	"fmt"
	"unsafe"

	"github.com/todo-shell/todo-shell/internal/jsonscan"
)

// Status values, exactly as they appear on the wire.
const (
	StatusPending    = "pending"
	StatusInProgress = "in_progress"
	StatusCompleted  = "completed"
)

// Item is one todo: what to do (Content, imperative), what is being done
// (ActiveForm, present continuous) and its Status.
type Item struct {
	Content    string `json:"content"`
	Status     string `json:"status"`
	ActiveForm string `json:"activeForm"`
}

// ValidationError lists every reason a TodoWrite input was rejected, in the
// order the checks ran. Its Error is the first reason; the tool result
// carries them all (see InputError).
type ValidationError struct {
	Messages []string
}

func (e *ValidationError) Error() string { return e.Messages[0] }

const statusChoices = "Must be one of: pending, in_progress, completed"

// Validate decodes and checks a TodoWrite input against limits. It returns
// the items on success; a *SyntaxError when input is not JSON; or a
// *ValidationError listing every problem.
func Validate(input []byte, limits Limits) ([]Item, error) {
	// Scan input in place and copy out only the strings the items keep:
	// one small allocation instead of a copy of the whole text.
	return validateString(unsafe.String(unsafe.SliceData(input), len(input)), limits)
}

func validateString(input string, limits Limits) ([]Item, error) {
	if items, ok := decodeValid(input, limits); ok {
		return own(items), nil
	}
	in, err := decodeInput(input)
	if err != nil {
		return nil, err
	}
	var msgs []string
	switch {
	case !in.isObject:
		msgs = append(msgs, "Input must be a JSON object with a 'todos' array")
	case in.todos.kind == jsonscan.KindAbsent:
		msgs = append(msgs, "'todos' array is required")
	case in.todos.kind != jsonscan.KindArray:
		msgs = append(msgs, "'todos' must be an array")
	}
	for _, key := range in.unknown {
		msgs = append(msgs, fmt.Sprintf("Unknown field '%s'", key))
	}
	if in.todos.kind != jsonscan.KindArray {
		return nil, &ValidationError{Messages: msgs}
	}
	if n := len(in.items); n > limits.MaxItems {
		msgs = append(msgs, fmt.Sprintf("Too many todos: %d (max %d)", n, limits.MaxItems))
	}
	inProgress := 0
	for i := range in.items {
		var active bool
		msgs, active = checkItem(msgs, i, &in.items[i], limits)
		if active {
			inProgress++
		}
	}
	if limits.MaxInProgress > 0 && inProgress > limits.MaxInProgress {
		if limits.MaxInProgress == 1 {
			msgs = append(msgs, fmt.Sprintf("Only one todo can be in_progress at a time (found %d)", inProgress))
		} else {
			msgs = append(msgs, fmt.Sprintf("At most %d todos can be in_progress at a time (found %d)", limits.MaxInProgress, inProgress))
		}
	}
	if len(msgs) > 0 {
		return nil, &ValidationError{Messages: msgs}
	}
	items := make([]Item, len(in.items))
	for i := range in.items {
		it := &in.items[i]
		items[i] = Item{Content: it.content.str, Status: it.status.str, ActiveForm: it.activeForm.str}
	}
	return own(items), nil
}

// checkItem appends to msgs the problems of the item at index i, and
// reports whether it is in progress.
func checkItem(msgs []string, i int, it *rawItem, limits Limits) (_ []string, inProgress bool) {
	if !it.isObject {
		return append(msgs, fmt.Sprintf("Todo at index %d: must be an object", i)), false
	}
	msgs = checkText(msgs, i, "content", it.content, limits.MaxContentLength)
	switch s := it.status; {
	case s.kind == jsonscan.KindAbsent:
		msgs = append(msgs, fmt.Sprintf("Todo at index %d: status is required. %s", i, statusChoices))
	case s.kind != jsonscan.KindString:
		msgs = append(msgs, fmt.Sprintf("Todo at index %d: invalid status '%s'. %s", i, compact(s.raw), statusChoices))
	case s.str == StatusInProgress:
		inProgress = true
	case s.str != StatusPending && s.str != StatusCompleted:
		msgs = append(msgs, fmt.Sprintf("Todo at index %d: invalid status '%s'. %s", i, s.str, statusChoices))
	}
	msgs = checkText(msgs, i, "activeForm", it.activeForm, limits.MaxContentLength)
	for _, key := range it.unknown {
		msgs = append(msgs, fmt.Sprintf("Todo at index %d: unknown field '%s'", i, key))
	}
	return msgs, inProgress
}

// own moves the items' strings, which may point into the caller's input,
// into one new block of memory. Statuses become the constants.
func own(items []Item) []Item {
	n := 0
	for i := range items {
		n += len(items[i].Content) + len(items[i].ActiveForm)
	}
	if n == 0 {
		return items
	}
	arena := make([]byte, 0, n)
	for i := range items {
		arena = append(arena, items[i].Content...)
		arena = append(arena, items[i].ActiveForm...)
	}
	text := unsafe.String(unsafe.SliceData(arena), len(arena)) // arena is never written again
	at := 0
	for i := range items {
		it := &items[i]
		c, a := len(it.Content), len(it.ActiveForm)
		it.Content, it.ActiveForm = text[at:at+c], text[at+c:at+c+a]
		at += c + a
		switch it.Status {
		case StatusPending:
			it.Status = StatusPending
		case StatusInProgress:
			it.Status = StatusInProgress
		case StatusCompleted:
			it.Status = StatusCompleted
		}
	}
	return items
}

func checkText(msgs []string, i int, name string, f field, limit int) []string {
	switch {
	case f.kind != jsonscan.KindString || isBlank(f.str):
		return append(msgs, fmt.Sprintf("Todo at index %d: %s is required and cannot be empty", i, name))
	case !textOK(f.str, limit):
		return append(msgs, fmt.Sprintf("Todo at index %d: %s exceeds %d characters", i, name, limit))
	}
	return msgs
}

// compact returns the compact JSON text of a raw value, for messages.
func compact(raw string) string {
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(raw)); err != nil {
		return raw
	}
	return b.String()
}
