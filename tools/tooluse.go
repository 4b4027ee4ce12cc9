package tools

import (
	"encoding/json"
	"fmt"
	"strings"
	"unsafe"

	"github.com/todo-shell/todo-shell/tools/internal/jsonscan"
)

// ParseToolUse decodes one tool_use block, such as a line the tool server
// reads. It checks that the text is JSON, that type is "tool_use", that id
// and name are non-empty strings and that input is an object. On error the
// returned ToolUse still carries the id when it could be read.
//
// The returned Input is a slice of text, not a copy (the tool server reuses
// its read buffer, and handlers copy what they keep).
func ParseToolUse(text []byte) (use ToolUse, err error) {
	var (
		haveType, haveID, haveN bool
		inStart, inEnd          = -1, -1
		badField                string
	)
	// Scan text in place; the strings kept are cloned below.
	d := jsonscan.New(unsafe.String(unsafe.SliceData(text), len(text)))
	defer func() {
		use.Type, use.ID, use.Name = strings.Clone(use.Type), strings.Clone(use.ID), strings.Clone(use.Name)
	}()
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
	err = d.Object(func(key string) error {
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
			inStart = d.Offset()
			err := d.Skip()
			inEnd = d.Offset()
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
	case badField == "input" || (badField == "" && inStart < 0):
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
	use.Input = json.RawMessage(text[inStart:inEnd:inEnd])
	return use, nil
}
