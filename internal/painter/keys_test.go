package painter

import (
	"reflect"
	"testing"
)

func TestDecode(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []Key
	}{
		{"q", []Key{KeyQuit}},
		{"\x03", []Key{KeyQuit}},
		{" ", []Key{KeyNext}},
		{"\x1b[C", []Key{KeyNext}},
		{"\x1bOC", []Key{KeyNext}},
		{"\x1b[D", []Key{KeyBack}},
		{"\x1b[A\x1b[B", nil}, // up and down do nothing
		{"x", nil},
		{" \x1b[D q", []Key{KeyNext, KeyBack, KeyNext, KeyQuit}},
	} {
		if got := Decode([]byte(tc.in)); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q: %v, want %v", tc.in, got, tc.want)
		}
	}
}
