package bashline

import (
	"errors"
	"reflect"
	"testing"
)

func TestCheck(t *testing.T) {
	tests := []struct {
		text  string
		label string
	}{
		{"echo a", ""},
		{"echo 'a", "quote"},
		{"echo \"a", "dquote"},
		{"echo `a", "bquote"},
		{"echo a \\", `\`},
		{"echo 'a\\", "quote"},
		{"cat <<EOF\nx", "heredoc EOF"},
		{"cat <<EOF\nx\nEOF", ""},
		{"cat <<'E F'\nx", "heredoc E F"},
		{"cat <<-EOF\n\tx\n\tEOF", ""},
		// The parser names a terminator it cannot backquote as a Go string.
		{"cat <<'a`b'\nx", "heredoc a`b"},
		{"cat <<'a`b'\nx\na`b", ""},
		{"cat <<\x01\nx", "heredoc \x01"},
		{"cat <<\x01\nx\n\x01", ""},
		// A backslash ends the line with the terminator's first part.
		{"cat <<\\\nEOF\nx", "heredoc EOF"},
		{"cat <<E\\\nOF\nx\nEOF", ""},
		{"if true; then", "then"},
		{"if true; then\necho x\nfi", ""},
		{"for x in a; do", "do"},
		{"echo a |", "pipe"},
		{"echo a &&", "cmdand"},
		{"echo a ||", "cmdor"},
		{"echo $(ls", "cmdsubst"},
		{"f() {", "cursh"},
		{"(", "subsh"},
		{"echo a #'\ntouch PWN #'", ""},
		{"echo $'\\'';touch PWN;#'", ""},
		{"echo ) x", ""},               // a syntax error: bash says so
		{"echo ) x\necho 'y", "quote"}, // the line after an error is read afresh
		{"case a in", "case"},
		{"", ""},
		{"# only a comment '", ""},
		{"echo \"$(echo 'a", "quote"},
	}
	for _, tt := range tests {
		if got := Check(tt.text).Label(); got != tt.label {
			t.Errorf("Check(%q).Label() = %q, want %q", tt.text, got, tt.label)
		}
	}
}

func TestProblem(t *testing.T) {
	tests := []struct {
		text  string
		first int
		want  string
	}{
		{"echo ok\necho 'a", 2, "the single quote (') opened on line 2 is never closed"},
		{"echo \"a\nb", 1, `the double quote (") opened on line 1 is never closed`},
		{"echo a \\", 1, "a backslash ends line 1 with nothing after it"},
		{"cat <<EOF\nx", 3, `the here-document opened on line 3 is never ended by a line "EOF"`},
		{"if true; then\necho", 1, "line 1: `if` statement must end with `fi`"},
		{"echo 'it''s\nmore\nlines", 2, "the single quote (') opened on line 2 is never closed"},
		{"echo \"c\n'd'", 2, `the double quote (") opened on line 2 is never closed`},
	}
	for _, tt := range tests {
		var s Scanner
		for _, l := range splitLines(tt.text) {
			s.Line(l)
		}
		if got := s.Status().Problem(tt.first); got != tt.want {
			t.Errorf("%q: Problem = %q, want %q", tt.text, got, tt.want)
		}
		s.Close()
	}
}

func splitLines(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

func TestWords(t *testing.T) {
	tests := []struct {
		in   string
		want []string
		err  error
	}{
		{`'{"todos":[]}'`, []string{`{"todos":[]}`}, nil},
		{`a "b c" d\ e`, []string{"a", "b c", "d e"}, nil},
		{`--json # a comment`, []string{"--json"}, nil},
		{`$'a\nb'`, []string{"a\nb"}, nil},
		{`"$x" $(y) *.go`, []string{"$x", "$(y)", "*.go"}, nil},
		{`"a $x b"`, []string{"a $x b"}, nil},
		{`'open`, nil, ErrIncomplete},
		{`a \`, nil, ErrIncomplete},
		{``, nil, nil},
		{`{"todos":[{"content":"x"}]}`, []string{`{todos:[{content:x}]}`}, nil},
	}
	for _, tt := range tests {
		got, err := Words(tt.in)
		if !errors.Is(err, tt.err) || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Words(%q) = %q, %v; want %q, %v", tt.in, got, err, tt.want, tt.err)
		}
	}
}

func TestQuote(t *testing.T) {
	for in, want := range map[string]string{
		"plain":     "plain",
		"a b":       "'a b'",
		"it's":      `"it's"`,
		"a\nb":      `$'a\nb'`,
		"":          "''",
		"x\x00y":    "xy",
		"/tmp/a.go": "/tmp/a.go",
	} {
		if got := Quote(in); got != want {
			t.Errorf("Quote(%q) = %q, want %q", in, got, want)
		}
	}
}
