package history

import (
	"fmt"
	"strings"
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

// TestSearchEveryKeySequence drives the search with every sequence of up to
// six steps over a small alphabet (one rune, several runes at once as a fast
// typist's read brings them, a wide rune, Backspace, Older) over an empty,
// a one-entry and a longer history: nothing panics (trial finding: Ctrl+R,
// "ls" in one read, Backspace twice indexed start[-1]), the query is what
// was typed, and a match always holds the query.
func TestSearchEveryKeySequence(t *testing.T) {
	histories := [][]string{nil, {"ls"}, {"ls -l", "echo s", "lsblk", "日本 ls", "sl"}}
	steps := []struct {
		name string
		do   func(s *Search)
		text string // typed, "" for Backspace and Older
	}{
		{"l", func(s *Search) { s.Type("l") }, "l"},
		{"s", func(s *Search) { s.Type("s") }, "s"},
		{"ls", func(s *Search) { s.Type("ls") }, "ls"},
		{"日", func(s *Search) { s.Type("日") }, "日"},
		{"BS", func(s *Search) { s.Backspace() }, ""},
		{"^R", func(s *Search) { s.Older() }, ""},
	}
	var walk func(entries []string, seq []int)
	walk = func(entries []string, seq []int) {
		if len(seq) == 6 {
			return
		}
		for i := range steps {
			seq := append(seq, i)
			s := NewSearch(entries)
			var query []rune
			names := make([]string, len(seq))
			for j, k := range seq {
				names[j] = steps[k].name
				func() {
					defer func() {
						if r := recover(); r != nil {
							t.Fatalf("history %q, keys %v: panic %v", entries, names[:j+1], r)
						}
					}()
					steps[k].do(s)
				}()
				switch {
				case steps[k].text != "":
					query = append(query, []rune(steps[k].text)...)
				case steps[k].name == "BS" && len(query) > 0:
					query = query[:len(query)-1]
				}
			}
			if s.Query != string(query) {
				t.Fatalf("history %q, keys %v: query %q, want %q", entries, names, s.Query, string(query))
			}
			if txt := s.Text(); !s.Failed && (s.Match < 0 || !strings.Contains(txt, s.Query) || txt[s.Pos:s.Pos+len(s.Query)] != s.Query) {
				t.Fatalf("history %q, keys %v: match %q at %d does not hold %q", entries, names, txt, s.Pos, s.Query)
			}
			walk(entries, seq)
		}
	}
	for _, h := range histories {
		walk(h, nil)
	}
}
