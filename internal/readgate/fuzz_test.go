package readgate

import (
	"bytes"
	"slices"
	"testing"
)

// FuzzLines reads any bytes as a line file: ScanLines (first to last) and
// LastLines (last to first) give the same lines, those over the cap
// skipped by both and the rest as bytes.Split has them; no line handed
// over is longer than the cap.
func FuzzLines(f *testing.F) {
	f.Add([]byte("one\ntwo\n\nthree"), uint8(4))
	f.Add([]byte("a very long line\nshort\n"), uint8(5))
	f.Add([]byte("\n\n\n"), uint8(0))
	f.Fuzz(func(t *testing.T, data []byte, max uint8) {
		maxLine := int(max)
		var want []string
		parts := bytes.Split(data, []byte{'\n'})
		if len(parts) > 0 && len(parts[len(parts)-1]) == 0 {
			parts = parts[:len(parts)-1] // a final newline ends the last line
		}
		for _, p := range parts {
			if len(p) <= maxLine {
				want = append(want, string(p))
			}
		}
		var fwd []string
		if _, err := ScanLines(bytes.NewReader(data), maxLine, func(_ int, l []byte) error {
			if len(l) > maxLine {
				t.Fatalf("a line of %d bytes, over %d", len(l), maxLine)
			}
			fwd = append(fwd, string(l))
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		var back []string
		if err := LastLines(bytes.NewReader(data), int64(len(data)), maxLine, func(_ int64, l []byte, long bool) (bool, error) {
			if !long {
				back = append(back, string(l))
			}
			return false, nil
		}); err != nil {
			t.Fatal(err)
		}
		slices.Reverse(back)
		if !slices.Equal(fwd, want) || !slices.Equal(back, want) {
			t.Fatalf("forward %q\nbackward %q\nwant %q", fwd, back, want)
		}
	})
}
