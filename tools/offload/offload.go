// Package offload moves long tool results out of a conversation: the full
// text goes to <outputDir>/<sessionID>/<tool_use_id>.md and the result's
// content becomes a one-line pointer to that file.
package offload

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"unicode/utf8"
)

// DefaultThreshold is the size, in characters, from which a result is
// offloaded.
const DefaultThreshold = 1000

// Message is one Messages API message whose content holds content blocks.
type Message struct {
	Role    string  `json:"role"`
	Content []Block `json:"content"`
}

// Block is a content block of a message. Only tool_result blocks are looked
// at; other blocks are carried through unchanged.
type Block struct {
	Type      string         `json:"type"`
	Text      string         `json:"text,omitempty"`
	ToolUseID string         `json:"tool_use_id,omitempty"`
	Content   *ResultContent `json:"content,omitempty"`
	IsError   bool           `json:"is_error,omitempty"`
}

// ResultContent is a tool_result's content: a string, or an array of content
// blocks kept as raw JSON.
type ResultContent struct {
	Text   string
	Blocks json.RawMessage // set when the content is an array
}

// MarshalJSON writes the string or the array.
func (c ResultContent) MarshalJSON() ([]byte, error) {
	if c.Blocks != nil {
		return c.Blocks, nil
	}
	return json.Marshal(c.Text)
}

// UnmarshalJSON reads a string or an array of blocks.
func (c *ResultContent) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '[' {
		var check []json.RawMessage
		if err := json.Unmarshal(b, &check); err != nil {
			return err
		}
		c.Text, c.Blocks = "", append(json.RawMessage(nil), b...)
		return nil
	}
	c.Blocks = nil
	return json.Unmarshal(b, &c.Text)
}

// fileText is what is written to the file: the string as is, or the array's
// compact JSON.
func (c ResultContent) fileText() ([]byte, error) {
	if c.Blocks == nil {
		return []byte(c.Text), nil
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, c.Blocks); err != nil {
		return nil, fmt.Errorf("tool_result content is not valid JSON: %w", err)
	}
	return buf.Bytes(), nil
}

// Result is what Offload returns.
type Result struct {
	Message    Message // a new message; the input is never modified
	FreedChars int     // characters of the original content less the pointer's
	File       string  // absolute path of the written file
}

// Pointer returns the content that replaces an offloaded result.
func Pointer(absPath string) string {
	return "[Tool result offloaded to file: " + absPath + "]"
}

// ShouldOffload reports whether content of this many characters or more
// should be offloaded; threshold 0 turns offloading off.
func ShouldOffload(content string, threshold int) bool {
	if threshold <= 0 || len(content) < threshold {
		return false
	}
	return utf8.RuneCountInString(content) >= threshold
}

// Path returns the absolute path of the file for one tool_use in a session,
// after checking both ids.
func Path(outputDir, sessionID, toolUseID string) (string, error) {
	if err := CheckID("session id", sessionID); err != nil {
		return "", err
	}
	if err := CheckID("tool_use_id", toolUseID); err != nil {
		return "", err
	}
	abs, err := filepath.Abs(filepath.Join(outputDir, sessionID, toolUseID+".md"))
	if err != nil {
		return "", fmt.Errorf("offload: resolve output directory %q: %w", outputDir, err)
	}
	return abs, nil
}

// CheckID accepts ids of 1 to 128 characters from [A-Za-z0-9_-], the tool_use
// id alphabet, so an id can never climb out of its directory.
func CheckID(what, id string) error {
	if id == "" {
		return fmt.Errorf("offload: %s is empty", what)
	}
	if len(id) > 128 {
		return fmt.Errorf("offload: %s is longer than 128 characters", what)
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return fmt.Errorf("offload: %s %q may hold only letters, digits, '_' and '-'", what, id)
		}
	}
	return nil
}

// Offload writes the content of the message's tool_result to
// <outputDir>/<sessionID>/<tool_use_id>.md through w and returns a copy of the
// message whose content is the pointer to that file. The message must hold
// exactly one tool_result block.
func Offload(msg Message, sessionID, outputDir string, w FileWriter) (Result, error) {
	at := -1
	for i, b := range msg.Content {
		if b.Type == "tool_result" {
			if at >= 0 {
				return Result{}, fmt.Errorf("offload: message holds more than one tool_result block")
			}
			at = i
		}
	}
	if at < 0 {
		return Result{}, fmt.Errorf("offload: message holds no tool_result block")
	}
	block := msg.Content[at]
	path, err := Path(outputDir, sessionID, block.ToolUseID)
	if err != nil {
		return Result{}, err
	}
	var content ResultContent
	if block.Content != nil {
		content = *block.Content
	}
	text, err := content.fileText()
	if err != nil {
		return Result{}, fmt.Errorf("offload: %w", err)
	}
	if err := WriteFile(w, path, text); err != nil {
		return Result{}, err
	}
	pointer := Pointer(path)
	out := copyMessage(msg)
	out.Content[at].Content = &ResultContent{Text: pointer}
	return Result{
		Message:    out,
		FreedChars: utf8.RuneCount(text) - utf8.RuneCountInString(pointer),
		File:       path,
	}, nil
}

// OffloadToFile is Offload with the operating system's writer.
func OffloadToFile(msg Message, sessionID, outputDir string) (Result, error) {
	return Offload(msg, sessionID, outputDir, OSWriter{})
}

// WriteFile creates path's directory and writes data through w, wrapping a
// failure with the path.
func WriteFile(w FileWriter, path string, data []byte) error {
	if err := w.MkdirAll(filepath.Dir(path)); err != nil {
		return fmt.Errorf("offload: create directory for %s: %w", path, err)
	}
	if err := w.WriteFile(path, data); err != nil {
		return fmt.Errorf("offload: write %s: %w", path, err)
	}
	return nil
}

// copyMessage returns a deep copy of msg.
func copyMessage(msg Message) Message {
	out := Message{Role: msg.Role, Content: make([]Block, len(msg.Content))}
	for i, b := range msg.Content {
		if b.Content != nil {
			c := *b.Content
			c.Blocks = append(json.RawMessage(nil), c.Blocks...) // nil stays nil
			b.Content = &c
		}
		out.Content[i] = b
	}
	return out
}
