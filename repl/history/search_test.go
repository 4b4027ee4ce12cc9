package history

import (
	"fmt"
	"testing"
)

func TestSearch(t *testing.T) {
	entries := []string{"git status", "make test", "git log", "echo hi", "git push"}
	cases := []struct {
		name  string
		steps func(s *Search)
		want  string
		pos   int
		fail  bool
	}{
		{"empty query is latest", func(s *Search) {}, "git push", 0, false},
		{"type narrows", func(s *Search) { s.Type("g"); s.Type("i"); s.Type("t") }, "git push", 0, false},
		{"older", func(s *Search) { s.Type("git"); s.Older() }, "git log", 0, false},
		{"older twice", func(s *Search) { s.Type("git"); s.Older(); s.Older() }, "git status", 0, false},
		{"older past oldest keeps match", func(s *Search) { s.Type("git"); s.Older(); s.Older(); s.Older() }, "git status", 0, true},
		{"mid-word", func(s *Search) { s.Type("tes") }, "make test", 5, false},
		{"no match", func(s *Search) { s.Type("zzz") }, "", 0, true},
		{"backspace restores", func(s *Search) { s.Type("git"); s.Older(); s.Type("x"); s.Backspace() }, "git log", 0, false},
		{"typing stays on current match", func(s *Search) { s.Type("gi"); s.Older(); s.Type("t l") }, "git log", 0, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := NewSearch(entries)
			c.steps(s)
			if s.Failed != c.fail {
				t.Fatalf("failed = %v", s.Failed)
			}
			if got := s.Text(); !c.fail && (got != c.want || s.Pos != c.pos) {
				t.Fatalf("match %q at %d, want %q at %d", got, s.Pos, c.want, c.pos)
			}
			if c.fail && c.want != "" && s.entries[s.Match] != c.want {
				t.Fatalf("shown %q, want %q", s.entries[s.Match], c.want)
			}
		})
	}
}

// BenchmarkSearchKeystroke is one keystroke of a search over 10,000 entries
// where the query matches only the oldest entry (the worst case: a full scan).
func BenchmarkSearchKeystroke(b *testing.B) {
	entries := make([]string, MaxEntries)
	for i := range entries {
		entries[i] = fmt.Sprintf("kubectl get pods --namespace team-%d -o wide | grep -v Running", i)
	}
	entries[0] = "needle-in-the-haystack"
	for b.Loop() {
		s := NewSearch(entries)
		s.Type("needle")
		if s.Failed {
			b.Fatal("no match")
		}
	}
}
