package repl

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

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
	before, match, after := "", "", text // no query: the entry from its start
	switch {
	case s.Query == "" || s.Pos > len(text):
	case !s.Failed && s.Pos+len(s.Query) <= len(text):
		before, match, after = text[:s.Pos], text[s.Pos:s.Pos+len(s.Query)], text[s.Pos+len(s.Query):]
	case s.Failed: // the last good match, around where it was
		before, after = text[:s.Pos], text[s.Pos:]
	}
	flat := func(x string) string { return render.Sanitize(strings.ReplaceAll(x, "\n", "⏎")) }
	before, match, after = flat(before), flat(match), flat(after)
	if room := m.width - 1 - ansi.StringWidth(head); m.width > 1 && room > 0 {
		// A match past the width shows, with the text around it (issue
		// 29, item 11: the line was cut at the width, the match with it).
		before, match, after = render.FitAround(before, match, after, room)
	}
	return m.fit(head + before + m.styles.Active.Render(match) + after)
}
