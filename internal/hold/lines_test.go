package hold

import (
	"bytes"
	"io"
	"math/rand"
	"testing"
)

// TestForEachLine: every complete line, with where it starts and ends; a
// line over wholeLine as its head only; a last line without its newline
// left for later; all of it over reads of any size.
func TestForEachLine(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewSource(1))
	var data []byte
	var want []line
	for i := 0; i < 60; i++ {
		n := rng.Intn(3000)
		switch i % 20 {
		case 7:
			n = wholeLine + rng.Intn(3*readBuffer)
		case 13:
			n = wholeLine - 1 + rng.Intn(3)
		}
		l := bytes.Repeat([]byte{byte('a' + i%26)}, n)
		start := int64(len(data))
		data = append(append(data, l...), '\n')
		w := line{start: start, end: int64(len(data)), bytes: l}
		if n > wholeLine {
			w.bytes, w.long = l[:headBytes], true
		}
		want = append(want, w)
	}
	torn := []byte("a torn last line")
	for _, chunk := range []int{1, 7, 4096, 1 << 20, len(data) + len(torn)} {
		var got []line
		all := append(append([]byte(nil), data...), torn...)
		end, err := forEachLine(&chunked{data: all, n: chunk}, 100, int64(len(all)), func(l line) error {
			got = append(got, line{start: l.start, end: l.end, bytes: append([]byte(nil), l.bytes...), long: l.long})
			return nil
		})
		if err != nil || end != 100+int64(len(data)) || len(got) != len(want) {
			t.Fatalf("reads of %d: end %d, %d lines, %v", chunk, end, len(got), err)
		}
		for i := range got {
			w := want[i]
			if got[i].start != w.start+100 || got[i].end != w.end+100 || got[i].long != w.long || !bytes.Equal(got[i].bytes, w.bytes) {
				t.Fatalf("reads of %d, line %d: %d-%d long %v (%d bytes), want %d-%d long %v (%d bytes)", chunk, i,
					got[i].start, got[i].end, got[i].long, len(got[i].bytes), w.start+100, w.end+100, w.long, len(w.bytes))
			}
		}
	}
}

// TestForEachLineBeyondItsSize: a reader holding more than it was said
// to (the file grew) makes no endless loop: what does not fit is a long
// line.
func TestForEachLineBeyondItsSize(t *testing.T) {
	t.Parallel()
	data := bytes.Repeat([]byte("0123456789"), 5000)
	n := 0
	end, err := forEachLine(&chunked{data: append(data, '\n'), n: 100}, 0, 10, func(l line) error {
		n++
		if !l.long || l.end != int64(len(data)+1) {
			t.Errorf("%+v", l)
		}
		return nil
	})
	if err != nil || n != 1 || end != int64(len(data)+1) {
		t.Fatalf("%d lines, end %d, %v", n, end, err)
	}
}

// chunked reads data n bytes at a time.
type chunked struct {
	data []byte
	n    int
}

func (c *chunked) Read(p []byte) (int, error) {
	if len(c.data) == 0 {
		return 0, io.EOF
	}
	k := copy(p[:min(len(p), c.n)], c.data)
	c.data = c.data[k:]
	return k, nil
}
