package repl

import (
	"strings"

	"github.com/todo-shell/todo-shell/render"
	histfile "github.com/todo-shell/todo-shell/repl/history"
)

// searchView draws a reverse incremental search as bash does:
// (reverse-i-search)'query': match, with the query highlighted in the
// match; "failed " when nothing matches.
func (m *Model) searchView(s *histfile.Search) string {
	label := "(reverse-i-search)"
	if s.Failed && s.Query != "" {
		label = "(failed reverse-i-search)"
	}
	head := m.styles.Dim.Render(label+"'") + render.Sanitize(s.Query) + m.styles.Dim.Render("': ")
	text := s.Text()
	if text == "" && s.Failed && s.Match >= 0 && s.Match < len(s.Entries()) {
		text = s.Entries()[s.Match] // the last good match stays shown
	}
	if text == "" {
		return head
	}
	// Multi-line entries show on one line here.
	before, match, after := text, "", ""
	if !s.Failed && s.Query != "" && s.Pos+len(s.Query) <= len(text) {
		before, match, after = text[:s.Pos], text[s.Pos:s.Pos+len(s.Query)], text[s.Pos+len(s.Query):]
	}
	flat := func(x string) string { return render.Sanitize(strings.ReplaceAll(x, "\n", "⏎")) }
	return m.fit(head + flat(before) + m.styles.Active.Render(flat(match)) + flat(after))
}
