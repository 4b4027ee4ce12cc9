package render

import "testing"

// TestSanitizeText: text of several lines keeps its lines and tabs; every
// other control character is shown, none acts (a carriage return would
// draw the rest of its line over the start: "XX      tabrwrite").
func TestSanitizeText(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"plain", "Write the docs", "Write the docs"},
		{"lines and tabs stay", "one\n\ttwo\nthree\t", "one\n\ttwo\nthree\t"},
		{"carriage return", "tab\trwrite\rXX", "tab\trwrite␍XX"},
		{"CRLF", "a\r\nb", "a␍\nb"},
		{"escape sequences", "\x1b[2J\x1b]0;PWNED\x07red", "␛[2J␛]0;PWNED␇red"},
		{"other C0 and DEL", "\x00\x08\x7f", "␀␈␡"},
		{"C1", "a\u0085b\u009bc", "a\ufffdb\ufffdc"},
		{"bidi override", "a\u202eb", "a\ufffdb"},
		{"invalid UTF-8", "a\xffb", "a\ufffdb"},
		{"unicode stays", "naïve ✓ 日本", "naïve ✓ 日本"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := SanitizeText(tc.in); got != tc.want {
				t.Errorf("SanitizeText(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}
