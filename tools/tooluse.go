package tools

import (
	"encoding/json"
	"fmt"

	"github.com/todo-shell/todo-shell/tools/internal/jsonscan"
)

// ParseToolUse decodes one tool_use block, such as a line the tool server
// reads. It checks that the text is JSON, that type is "tool_use", that id
// and name are non-empty strings and that input is an object. On error the
// returned ToolUse still carries the id when it could be read.
func ParseToolUse(text []byte) (ToolUse, error) {
	var (
		use                     ToolUse
		haveType, haveID, haveN bool
		input                   string
		badField                string
	)
	d := jsonscan.New(string(text))
	if d.Peek() != '{' {
		if _, err := d.Raw(); err != nil {
			return use, fmt.Errorf("invalid JSON: %w", err)
		}
		return use, fmt.Errorf("a tool_use block must be a JSON object")
	}
	str := func(name string, dst *string, have *bool) error {
		if d.Peek() != '"' {
			if badField == "" {
				badField = name
			}
			_, err := d.Raw()
			return err
		}
		s, err := d.String()
		*dst, *have = s, true
		return err
	}
	err := d.Object(func(key string) error {
		switch key {
		case "type":
			return str("type", &use.Type, &haveType)
		case "id":
			return str("id", &use.ID, &haveID)
		case "name":
			return str("name", &use.Name, &haveN)
		case "input":
			if d.Peek() != '{' && badField == "" {
				badField = "input"
			}
			raw, err := d.Raw()
			input = raw
			return err
		}
		return d.Skip()
	})
	if err == nil {
		err = d.End()
	}
	if err != nil {
		return use, fmt.Errorf("invalid JSON: %w", err)
	}
	switch {
	case badField == "input" || (badField == "" && input == ""):
		err = fmt.Errorf(`"input" must be a JSON object`)
	case badField != "":
		err = fmt.Errorf(`"%s" must be a string`, badField)
	case !haveType || use.Type != "tool_use":
		err = fmt.Errorf(`"type" must be "tool_use", got %q`, use.Type)
	case !haveID || use.ID == "":
		err = fmt.Errorf(`"id" is required`)
	case !haveN || use.Name == "":
		err = fmt.Errorf(`"name" is required`)
	}
	if err != nil {
		return use, err
	}
	use.Input = json.RawMessage(input)
	return use, nil
}
