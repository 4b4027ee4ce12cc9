package todo

import (
	"encoding/json"
	"unicode/utf8"
)

// nonBlankPattern matches a string with at least one character that is not
// blank (see blank.go).
var nonBlankPattern = "[^" + blankClass + "]"

type schema struct {
	Schema               string             `json:"$schema,omitempty"`
	Type                 string             `json:"type,omitempty"`
	Description          string             `json:"description,omitempty"`
	Properties           *orderedProperties `json:"properties,omitempty"`
	Required             []string           `json:"required,omitempty"`
	AdditionalProperties *bool              `json:"additionalProperties,omitempty"`
	Items                *schema            `json:"items,omitempty"`
	MaxItems             *int               `json:"maxItems,omitempty"`
	MinLength            *int               `json:"minLength,omitempty"`
	MaxLength            *int               `json:"maxLength,omitempty"`
	Pattern              string             `json:"pattern,omitempty"`
	Enum                 []string           `json:"enum,omitempty"`
	Const                string             `json:"const,omitempty"`
	Contains             *schema            `json:"contains,omitempty"`
	MinContains          *int               `json:"minContains,omitempty"`
	MaxContains          *int               `json:"maxContains,omitempty"`
}

// orderedProperties keeps properties in the order they were declared, so the
// schema reads the way the tool's documentation does.
type orderedProperties struct {
	names   []string
	schemas []*schema
}

func (p *orderedProperties) add(name string, s *schema) *orderedProperties {
	p.names = append(p.names, name)
	p.schemas = append(p.schemas, s)
	return p
}

func (p *orderedProperties) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	for i, name := range p.names {
		if i > 0 {
			b = append(b, ',')
		}
		k, _ := json.Marshal(name)
		v, err := json.Marshal(p.schemas[i])
		if err != nil {
			return nil, err
		}
		b = append(append(append(b, k...), ':'), v...)
	}
	return append(b, '}'), nil
}

func ptr[T any](v T) *T { return &v }

// WriteSchema returns TodoWrite's input_schema (JSON Schema draft 2020-12)
// for limits: every rule of the validator that a schema can state.
func WriteSchema(limits Limits) json.RawMessage {
	text := func(desc string) *schema {
		return &schema{Type: "string", Description: desc, MinLength: ptr(1),
			MaxLength: ptr(limits.MaxContentLength), Pattern: nonBlankPattern}
	}
	item := &schema{
		Type: "object",
		Properties: new(orderedProperties).
			add("content", text("What to do, in the imperative: \"Run the tests\"")).
			add("status", &schema{Type: "string", Enum: []string{StatusPending, StatusInProgress, StatusCompleted}}).
			add("activeForm", text("What is being done, in the present continuous: \"Running the tests\"")),
		Required:             []string{"content", "status", "activeForm"},
		AdditionalProperties: ptr(false),
	}
	todos := &schema{Type: "array", Description: "The complete new list; it replaces the old one", Items: item, MaxItems: ptr(limits.MaxItems)}
	if limits.MaxInProgress > 0 {
		todos.Contains = &schema{
			Type:       "object",
			Properties: new(orderedProperties).add("status", &schema{Const: StatusInProgress}),
			Required:   []string{"status"},
		}
		todos.MinContains = ptr(0)
		todos.MaxContains = ptr(limits.MaxInProgress)
	}
	return mustMarshal(&schema{
		Schema:               "https://json-schema.org/draft/2020-12/schema",
		Type:                 "object",
		Properties:           new(orderedProperties).add("todos", todos),
		Required:             []string{"todos"},
		AdditionalProperties: ptr(false),
	})
}

// ReadSchema returns TodoRead's input_schema: an object with no properties.
func ReadSchema() json.RawMessage {
	return json.RawMessage(`{"type":"object","properties":{},"additionalProperties":false}`)
}

func mustMarshal(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic("todo: marshal schema: " + err.Error())
	}
	return escapeInvisible(b)
}

// escapeInvisible writes the invisible (blank) characters of the pattern as
// \u escapes, so the schema stays readable; the decoded text is unchanged.
func escapeInvisible(b []byte) []byte {
	out := make([]byte, 0, len(b)+64)
	for _, r := range string(b) {
		if r >= 0x80 && isBlankRune(r) {
			out = appendEscaped(out, r)
			continue
		}
		out = utf8.AppendRune(out, r)
	}
	return out
}
