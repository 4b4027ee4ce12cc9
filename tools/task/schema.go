package task

import (
	"encoding/json"

	"github.com/todo-shell/todo-shell/tools/todo"
)

// The input schemas state every rule of the validators (ValidateCreate,
// ValidateUpdate, ValidateGet, ValidateList) that a schema can: the property
// test holds them equal. What depends on the plan — whether a task exists,
// cycles, owners, the number of tasks and of tasks in progress — only the
// tools can check.

// member is one property of an ordered JSON object.
type member struct {
	key   string
	value any
}

// ordered is a JSON object that keeps its keys in order.
type ordered []member

func (o ordered) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	for i, m := range o {
		if i > 0 {
			b = append(b, ',')
		}
		k, _ := json.Marshal(m.key)
		v, err := json.Marshal(m.value)
		if err != nil {
			return nil, err
		}
		b = append(append(append(b, k...), ':'), v...)
	}
	return append(b, '}'), nil
}

// object is an object schema with the given properties (in order), required
// keys and no others.
func objectSchema(required []string, props ...member) ordered {
	s := ordered{{"type", "object"}, {"properties", ordered(props)}}
	if len(required) > 0 {
		s = append(s, member{"required", required})
	}
	return append(s, member{"additionalProperties", false})
}

// text is a non-blank string of at most max characters.
func textSchema(desc string, limit int) ordered {
	return ordered{{"type", "string"}, {"description", desc}, {"minLength", 1}, {"maxLength", limit}, {"pattern", todo.NonBlankPattern()}}
}

func idSchema(desc string) ordered {
	return ordered{{"type", "string"}, {"description", desc}}
}

func idList(desc string) ordered {
	return ordered{{"type", "array"}, {"description", desc}, {"items", ordered{{"type", "string"}}}}
}

func descSchema(desc string) ordered {
	return ordered{{"type", "string"}, {"description", desc}, {"maxLength", MaxDescriptionLength}}
}

func marshalSchema(s ordered) json.RawMessage {
	s = append(ordered{{"$schema", "https://json-schema.org/draft/2020-12/schema"}}, s...)
	b, err := json.Marshal(s)
	if err != nil {
		panic("task: marshal schema: " + err.Error())
	}
	return todo.EscapeInvisible(b)
}

// CreateSchema returns TaskCreate's input_schema for limits.
func CreateSchema(limits todo.Limits) json.RawMessage {
	return marshalSchema(objectSchema([]string{"subject", "description"},
		member{"subject", textSchema("A short title in the imperative: \"Write the tests\"", limits.MaxContentLength)},
		member{"description", descSchema("What needs doing, with the context someone picking the task up needs")},
		member{"activeForm", textSchema("The task as it is being done, in the present continuous: \"Writing the tests\"; shown while it is in progress", limits.MaxContentLength)},
		member{"metadata", ordered{{"type", "object"}, {"description", "Free-form data to keep with the task"}}},
	))
}

// UpdateSchema returns TaskUpdate's input_schema for limits.
func UpdateSchema(limits todo.Limits) json.RawMessage {
	owner := ordered{{"type", "string"}, {"description", "Who works on the task; \"\" clears it. A task someone else owns cannot be taken"},
		{"maxLength", limits.MaxContentLength}, {"pattern", "^$|" + todo.NonBlankPattern()}}
	return marshalSchema(objectSchema([]string{"taskId"},
		member{"taskId", idSchema("The id of the task to change")},
		member{"subject", textSchema("A new title", limits.MaxContentLength)},
		member{"description", descSchema("A new description")},
		member{"activeForm", textSchema("A new present-continuous form", limits.MaxContentLength)},
		member{"status", ordered{{"type", "string"}, {"description", "The new status; deleted removes the task from the plan"},
			{"enum", []string{StatusPending, StatusInProgress, StatusCompleted, StatusDeleted}}}},
		member{"owner", owner},
		member{"metadata", ordered{{"type", "object"}, {"description", "Keys to merge into the task's metadata; a key set to null is removed"}}},
		member{"addBlocks", idList("Tasks that cannot start until this one is completed")},
		member{"addBlockedBy", idList("Tasks that must be completed before this one can start")},
	))
}

// GetSchema returns TaskGet's input_schema.
func GetSchema() json.RawMessage {
	return marshalSchema(objectSchema([]string{"taskId"}, member{"taskId", idSchema("The id of the task to read")}))
}

// ListSchema returns TaskList's input_schema: an object with no properties.
func ListSchema() json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{},"additionalProperties":false}`)
}
