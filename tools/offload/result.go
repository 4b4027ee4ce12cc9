package offload

import (
	"strings"

	"github.com/todo-shell/todo-shell/tools"
)

// Text offloads text, the result of one tool_use, as Offload does, and
// describes the file with a preview of its first lines. w nil means OSWriter.
func Text(text, toolUseID string, cfg Config, w FileWriter) (*tools.Offloaded, error) {
	if w == nil {
		w = OSWriter{}
	}
	msg := Message{Role: "user", Content: []Block{{
		Type: "tool_result", ToolUseID: toolUseID, Content: &ResultContent{Text: text},
	}}}
	res, err := Offload(msg, cfg.Session, cfg.Dir, w)
	if err != nil {
		return nil, err
	}
	return Describe(res.File, text), nil
}

// Apply offloads res when its content reaches cfg's threshold and it was not
// offloaded already: the content becomes the pointer. When the file cannot be
// written res keeps its full content and OffloadErr says why.
func Apply(res tools.ToolResult, cfg Config, w FileWriter) tools.ToolResult {
	if res.Offloaded != nil || res.OffloadErr != nil || !ShouldOffload(res.Content, cfg.Threshold) {
		return res
	}
	info, err := Text(res.Content, res.ToolUseID, cfg, w)
	if err != nil {
		res.OffloadErr = err
		return res
	}
	res.Content, res.Offloaded = Pointer(info.Path), info
	return res
}

// Describe returns the account of text offloaded to path, with a preview of
// its first PreviewLines lines.
func Describe(path, text string) *tools.Offloaded {
	lines := strings.Count(text, "\n")
	if text != "" && !strings.HasSuffix(text, "\n") {
		lines++
	}
	preview, n := text, 0
	for i := 0; i < len(text) && len(preview) == len(text); i++ {
		if text[i] == '\n' {
			if n++; n == PreviewLines {
				preview = text[:i+1]
			}
		}
	}
	if len(preview) > previewMaxBytes {
		preview = preview[:previewMaxBytes]
	}
	return &tools.Offloaded{Path: path, Preview: preview, Lines: lines, Bytes: int64(len(text))}
}
