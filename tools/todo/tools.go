// Package todo implements the TodoWrite and TodoRead tools: a validated,
// wholly replaced todo list held in a Store that front ends watch.
package todo

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"strconv"

	"github.com/todo-shell/todo-shell/internal/jsonscan"
	"github.com/todo-shell/todo-shell/tools"
)

// Tool names.
const (
	WriteName = "TodoWrite"
	ReadName  = "TodoRead"
)

//go:embed todowrite.md
var writeDescription string

//go:embed todoread.md
var readDescription string

// WriteDefinition returns TodoWrite's definition for limits.
func WriteDefinition(limits Limits) tools.Definition {
	return tools.Definition{Name: WriteName, Description: writeDescription, InputSchema: WriteSchema(limits), ReadOnly: true}
}

// ReadDefinition returns TodoRead's definition.
func ReadDefinition() tools.Definition {
	return tools.Definition{Name: ReadName, Description: readDescription, InputSchema: ReadSchema(), ReadOnly: true}
}

// Register adds TodoWrite and TodoRead, backed by store, to reg, with their
// shell forms; plain draws TodoRead's list for a person (see ReadTool).
func Register(reg *tools.Registry, store *Store, limits Limits, plain func(Snapshot) string) error {
	if err := limits.Validate(); err != nil {
		return err
	}
	if err := reg.Add(WriteTool{Store: store, Limits: limits}); err != nil {
		return err
	}
	return reg.Add(ReadTool{Store: store, Plain: plain})
}

// WriteHandler returns the TodoWrite handler: validate, replace the list,
// answer {"success":true,"count":N}. A rejected input changes nothing and
// yields every validation message (see ResultErrors) as an is_error result.
func WriteHandler(store *Store, limits Limits) tools.Handler {
	return WriteTool{Store: store, Limits: limits}.Call
}

// Call runs TodoWrite (see WriteHandler).
func (t WriteTool) Call(ctx context.Context, input json.RawMessage) (tools.Result, error) {
	if err := ctx.Err(); err != nil {
		return tools.Result{}, err
	}
	items, err := Validate(input, t.Limits)
	if err != nil {
		res := tools.ErrorResult(InputError(err))
		res.Meta = WriteReport{Err: err}
		return res, nil
	}
	if err := t.Store.check(); err != nil {
		// The list could not be kept: the caller must not take it as
		// written.
		res := tools.ErrorResult(err.Error())
		res.Meta = WriteReport{Err: err}
		return res, nil
	}
	var rep WriteReport
	rep.Completed, rep.InProgress, rep.Pending = Snapshot{Items: items}.Counts()
	t.Store.ReplaceFor(tools.ToolUseIDFrom(ctx), items)
	res := tools.TextResult(WriteSuccess(len(items)))
	res.Meta = rep
	return res, nil
}

// WriteReport is the Meta of a TodoWrite result, for front ends: the counts
// of the list written, or every reason it was rejected.
type WriteReport struct {
	Completed, InProgress, Pending int
	// Err is a *ValidationError (every message) or a *SyntaxError; nil
	// when the list was written.
	Err error
}

// CompactInput checks that text is one JSON value and returns it without
// white space between tokens, so an input typed over several lines is the
// same tool input as its one-line form. A bad text gives a *SyntaxError.
func CompactInput(text string) (json.RawMessage, error) {
	s, err := jsonscan.Compact(text)
	if err != nil {
		return nil, err
	}
	return json.RawMessage(s), nil
}

// successTexts holds WriteSuccess for the usual list sizes, so a write
// allocates no answer.
var successTexts = func() []string {
	t := make([]string, 65)
	for n := range t {
		t[n] = writeSuccess(n)
	}
	return t
}()

// WriteSuccess is TodoWrite's content for a list of n items.
func WriteSuccess(n int) string {
	if n >= 0 && n < len(successTexts) {
		return successTexts[n]
	}
	return writeSuccess(n)
}

func writeSuccess(n int) string {
	b := make([]byte, 0, 32)
	b = append(b, `{"success":true,"count":`...)
	b = strconv.AppendInt(b, int64(n), 10)
	return string(append(b, '}'))
}

// InputError turns an error of Validate into the tool result's message:
// every validation message (see ResultErrors), or what was wrong with the
// JSON.
func InputError(err error) string {
	var verr *ValidationError
	if errors.As(err, &verr) {
		return ResultErrors(verr.Messages)
	}
	return "Invalid JSON input: " + err.Error()
}

// ResultErrors is a tool result's message for the validation messages msgs,
// for every tool of the plan: a lone message as it is, and several as the
// list a person sees at the shell ("Validation failed" and one "- " line
// each, see ListErrors), so a model learns every reason at once.
func ResultErrors(msgs []string) string {
	if len(msgs) == 1 {
		return msgs[0]
	}
	return "Validation failed\n" + ListErrors(msgs)
}

// ReadHandler returns the TodoRead handler: {"todos":[...]} holding exactly
// the items last written. The result's Meta is the Snapshot read.
func ReadHandler(store *Store) tools.Handler {
	return ReadTool{Store: store}.Call
}

// Call runs TodoRead (see ReadHandler).
func (t ReadTool) Call(ctx context.Context, input json.RawMessage) (tools.Result, error) {
	if err := ctx.Err(); err != nil {
		return tools.Result{}, err
	}
	if err := checkNoInput(input); err != nil {
		return tools.ErrorResult(err.Error()), nil
	}
	snap := t.Store.Snapshot()
	res := tools.TextResult(string(AppendList(nil, snap.Items)))
	res.Meta = snap
	return res, nil
}

// checkNoInput accepts an absent input, null or {}.
func checkNoInput(input json.RawMessage) error {
	if len(input) == 0 || string(input) == "{}" || string(input) == "null" {
		return nil
	}
	isObject, keys, err := decodeObjectKeys(string(input))
	switch {
	case err != nil:
		return &inputError{msg: "Invalid JSON input", err: err}
	case !isObject:
		return &inputError{msg: "Input must be a JSON object"}
	case len(keys) > 0:
		return &inputError{msg: "Unknown field '" + keys[0] + "'"}
	}
	return nil
}

// inputError is a message for the model in the PRD's exact words, which
// start with a capital letter (unlike Go's usual error strings), followed
// by the cause when there is one.
type inputError struct {
	msg string
	err error
}

func (e *inputError) Error() string {
	if e.err != nil {
		return e.msg + ": " + e.err.Error()
	}
	return e.msg
}

func (e *inputError) Unwrap() error { return e.err }

// AppendList appends {"todos":[...]} for items to dst.
func AppendList(dst []byte, items []Item) []byte {
	return tools.AppendObject(dst).Value("todos", func(b []byte) []byte { return AppendItems(b, items) }).Close()
}

// AppendItems appends items as a JSON array of {"content","status",
// "activeForm"} objects: the todo shape every file and answer of
// todo-shell writes.
func AppendItems(dst []byte, items []Item) []byte {
	return tools.AppendArray(dst, len(items), func(dst []byte, i int) []byte {
		it := &items[i]
		return tools.AppendObject(dst).String("content", it.Content).String("status", it.Status).String("activeForm", it.ActiveForm).Close()
	})
}
