package history

import "strings"

// Search is a reverse incremental search over entries (oldest first), as
// bash's Ctrl+R: typing narrows the query and looks back from the current
// match; Older looks further back for the same query. It is pure state; the
// front end draws it.
type Search struct {
	entries []string
	Query   string
	Match   int // index of the matched entry, -1 for none
	Pos     int // byte offset of the query in it
	Failed  bool
	start   []int // match before each query rune was typed, for Backspace
}

// NewSearch starts a search over entries (oldest first), with no query: the
// match is the most recent entry.
func NewSearch(entries []string) *Search {
	s := &Search{entries: entries, Match: len(entries) - 1}
	if s.Match < 0 {
		s.Failed = true
	}
	return s
}

// Type adds text to the query and finds the nearest match at or before the
// current one.
func (s *Search) Type(text string) {
	// One step back per rune: Backspace removes one rune, and several
	// arrive in one read when typed fast (or pasted).
	for _, r := range text {
		s.start = append(s.start, s.Match)
		s.Query += string(r)
		from := s.Match
		if from < 0 || s.Failed {
			from = len(s.entries) - 1
		}
		s.find(from)
	}
}

// Backspace removes the last character of the query and goes back to the
// match it had.
func (s *Search) Backspace() {
	if s.Query == "" {
		return
	}
	r := []rune(s.Query)
	s.Query = string(r[:len(r)-1])
	back := len(s.entries) - 1
	if n := len(s.start) - 1; n >= 0 {
		back = s.start[n]
		s.start = s.start[:n]
	}
	if back < 0 || back >= len(s.entries) {
		back = len(s.entries) - 1
	}
	s.find(back)
}

// Older moves to the next older entry matching the query; at the oldest
// match it stays and reports failure.
func (s *Search) Older() {
	if s.Match <= 0 {
		s.Failed = true
		return
	}
	prev, pos := s.Match, s.Pos
	s.find(s.Match - 1)
	if s.Failed { // keep the last good match on screen
		s.Match, s.Pos = prev, pos
	}
}

// Entries are the entries searched, oldest first.
func (s *Search) Entries() []string { return s.entries }

// Text is the matched entry, "" for none.
func (s *Search) Text() string {
	if s.Failed || s.Match < 0 || s.Match >= len(s.entries) {
		return ""
	}
	return s.entries[s.Match]
}

// find looks for the query from index from back to the oldest entry,
// skipping entries equal to the one already matched (duplicates).
func (s *Search) find(from int) {
	for i := from; i >= 0; i-- {
		e := s.entries[i]
		if p := strings.Index(e, s.Query); p >= 0 {
			s.Match, s.Pos, s.Failed = i, p, false
			return
		}
	}
	s.Failed = true
}
