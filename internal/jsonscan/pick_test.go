package jsonscan

import (
	"slices"
	"testing"
)

func TestPick(t *testing.T) {
	tests := []struct {
		raw  string
		keys []string
		want []string
	}{
		{`{"a":1,"b":"x","c":[1,{"d":2}]}`, []string{"c", "a", "z"}, []string{`[1,{"d":2}]`, `1`, ``}},
		{`{"a":1,"a":2}`, []string{"a"}, []string{`1`}}, // the first of repeated keys
		{` { "a" : "\u00e9" } `, []string{"a"}, []string{`"\u00e9"`}},
		{`[{"a":1}]`, []string{"a"}, []string{``}}, // no object
		{`"a"`, []string{"a"}, []string{``}},
		{``, []string{"a"}, []string{``}},
	}
	for _, tt := range tests {
		out := []string{"stale", "stale", "stale"}[:len(tt.keys)]
		Pick(tt.raw, out, tt.keys...)
		if !slices.Equal(out, tt.want) {
			t.Errorf("Pick(%s, %q) = %q, want %q", tt.raw, tt.keys, out, tt.want)
		}
	}
}

func TestPickChecksWhatItConsumes(t *testing.T) {
	for _, raw := range []string{`{"a":1,}`, `{"a":tru}`, `{"a"}`} {
		if err := New(raw).Pick(make([]string, 1), "a"); err == nil {
			t.Errorf("%s: no error", raw)
		}
	}
}

func TestEach(t *testing.T) {
	tests := []struct {
		raw  string
		want []string
	}{
		{`[1, "a" ,{"b":[2]}]`, []string{`1`, `"a"`, `{"b":[2]}`}},
		{` [] `, nil},
		{`{"a":1}`, nil},
		{``, nil},
	}
	for _, tt := range tests {
		var got []string
		Each(tt.raw, func(e string) { got = append(got, e) })
		if !slices.Equal(got, tt.want) {
			t.Errorf("Each(%s) = %q, want %q", tt.raw, got, tt.want)
		}
	}
}

func TestStr(t *testing.T) {
	tests := []struct{ raw, want string }{
		{`"plain"`, "plain"},
		{`"\u00e9\n"`, "é\n"},
		{`1`, ""},
		{`"unterminated`, ""},
		{``, ""},
	}
	for _, tt := range tests {
		if got := Str(tt.raw); got != tt.want {
			t.Errorf("Str(%s) = %q, want %q", tt.raw, got, tt.want)
		}
	}
}

func TestValid(t *testing.T) {
	for raw, want := range map[string]bool{`{"a":[1]}`: true, ` 1 `: true, `[1,]`: false, `1 2`: false, ``: false} {
		if got := Valid(raw); got != want {
			t.Errorf("Valid(%q) = %v", raw, got)
		}
	}
}
