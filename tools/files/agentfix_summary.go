package files

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/todo-shell/todo-shell/tools"
)

var (
	_ tools.Summarizer = readTool{}
	_ tools.Summarizer = writeTool{}
	_ tools.Summarizer = editTool{}
)

// CallSummary is Read path, with the lines asked for when not the whole
// file: Read main.go, Read main.go (lines 10–59).
func (t readTool) CallSummary(input json.RawMessage) string {
	var in readInput
	if json.Unmarshal(input, &in) != nil || in.FilePath == "" {
		return generic(ReadName, input)
	}
	s := ReadName + " " + t.state.show(in.FilePath)
	switch {
	case in.Offset != nil && in.Limit != nil:
		s += fmt.Sprintf(" (lines %d–%d)", *in.Offset, *in.Offset+*in.Limit-1)
	case in.Offset != nil:
		s += fmt.Sprintf(" (from line %d)", *in.Offset)
	case in.Limit != nil:
		s += fmt.Sprintf(" (lines 1–%d)", *in.Limit)
	}
	return s
}

// CallSummary is Write path (N lines).
func (t writeTool) CallSummary(input json.RawMessage) string {
	var in writeInput
	if json.Unmarshal(input, &in) != nil || in.FilePath == "" || in.Content == nil {
		return generic(WriteName, input)
	}
	n := lineCount(*in.Content)
	return fmt.Sprintf("%s %s (%d %s)", WriteName, t.state.show(in.FilePath), n, plural(n, "line", "lines"))
}

// CallSummary is Edit path (replace 1) or (replace all).
func (t editTool) CallSummary(input json.RawMessage) string {
	var in editInput
	if json.Unmarshal(input, &in) != nil || in.FilePath == "" {
		return generic(EditName, input)
	}
	how := "replace 1"
	if in.ReplaceAll {
		how = "replace all"
	}
	return fmt.Sprintf("%s %s (%s)", EditName, t.state.show(in.FilePath), how)
}

// generic is the summary of a call whose input is not the tool's: as the
// registry shows a tool without a summary of its own.
func generic(name string, input json.RawMessage) string {
	return name + "(" + tools.OneLine(string(input)) + ")"
}

// show is path for a person: relative to the working directory when under
// it, on one line.
func (s *State) show(path string) string {
	if s != nil && s.Dir != nil {
		if dir := s.Dir(); dir != "" && filepath.IsAbs(path) {
			if rel, err := filepath.Rel(dir, path); err == nil && rel != ".." && !strings.HasPrefix(rel, "../") {
				path = rel
			}
		}
	}
	return tools.OneLine(path)
}
