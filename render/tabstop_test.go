package render

import "testing"

// TestSanitizeOutputTabStops: a tab moves to the next multiple of eight
// columns, as a terminal's tab stops do, so columns line up (issue 16.6).
func TestSanitizeOutputTabStops(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"a\tX", "a       X"},
		{"abcdef\tX", "abcdef  X"},
		{"abcdefgh\tX", "abcdefgh        X"},
		{"\tX", "        X"},
		{"a\tb\tc", "a       b       c"},
		{"é\tX", "é       X"},
		{"日本\tX", "日本    X"},
		{"a\tX\nabcdef\tX", "a       X\nabcdef  X"},
		{"ab\rcd\tX", "ab\ncd      X"},
	} {
		if got := SanitizeOutput(tc.in); got != tc.want {
			t.Errorf("SanitizeOutput(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
