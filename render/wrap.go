package render

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// WrapHelp wraps help text to width cells at word boundaries. A line laid
// out as a two-column entry ("  /help      this help") continues under its
// second column; any other line continues under its own indentation. A word
// longer than the width is cut. A line with double quotes (a JSON example)
// is never broken inside a quoted string: it breaks at spaces and after
// commas outside strings only, and a piece that does not fit stays whole,
// so an example copied from the help still parses; its rows after the
// first are indented two more than it.
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
		var rows []string
		cont := indent // where the rows after the first start
		if strings.Contains(line[indent:], `"`) {
			if strings.Contains(line, `{"`) && indent == leadingSpaces(line) && indent+2 < width/2 {
				cont = indent + 2 // a JSON example's rows go on under it, indented
			}
			rows = wrapOutsideStrings(line[indent:], width-cont)
			// A piece too wide for the hanging column: under the line's
			// own indentation, then at the margin.
			for _, in := range []int{leadingSpaces(line), 0} {
				if in >= indent || widest(rows) <= width-cont {
					continue
				}
				indent, cont = in, in
				rows = wrapOutsideStrings(strings.TrimLeft(line[indent:], " "), width-indent)
				rows[0] = line[indent:len(line)-len(strings.TrimLeft(line[indent:], " "))] + rows[0]
			}
		} else {
			rows = strings.Split(wrapWords(line[indent:], width-indent), "\n")
		}
		pad := strings.Repeat(" ", cont)
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

// wrapOutsideStrings wraps text to width cells, breaking only outside
// double-quoted strings: at a space (dropped) or after a comma. A piece
// longer than width is left whole.
func wrapOutsideStrings(text string, width int) []string {
	var pieces []string // each ends where a row may end; a space piece is a break that drops the space
	start, inStr, esc := 0, false, false
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case esc:
			esc = false
		case inStr && c == '\\':
			esc = true
		case c == '"':
			inStr = !inStr
		case !inStr && c == ' ':
			pieces = append(pieces, text[start:i], " ")
			start = i + 1
		case !inStr && c == ',' && i+1 < len(text) && text[i+1] != ' ':
			pieces = append(pieces, text[start:i+1])
			start = i + 1
		}
	}
	pieces = append(pieces, text[start:])
	var rows []string
	var row strings.Builder
	rowW, pendingSpace := 0, false
	for _, p := range pieces {
		if p == " " {
			pendingSpace = true
			continue
		}
		w := ansi.StringWidth(p)
		sep := 0
		if pendingSpace && rowW > 0 {
			sep = 1
		}
		if rowW > 0 && rowW+sep+w > width {
			rows = append(rows, row.String())
			row.Reset()
			rowW, sep = 0, 0
		}
		if sep == 1 {
			row.WriteByte(' ')
		}
		row.WriteString(p)
		rowW += sep + w
		pendingSpace = false
	}
	return append(rows, row.String())
}

// widest is the width of the widest row.
func widest(rows []string) int {
	w := 0
	for _, r := range rows {
		w = max(w, ansi.StringWidth(r))
	}
	return w
}

// nbHyphen stands for a hyphen while a line is wrapped: ansi.Wrap breaks
// after any hyphen, and help is full of words a person copies whole
// (todo-shell, --plan, session-3kTq9ZfW1bXe).
const nbHyphen = "\u2011" // NON-BREAKING HYPHEN, one cell wide as '-' is

// wrapWords wraps text at spaces to width cells (ansi.Wrap), never after a
// hyphen; a word wider than width is still cut.
func wrapWords(text string, width int) string {
	if !strings.Contains(text, "-") || strings.Contains(text, nbHyphen) {
		return ansi.Wrap(text, width, "")
	}
	return strings.ReplaceAll(ansi.Wrap(strings.ReplaceAll(text, "-", nbHyphen), width, ""), nbHyphen, "-")
}
