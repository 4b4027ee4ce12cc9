package jsonscan

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// scanAll validates a whole text the way a caller would.
func scanAll(s string) error {
	d := New(s)
	if err := d.Skip(); err != nil {
		return err
	}
	return d.End()
}

var corpus = []string{
	``, ` `, `null`, `true`, `false`, `nul`, `tru`, `0`, `-0`, `01`, `1.`, `.1`, `1e`, `1e+`, `1E-2`, `-`, `--1`, `1.5e10`,
	`""`, `"a"`, `"\u00e9"`, `"\ud83d\ude80"`, `"\ud800"`, `"\udc00"`, `"\ud800\u0041"`, `"\ud800\ud800"`, `"\u12"`, `"\x"`,
	`"\/\b\f\n\r\t\"\\"`, "\"a\x01\"", "\"\x7f\"", "\"\xff\"", "\"\xe2\x82\"", "\"\xed\xa0\x80\"", `"abc`, `"\`,
	`[]`, `[1,]`, `[,1]`, `[1 2]`, `[[[]]]`, `{}`, `{"a":1}`, `{"a":1,}`, `{"a"}`, `{"a":}`, `{1:2}`, `{"a":1 "b":2}`,
	`{"a":[1,{"b":null}]}`, `[1] x`, ` [1] `, "[1]\n", "\t{}\r\n", `{"a":"b"}}`, `[`, `{`, `"`,
}

func TestAcceptsWhatEncodingJSONAccepts(t *testing.T) {
	for _, in := range corpus {
		if got, want := scanAll(in) == nil, json.Valid([]byte(in)); got != want {
			t.Errorf("%q: jsonscan accepts=%v, encoding/json accepts=%v", in, got, want)
		}
	}
}

func TestStringsDecodeLikeEncodingJSON(t *testing.T) {
	for _, in := range corpus {
		var want string
		if !strings.HasPrefix(in, `"`) || json.Unmarshal([]byte(in), &want) != nil {
			continue
		}
		got, err := New(in).String()
		if err != nil || got != want {
			t.Errorf("%q: got %q (%v), want %q", in, got, err, want)
		}
	}
}

func TestSyntaxErrorOffset(t *testing.T) {
	err := scanAll(`{"a": [1, x]}`)
	var syn *SyntaxError
	if !errors.As(err, &syn) || syn.Offset != 10 || !strings.Contains(syn.Msg, `invalid character 'x'`) {
		t.Fatalf("%v", err)
	}
}

func TestDepthLimit(t *testing.T) {
	deep := strings.Repeat("[", maxDepth) + strings.Repeat("]", maxDepth)
	if err := scanAll(deep); err != nil {
		t.Fatalf("depth %d rejected: %v", maxDepth, err)
	}
	deeper := "[" + deep + "]"
	if scanAll(deeper) == nil || json.Valid([]byte(deeper)) {
		t.Fatal("depth limit differs from encoding/json")
	}
}

func FuzzScan(f *testing.F) {
	for _, in := range corpus {
		f.Add(in)
	}
	f.Fuzz(func(t *testing.T, in string) {
		if got, want := scanAll(in) == nil, json.Valid([]byte(in)); got != want {
			t.Fatalf("%q: jsonscan accepts=%v, encoding/json accepts=%v", in, got, want)
		}
		// NewValid walks a valid text as New does, and any text without
		// a panic.
		raw, err := New(in).Raw()
		rawValid, errValid := NewValid(in).Raw()
		if err == nil && (errValid != nil || rawValid != raw) {
			t.Fatalf("%q: New reads %q, NewValid %q (%v)", in, raw, rawValid, errValid)
		}
		if strings.HasPrefix(in, `"`) { // Skip fails where String fails, alike
			errSkip := New(in).Skip()
			_, errString := New(in).String()
			if fmt.Sprint(errSkip) != fmt.Sprint(errString) {
				t.Fatalf("%q: Skip says %v, String says %v", in, errSkip, errString)
			}
		}
		var want string
		if strings.HasPrefix(in, `"`) && json.Unmarshal([]byte(in), &want) == nil {
			got, err := New(in).String()
			if err != nil || got != want {
				t.Fatalf("%q: got %q (%v), want %q", in, got, err, want)
			}
		}
	})
}

func TestCompact(t *testing.T) {
	for _, in := range corpus {
		got, err := Compact(in)
		if (err == nil) != json.Valid([]byte(in)) {
			t.Errorf("%q: Compact error %v, json.Valid %v", in, err, json.Valid([]byte(in)))
			continue
		}
		if err != nil {
			continue
		}
		var want bytes.Buffer
		json.Compact(&want, []byte(in))
		if got != want.String() {
			t.Errorf("%q: got %q, want %q", in, got, want.String())
		}
	}
	in := "{ \"a b\" : [ 1 , \"x \\\" y\" ]\n}"
	if got, _ := Compact(in); got != `{"a b":[1,"x \" y"]}` {
		t.Fatalf("%q", got)
	}
}

func TestPeekKind(t *testing.T) {
	tests := []struct {
		in   string
		want Kind
	}{
		{` "x"`, KindString},
		{`{}`, KindObject},
		{"\n[1]", KindArray},
		{`null`, KindNull},
		{`12`, KindOther},
		{`true`, KindOther},
		{``, KindOther},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := New(tt.in).PeekKind(); got != tt.want {
				t.Errorf("PeekKind(%q) = %d, want %d", tt.in, got, tt.want)
			}
		})
	}
}

func TestNewValidWalksLikeNew(t *testing.T) {
	for _, in := range corpus {
		raw, err := New(in).Raw()
		rawValid, errValid := NewValid(in).Raw() // and no panic on the invalid ones
		if err == nil && (errValid != nil || rawValid != raw) {
			t.Errorf("%q: New reads %q, NewValid %q (%v)", in, raw, rawValid, errValid)
		}
	}
}
