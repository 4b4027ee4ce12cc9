package render

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestFitCutsBetweenGraphemes: Fit keeps a text that fits, and cuts one
// that does not within the width, with "…", between grapheme clusters
// (never inside an emoji sequence, a flag, a wide character or a letter
// with its combining mark).
func TestFitCutsBetweenGraphemes(t *testing.T) {
	family, flag, accented, wide := "👨\u200d👩\u200d👧", "🇫🇷", "e\u0301", "漢"
	tests := []struct {
		s     string
		width int
		want  string
	}{
		{"watching a · v3", 20, "watching a · v3"},
		{"watching a · v3", 15, "watching a · v3"},
		{"watching a · v3", 10, "watching …"},
		{"ab" + family + "cd", 4, "ab…"},
		{"ab" + family + "cd", 5, "ab" + family + "…"},
		{"ab" + flag + "cd", 4, "ab…"},
		{"ab" + accented + accented + "cd", 4, "ab" + accented + "…"},
		{"ab" + wide + wide + "cd", 4, "ab…"},
		{"ab" + wide + wide + "cd", 5, "ab" + wide + "…"},
		{"abc", 0, ""},
	}
	for _, tc := range tests {
		got := Fit(tc.s, tc.width)
		if got != tc.want {
			t.Errorf("Fit(%q, %d) = %q, want %q", tc.s, tc.width, got, tc.want)
		}
		if w := ansi.StringWidth(got); w > tc.width {
			t.Errorf("Fit(%q, %d) is %d cells wide", tc.s, tc.width, w)
		}
		if !strings.HasPrefix(tc.s, strings.TrimSuffix(got, "…")) {
			t.Errorf("Fit(%q, %d) = %q is not a cut of it", tc.s, tc.width, got)
		}
	}
}

// TestFitMiddleKeepsStartAndEnd: FitMiddle keeps a text that fits, and cuts
// the middle of one that does not, keeping its start and end, within the
// width, between grapheme clusters.
func TestFitMiddleKeepsStartAndEnd(t *testing.T) {
	wide := "漢"
	tests := []struct {
		s     string
		width int
		want  string
	}{
		{"rollout-2026-11-25T09-40-25.jsonl", 40, "rollout-2026-11-25T09-40-25.jsonl"},
		{"rollout-2026-11-25T09-40-25.jsonl", 15, "rollout…5.jsonl"},
		{"abcdefghij", 5, "ab…ij"},
		{"abcdefghij", 6, "abc…ij"},
		{"ab" + wide + wide + wide + "cd", 6, "ab…cd"},
		{"ab" + wide + wide + wide + "cd", 7, "ab…" + wide + "cd"},
		{"ab" + wide + wide + wide + "cd", 8, "ab" + wide + "…cd"},
		{strings.Repeat(wide, 10), 8, wide + wide + "…" + wide},
		{strings.Repeat(wide, 10), 9, wide + wide + "…" + wide + wide},
		{strings.Repeat(wide, 10), 10, wide + wide + "…" + wide + wide},
		{"abcdef", 2, "a…"},
		{"abc", 0, ""},
	}
	for _, tc := range tests {
		got := FitMiddle(tc.s, tc.width)
		if w := ansi.StringWidth(got); w > tc.width {
			t.Errorf("FitMiddle(%q, %d) = %q is %d cells wide", tc.s, tc.width, got, w)
		}
		if got != tc.want {
			t.Errorf("FitMiddle(%q, %d) = %q, want %q", tc.s, tc.width, got, tc.want)
		}
	}
}

// TestFitAroundShowsTheMatch: FitAround keeps a text that fits, and cuts
// one that does not around its match, which shows whole (or its start,
// when it alone is too wide), within the width, the cut sides marked.
func TestFitAroundShowsTheMatch(t *testing.T) {
	wide := "漢"
	long := strings.Repeat("a", 50)
	tests := []struct {
		name                 string
		before, match, after string
		width                int
		wantB, wantM, wantA  string
	}{
		{"fits", "echo ", "hi", " there", 20, "echo ", "hi", " there"},
		{"match at the end", long, "XY", "", 12, "…aaaaaaaaa", "XY", ""},
		{"match in the middle", long, "XY", long, 12, "…aaaa", "XY", "aaaa…"},
		{"short after", long, "XY", "bc", 12, "…aaaaaaa", "XY", "bc"},
		{"short before", "ab", "XY", long, 12, "ab", "XY", "aaaaaaa…"},
		{"match fills the width", long, "0123456789", long, 10, "…", "01234567…", ""},
		{"match wider than the width", "", "0123456789", "", 5, "", "0123…", ""},
		{"room for the match only", long, "XY", long, 3, "…", "XY", ""},
		{"wide before", strings.Repeat(wide, 20), "XY", "", 8, "…" + wide + wide, "XY", ""},
		{"no width", "a", "b", "c", 0, "", "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, m, a := FitAround(tc.before, tc.match, tc.after, tc.width)
			if b != tc.wantB || m != tc.wantM || a != tc.wantA {
				t.Errorf("FitAround = %q %q %q, want %q %q %q", b, m, a, tc.wantB, tc.wantM, tc.wantA)
			}
			if w := ansi.StringWidth(b + m + a); w > tc.width {
				t.Errorf("%d cells wide, more than %d", w, tc.width)
			}
		})
	}
}
