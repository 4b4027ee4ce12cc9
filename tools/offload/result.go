package offload

import (
	"strings"

	"github.com/todo-shell/todo-shell/tools"
)

// Text offloads text, the result of one tool_use, as Offload does (to
// cfg.Dir, or to cfg's fallback directory when that fails), and describes
// the file with a preview of its first lines. w nil means cfg.FS. The file's
// path tells where it went; TextWarn also says why it is not in cfg.Dir.
func Text(text, toolUseID string, cfg Config, w FileWriter) (*tools.Offloaded, error) {
	info, _, err := TextWarn(text, toolUseID, cfg, w)
	return info, err
}

// TextWarn is Text that also returns, as warn (an *Error), why the file is
// in the fallback directory when it is.
func TextWarn(text, toolUseID string, cfg Config, w FileWriter) (info *tools.Offloaded, warn, err error) {
	if w == nil {
		w = fsWriter{cfg.fs()}
	}
	msg := Message{Role: "user", Content: []Block{{
		Type: "tool_result", ToolUseID: toolUseID, Content: &ResultContent{Text: text},
	}}}
	res, err := offload(msg, cfg.Session, cfg.roots(), w)
	if err != nil {
		return nil, nil, err
	}
	return Describe(res.File, text), res.Warning, nil
}

// Apply offloads res when its content reaches cfg's threshold and it was not
// offloaded already: the content becomes the pointer. When the file cannot be
// written res keeps its full content and OffloadErr says why; when it went
// to the fallback directory OffloadErr says that.
func Apply(res tools.ToolResult, cfg Config, w FileWriter) tools.ToolResult {
	if res.Offloaded != nil || res.OffloadErr != nil || !ShouldOffload(res.Content, cfg.Threshold) {
		return res
	}
	info, warn, err := TextWarn(res.Content, res.ToolUseID, cfg, w)
	if err != nil {
		res.OffloadErr = err
		return res
	}
	res.Content, res.Offloaded, res.OffloadErr = Pointer(info.Path), info, warn
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
			n++
			if n == PreviewLines {
				preview = text[:i+1]
			}
		}
	}
	if len(preview) > previewMaxBytes {
		preview = preview[:previewMaxBytes]
	}
	return &tools.Offloaded{Path: path, Preview: preview, Lines: lines, Bytes: int64(len(text))}
}

// Policy is the standard offload policy, the tools.Offloader every front end
// runs its calls under (through a tools.Executor): results of
// Config.Threshold characters or more go to <Config.Dir>/<Config.Session>/,
// to the fallback directory when that cannot be written, and are kept whole
// (or without their middle) when neither can. Bash streams its output
// through a Spool configured by the same Policy.
type Policy struct {
	Config Config
	// Writer writes results already in memory; nil means Config.FS.
	Writer FileWriter
}

var _ tools.Offloader = Policy{}

// Offload applies the policy to res (see Apply).
func (p Policy) Offload(res tools.ToolResult) tools.ToolResult {
	return Apply(res, p.Config, p.Writer)
}
