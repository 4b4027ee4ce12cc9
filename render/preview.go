package render

import (
	"fmt"
	"strings"

	"github.com/todo-shell/todo-shell/tools"
)

// Preview splits the preview of an offloaded result into its lines and
// says how many lines of the full text it leaves out. The lines are not
// neutralised: callers sanitise them for where they draw.
func Preview(o *tools.Offloaded) (lines []string, more int) {
	if p := strings.TrimRight(o.Preview, "\n"); p != "" {
		lines = strings.Split(p, "\n")
	}
	return lines, max(o.Lines-len(lines), 0)
}

// Preview sizes: the first and the last lines of a long offloaded result.
const (
	PreviewHead = 5
	PreviewTail = 5
)

// PreviewAround is the preview of an offloaded result that shows its end
// too (a build or test failure is at the end): the first PreviewHead lines
// of the preview, how many lines it leaves out, and the last lines of the
// full text (last, read from its file; the trailer line of a failed
// command left out). With no last lines, or a text short enough for the
// preview to hold it all, it is Preview's.
func PreviewAround(o *tools.Offloaded, last []string) (head []string, more int, tail []string) {
	lines, more := Preview(o)
	if more == 0 || len(last) == 0 {
		return lines, more, nil
	}
	head = lines[:min(PreviewHead, len(lines))]
	tail = last[max(len(last)-PreviewTail, 0):]
	rest := o.Lines - len(head) // lines after the head
	if len(tail) > rest {
		tail = tail[len(tail)-rest:]
	}
	return head, rest - len(tail), tail
}

// PreviewText is the preview as shown in a terminal: the head, "… N more
// lines", the tail, one line each (not neutralised).
func PreviewText(head []string, more int, tail []string) []string {
	lines := append([]string(nil), head...)
	if more > 0 {
		lines = append(lines, MoreLines(more))
	}
	return append(lines, tail...)
}

// MoreLines is "… 1 more line" or "… N more lines".
func MoreLines(n int) string {
	if n == 1 {
		return "… 1 more line"
	}
	return fmt.Sprintf("… %d more lines", n)
}

// Lines is "1 line" or "N lines".
func Lines(n int) string {
	if n == 1 {
		return "1 line"
	}
	return fmt.Sprintf("%d lines", n)
}
