package tools

import (
	"encoding/json"
	"fmt"
	"strings"
	"unsafe"

	"github.com/todo-shell/todo-shell/internal/jsonscan"
)

// ParseToolUse decodes one tool_use block, such as a line the tool server
// reads. It checks that the text is JSON, that type is "tool_use", that id
// and name are non-empty strings and that input is an object. On error the
// returned ToolUse still carries the id when it could be read.
//
// The returned Input is a slice of text, not a copy (the tool server reuses
// its read buffer, and handlers copy what they keep).
func ParseToolUse(text []byte) (use ToolUse, err error) {
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
	sc := toolUseScan{d: d, use: &use, inStart: -1, inEnd: -1}
	err = d.Object(sc.field)
	if err == nil {
		err = d.End()
	}
	if err != nil {
		return use, fmt.Errorf("invalid JSON: %w", err)
	}
	if err := sc.check(); err != nil {
		return use, err
	}
	use.Input = json.RawMessage(text[sc.inStart:sc.inEnd:sc.inEnd])
	return use, nil
}

// toolUseScan is the state of ParseToolUse: the fields read so far.
type toolUseScan struct {
	d                          *jsonscan.Decoder
	use                        *ToolUse
	haveType, haveID, haveName bool
	inStart, inEnd             int    // where input's value is in the text
	badField                   string // the first field of the wrong type
}

// field reads the value of the field key.
func (sc *toolUseScan) field(key string) error {
	d := sc.d
	switch key {
	case "type":
		return sc.str("type", &sc.use.Type, &sc.haveType)
	case "id":
		return sc.str("id", &sc.use.ID, &sc.haveID)
	case "name":
		return sc.str("name", &sc.use.Name, &sc.haveName)
	case "input":
		if d.Peek() != '{' && sc.badField == "" {
			sc.badField = "input"
		}
		sc.inStart = d.Offset()
		err := d.Skip()
		sc.inEnd = d.Offset()
		return err
	}
	return d.Skip()
}

// str reads the string value of the field name into *dst, or notes the
// field as bad when its value is not a string.
func (sc *toolUseScan) str(name string, dst *string, have *bool) error {
	d := sc.d
	if d.Peek() != '"' {
		if sc.badField == "" {
			sc.badField = name
		}
		_, err := d.Raw()
		return err
	}
	s, err := d.String()
	*dst, *have = s, true
	return err
}

// check says what is wrong with the fields read, if anything.
func (sc *toolUseScan) check() error {
	use := sc.use
	switch {
	case sc.badField == "input" || (sc.badField == "" && sc.inStart < 0):
		return fmt.Errorf(`"input" must be a JSON object`)
	case sc.badField != "":
		return fmt.Errorf(`"%s" must be a string`, sc.badField)
	case !sc.haveType || use.Type != "tool_use":
		return fmt.Errorf(`"type" must be "tool_use", got %q`, use.Type)
	case !sc.haveID || use.ID == "":
		return fmt.Errorf(`"id" is required`)
	case !sc.haveName || use.Name == "":
		return fmt.Errorf(`"name" is required`)
	}
	return nil
}
