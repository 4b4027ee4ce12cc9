package complete

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Columns lays names out in columns across width cells, filled column by
// column as ls does, in at most maxRows rows; when they do not all fit, the
// last row says how many more there are.
func Columns(names []string, width, maxRows int) []string {
	if len(names) == 0 || width <= 0 || maxRows <= 0 {
		return nil
	}
	colW := 0
	for _, n := range names {
		colW = max(colW, ansi.StringWidth(n))
	}
	colW += 2
	cols := max(width/colW, 1)
	rows := (len(names) + cols - 1) / cols
	shown := len(names)
	if rows > maxRows {
		rows = max(maxRows-1, 1)
		shown = min(rows*cols, len(names))
	}
	lines := make([]string, rows)
	for i := range shown {
		r, c := i%rows, i/rows
		cell := names[i]
		if c < cols-1 && i+rows < shown {
			cell += strings.Repeat(" ", colW-ansi.StringWidth(cell))
		}
		if ansi.StringWidth(lines[r]+cell) > width {
			cell = ansi.Truncate(cell, max(width-ansi.StringWidth(lines[r]), 0), "…")
		}
		lines[r] += cell
	}
	if shown < len(names) {
		lines = append(lines, fmt.Sprintf("… %d more", len(names)-shown))
	}
	return lines
}
