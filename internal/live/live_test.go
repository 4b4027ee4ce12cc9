package live

import (
	"bytes"
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

func TestScrollKeepsPanelUnderLines(t *testing.T) {
	var b bytes.Buffer
	s := NewScroll(&b)
	s.SetPanel("box1\nbox2\n")
	s.Print("hello")
	s.SetPanel("box1\nbox2\nbox3")
	want := "box1\r\nbox2\r\n" + // the panel
		"\r\x1b[2A\x1b[J" + "hello\r\n" + "box1\r\nbox2\r\n" + // erased, line printed, panel again
		"\r\x1b[2A\x1b[J" + "box1\r\nbox2\r\nbox3\r\n" // a taller panel
	if b.String() != want {
		t.Errorf("got  %q\nwant %q", b.String(), want)
	}
	b.Reset()
	s.SetPanel("box1\nbox2\nbox3")
	if b.Len() != 0 {
		t.Errorf("same panel redrawn: %q", b.String())
	}
}

func TestScreenDrawsOnlyChanges(t *testing.T) {
	var b bytes.Buffer
	s := NewScreen(&b)
	b.Reset()
	s.Draw("a\nb")
	if got, want := b.String(), "\x1b[Ha\x1b[K\r\nb\x1b[K\x1b[J"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	b.Reset()
	s.Draw("a\nb")
	if b.Len() != 0 {
		t.Errorf("unchanged body redrawn: %q", b.String())
	}
	s.Redraw()
	if b.Len() == 0 {
		t.Error("Redraw drew nothing")
	}
}
