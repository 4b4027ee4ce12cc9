package task

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"strings"

	"github.com/todo-shell/todo-shell/tools"
	"github.com/todo-shell/todo-shell/tools/todo"
)

// Tool names.
const (
	CreateName = "TaskCreate"
	UpdateName = "TaskUpdate"
	ListName   = "TaskList"
	GetName    = "TaskGet"
)

// Names returns the Task tools' names in the order they are registered.
func Names() []string { return []string{CreateName, GetName, UpdateName, ListName} }

//go:embed taskcreate.md
var createDescription string

//go:embed taskupdate.md
var updateDescription string

//go:embed tasklist.md
var listDescription string

//go:embed taskget.md
var getDescription string

// Definitions returns the four tools' definitions for limits, in Names
// order. They change only the task list, todo-shell's own state, so they
// are ReadOnly: a call never waits for a person's yes, as TodoWrite's
// does not.
func Definitions(limits todo.Limits) []tools.Definition {
	return []tools.Definition{
		{Name: CreateName, Description: createDescription, InputSchema: CreateSchema(limits), ReadOnly: true},
		{Name: GetName, Description: getDescription, InputSchema: GetSchema(), ReadOnly: true},
		{Name: UpdateName, Description: updateDescription, InputSchema: UpdateSchema(limits), ReadOnly: true},
		{Name: ListName, Description: listDescription, InputSchema: ListSchema(), ReadOnly: true},
	}
}

type callerKey struct{}

// WithCaller returns a context naming who makes the calls run under it (an
// MCP client's name, say): the owner a task started by it takes, and whose
// claims it may change.
func WithCaller(ctx context.Context, name string) context.Context {
	return context.WithValue(ctx, callerKey{}, name)
}

// CallerFrom returns the caller named by WithCaller, or "".
func CallerFrom(ctx context.Context) string {
	s, _ := ctx.Value(callerKey{}).(string)
	return s
}

// Options configure the Task tools.
type Options struct {
	Limits todo.Limits
	// Caller is who calls when the context names no one ("": a person at
	// the shell, who may change any claim).
	Caller string
}

// Register adds the four Task tools, backed by store, to reg.
func Register(reg *tools.Registry, store *Store, o Options) error {
	if err := o.Limits.Validate(); err != nil {
		return err
	}
	handlers := map[string]tools.Handler{
		CreateName: CreateHandler(store, o),
		UpdateName: UpdateHandler(store, o),
		ListName:   ListHandler(store),
		GetName:    GetHandler(store),
	}
	for _, def := range Definitions(o.Limits) {
		if err := reg.Add(Tool{def: def, handler: handlers[def.Name]}); err != nil {
			return err
		}
	}
	return nil
}

// Report is the Meta of a Task tool's result, for front ends.
type Report struct {
	Task    Task   // the task created, changed or read
	State   State  // the plan after the call (TaskList)
	Version uint64 // the plan's version after the call
	Err     error  // *ValidationError, *SyntaxError or *PlanError when rejected
}

// InputError turns a rejection into the result's message: every validation
// message (see todo.ResultErrors), what was wrong with the JSON, or the
// plan's reason.
func InputError(err error) string {
	var verr *ValidationError
	var perr *PlanError
	switch {
	case errors.As(err, &verr):
		return todo.ResultErrors(verr.Messages)
	case errors.As(err, &perr):
		return perr.Msg
	}
	var syn *SyntaxError
	if errors.As(err, &syn) {
		return "Invalid JSON input: " + err.Error()
	}
	return err.Error()
}

func rejected(err error) tools.Result {
	res := tools.ErrorResult(InputError(err))
	res.Meta = Report{Err: err}
	return res
}

func (o Options) caller(ctx context.Context) string {
	if c := CallerFrom(ctx); c != "" {
		return c
	}
	return o.Caller
}

// record describes the call being made, for the journal.
func record(ctx context.Context, tool, by string, input json.RawMessage) Record {
	in := make(json.RawMessage, len(input))
	copy(in, input)
	if c, err := todo.CompactInput(string(in)); err == nil {
		in = c
	}
	return Record{ToolUseID: tools.ToolUseIDFrom(ctx), Tool: tool, By: by, Input: in}
}

