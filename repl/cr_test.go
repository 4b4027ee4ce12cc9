package repl

import "testing"

func TestOverwriteCR(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain", "plain"},
		{"10%\r20%\r30%", "30%"},
		{"\r1%\r2%\r100%\n", "100%\n"},
		{"abc\rX", "Xbc"},
		{"crlf\r\nnext\r\n", "crlf\nnext\n"},
		{"a\rb\nc\rd", "b\nd"},
		{"héllo\rHÉ", "HÉllo"},
		{"", ""},
	} {
		if got := overwriteCR(tc.in); got != tc.want {
			t.Errorf("overwriteCR(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
