// Package offload moves long tool results out of a conversation: the full
// text goes to <outputDir>/<sessionID>/<tool_use_id>.md and the result's
// content becomes a one-line pointer to that file.
//
// No byte of a result is lost on the way: when the offload directory cannot
// be written the file goes to a second place ($TMPDIR/todo-shell-<uid>), and
// when that fails too the result keeps its start and end, with a line saying
// exactly how many bytes in the middle were dropped and why.
package offload

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
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
	Warning    error   // set (an *Error) when File is not in the offload directory
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

// Path returns the absolute path of the usual file for one tool_use in a
// session: <outputDir>/<sessionID>/<FileName(toolUseID)>. The session id must
// pass CheckID; any tool_use id names a file.
func Path(outputDir, sessionID, toolUseID string) (string, error) {
	if err := CheckID("session id", sessionID); err != nil {
		return "", fmt.Errorf("offload: %w", err)
	}
	abs, err := filepath.Abs(filepath.Join(outputDir, sessionID, FileName(toolUseID)))
	if err != nil {
		return "", fmt.Errorf("offload: resolve output directory %q: %w", outputDir, err)
	}
	return abs, nil
}

// FileName returns the offload file name for a tool_use id: <id>.md when
// the id passes CheckID, otherwise sha256-<first 32 hex digits of the id's
// SHA-256>.md, so that every id, even "a/b" or "..", names a file inside the
// session directory.
func FileName(toolUseID string) string {
	if CheckID("tool_use_id", toolUseID) == nil {
		return toolUseID + ".md"
	}
	sum := sha256.Sum256([]byte(toolUseID))
	return "sha256-" + hex.EncodeToString(sum[:16]) + ".md"
}

// maxNames is how many names are tried for one file: name.md, name-2.md …
// name-4.md, then names with a random suffix.
const maxNames = 64

// uniqueName returns the i-th (from 1) candidate name for a file: name as
// is, then with -i before its extension, then (from the fifth) with a
// random suffix, so an id seen many times costs a few tries, not one per
// earlier file. A file never replaces another: an id seen twice gets the
// next free name.
func uniqueName(name string, i int) string {
	if i <= 1 {
		return name
	}
	ext := filepath.Ext(name)
	suffix := strconv.Itoa(i)
	if i > 4 {
		var b [6]byte
		rand.Read(b[:])
		suffix = hex.EncodeToString(b[:])
	}
	return strings.TrimSuffix(name, ext) + "-" + suffix + ext
}

// CheckID accepts ids of 1 to 128 characters from [A-Za-z0-9_-], the tool_use
// id alphabet, so an id can never climb out of its directory. Its error
// names what (a "session id", a "plan name") in a person's words, with no
// package prefix: it is shown to the one who typed the id.
func CheckID(what, id string) error {
	if id == "" {
		return fmt.Errorf("%s is empty", what)
	}
	if len(id) > 128 {
		return fmt.Errorf("%s is longer than 128 characters", what)
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if (c < 'a' || c > 'z') && (c < 'A' || c > 'Z') && (c < '0' || c > '9') && c != '_' && c != '-' {
			return fmt.Errorf("%s %q may hold only letters, digits, '_' and '-'", what, id)
		}
	}
	return nil
}

// Offload writes the content of the message's tool_result to a new file in
// <outputDir>/<sessionID>/ named after its tool_use_id (FileName; the next
// free name when that one is taken) through w and returns a copy of the
// message whose content is the pointer to that file. When outputDir cannot
// be written the file goes to DefaultFallbackDir instead; when neither can,
// the error is an *Error. The message must hold exactly one tool_result
// block.
func Offload(msg Message, sessionID, outputDir string, w FileWriter) (Result, error) {
	return offload(msg, sessionID, []string{outputDir, DefaultFallbackDir()}, w)
}

func offload(msg Message, sessionID string, roots []string, w FileWriter) (Result, error) {
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
	if err := CheckID("session id", sessionID); err != nil {
		return Result{}, fmt.Errorf("offload: %w", err)
	}
	var content ResultContent
	if block.Content != nil {
		content = *block.Content
	}
	text, err := content.fileText()
	if err != nil {
		return Result{}, fmt.Errorf("offload: %w", err)
	}
	path, warn, err := writeFirst(w, roots, sessionID, FileName(block.ToolUseID), text)
	if err != nil {
		return Result{}, err
	}
	pointer := Pointer(path)
	out := copyMessage(msg)
	out.Content[at].Content = &ResultContent{Text: pointer}
	return Result{
		Message:    out,
		FreedChars: utf8.RuneCount(text) - utf8.RuneCountInString(pointer),
		File:       path,
		Warning:    warn,
	}, nil
}

// writeFirst writes data to a new file named after name in the session
// directory of the first root that takes it and returns its absolute path,
// with warn set when that is not the first root. When no root takes it the
// error is an *Error.
func writeFirst(w FileWriter, roots []string, session, name string, data []byte) (path string, warn, err error) {
	e := &Error{Total: int64(len(data))}
	for _, root := range roots {
		path, err := writeNew(w, root, session, name, data)
		if err == nil {
			if len(e.Failures) == 0 {
				return path, nil, nil
			}
			e.File = path
			return path, e, nil
		}
		e.Failures = append(e.Failures, err)
	}
	return "", nil, e
}

// writeNew writes data to the first free name in <root>/<session>.
func writeNew(w FileWriter, root, session, name string, data []byte) (string, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return "", failure(filepath.Join(root, session, name), "create", err)
	}
	dir := filepath.Join(abs, session)
	if err := w.MkdirAll(dir); err != nil {
		return "", failure(filepath.Join(dir, name), "create", err)
	}
	for i := 1; i <= maxNames; i++ {
		path := filepath.Join(dir, uniqueName(name, i))
		err := w.WriteFile(path, data)
		if err == nil {
			return path, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return "", failure(path, "write", err)
		}
	}
	return "", failure(filepath.Join(dir, name), "rename", fmt.Errorf("%d files of that name exist", maxNames))
}

// OffloadToFile is Offload with the operating system's writer.
func OffloadToFile(msg Message, sessionID, outputDir string) (Result, error) {
	return Offload(msg, sessionID, outputDir, OSWriter{})
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
