package render

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// WrapHelp wraps help text to width cells at word boundaries. A line laid
// out as a two-column entry ("  /help      this help") continues under its
// second column; any other line continues under its own indentation. A word
// longer than the width is cut.
func WrapHelp(text string, width int) string {
	if width <= 0 {
		return text
	}
	lines := strings.Split(text, "\n")
	out := make([]string, 0, len(lines))
	for _, line := range lines {
		if ansi.StringWidth(line) <= width {
			out = append(out, line)
			continue
		}
		indent := hangingIndent(line)
		if indent >= width/2 {
			indent = leadingSpaces(line)
			if indent >= width/2 {
				indent = 0
			}
		}
		body := ansi.Wrap(line[indent:], width-indent, "")
		rows := strings.Split(body, "\n")
		pad := strings.Repeat(" ", indent)
		for i, r := range rows {
			r = strings.TrimRight(r, " ")
			if i == 0 {
				out = append(out, line[:indent]+r)
				continue
			}
			out = append(out, pad+strings.TrimLeft(r, " "))
		}
	}
	return strings.Join(out, "\n")
}

// hangingIndent is where a two-column entry's second column starts (after
// the first run of two or more spaces following text), else the line's
// indentation.
func hangingIndent(line string) int {
	lead := leadingSpaces(line)
	rest := line[lead:]
	if i := strings.Index(rest, "  "); i > 0 {
		j := i
		for j < len(rest) && rest[j] == ' ' {
			j++
		}
		if j < len(rest) {
			return lead + j
		}
	}
	return lead
}

func leadingSpaces(s string) int {
	return len(s) - len(strings.TrimLeft(s, " "))
}