// CreateHandler returns the TaskCreate handler.
func CreateHandler(store *Store, o Options) tools.Handler {
	return func(ctx context.Context, input json.RawMessage) (tools.Result, error) {
		if err := ctx.Err(); err != nil {
			return tools.Result{}, err
		}
		in, err := ValidateCreate(input, o.Limits)
		if err != nil {
			return rejected(err), nil
		}
		var created Task
		st, err := store.Do(record(ctx, CreateName, o.caller(ctx), input), func(st State) (Change, error) {
			c, t, err := Create(st, in, o.Limits)
			created = t
			return c, err
		})
		if err != nil {
			return rejected(err), nil
		}
		res := tools.TextResult(CreatedText(created))
		res.Meta = Report{Task: created, Version: st.Version}
		return res, nil
	}
}

// CreatedText is TaskCreate's result for t.
func CreatedText(t Task) string {
	return "Task #" + t.ID + " created successfully: " + t.Subject
}

// UpdateHandler returns the TaskUpdate handler.
func UpdateHandler(store *Store, o Options) tools.Handler {
	return func(ctx context.Context, input json.RawMessage) (tools.Result, error) {
		if err := ctx.Err(); err != nil {
			return tools.Result{}, err
		}
		in, err := ValidateUpdate(input, o.Limits)
		if err != nil {
			return rejected(err), nil
		}
		var ur UpdateResult
		caller := o.caller(ctx)
		st, err := store.Do(record(ctx, UpdateName, caller, input), func(st State) (Change, error) {
			c, r, err := Update(st, in, o.Limits, caller)
			ur = r
			return c, err
		})
		switch {
		case errors.Is(err, ErrNoChange):
			res := tools.TextResult("Task #" + in.TaskID + " is unchanged: it already has those values")
			res.Meta = Report{Task: ur.Task, Version: st.Version}
			return res, nil
		case err != nil:
			return rejected(err), nil
		}
		res := tools.TextResult(UpdatedText(ur))
		res.Meta = Report{Task: ur.Task, Version: st.Version}
		return res, nil
	}
}

// UpdatedText is TaskUpdate's result for an accepted update.
func UpdatedText(r UpdateResult) string {
	if r.Deleted {
		return "Task #" + r.Task.ID + " deleted"
	}
	s := "Updated task #" + r.Task.ID + " " + strings.Join(r.Fields, ", ")
	if len(r.OpenBlockers) > 0 {
		s += " (completed while still blocked by " + hashIDs(r.OpenBlockers, ", ") + ", not completed yet)"
	}
	return s
}

// hashIDs writes ids as #1, #2 (sep between them).
func hashIDs(ids []string, sep string) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = "#" + id
	}
	return strings.Join(parts, sep)
}

// ListHandler returns the TaskList handler.
func ListHandler(store *Store) tools.Handler {
	return func(ctx context.Context, input json.RawMessage) (tools.Result, error) {
		if err := ctx.Err(); err != nil {
			return tools.Result{}, err
		}
		if err := ValidateList(input); err != nil {
			return rejected(err), nil
		}
		st := store.Snapshot()
		res := tools.TextResult(ListText(st))
		res.Meta = Report{State: st, Version: st.Version}
		return res, nil
	}
}

// GetHandler returns the TaskGet handler.
func GetHandler(store *Store) tools.Handler {
	return func(ctx context.Context, input json.RawMessage) (tools.Result, error) {
		if err := ctx.Err(); err != nil {
			return tools.Result{}, err
		}
		in, err := ValidateGet(input)
		if err != nil {
			return rejected(err), nil
		}
		st := store.Snapshot()
		t, ok := st.Get(in.TaskID)
		if !ok {
			return rejected(planErr("Task #%s not found", in.TaskID)), nil
		}
		res := tools.TextResult(GetText(st, t))
		res.Meta = Report{Task: t, Version: st.Version}
		return res, nil
	}
}

// Templates returns an argument to start from for each Task tool that takes
// one, quoted for the shell: what Tab offers after "TaskCreate ". A template
// holds the required fields only (TaskCreate: subject and description, as
// Claude Code's schema requires them): an optional field left empty, such
// as activeForm, would be refused as empty, so it is not offered.
func Templates() map[string]string {
	return map[string]string{
		CreateName: `'{"subject":"","description":""}'`,
		UpdateName: `'{"taskId":"","status":"in_progress"}'`,
		GetName:    `'{"taskId":""}'`,
	}
}
