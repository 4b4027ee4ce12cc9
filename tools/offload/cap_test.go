package offload

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestSpoolCapKeepsHeadAndTail: an output past Config.MaxFile leaves a file
// of at most that size holding the output's start, a line saying how many
// bytes and lines were cut, and its end, every byte of which is the
// output's own; Summary counts the whole output and Err says what was cut
// (issue 29, item 6).
func TestSpoolCapKeepsHeadAndTail(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name         string
		max          int64
		lines        int
		cut          bool
		chunkedLines int // lines per Write
	}{
		{"under the cap", 64 << 10, 1000, false, 7},
		{"just over the cap", 64 << 10, 7000, true, 1},
		{"far over the cap", 64 << 10, 200000, true, 333},
		{"one write far over the cap", 64 << 10, 200000, true, 200000},
		{"tail of TailBytes", 32 << 20, 3000000, true, 4096},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s, err := NewSpool(Config{Dir: t.TempDir(), Session: "s", Threshold: 1000, MaxFile: tt.max}, "toolu_cap")
			if err != nil {
				t.Fatal(err)
			}
			var want bytes.Buffer
			var chunk bytes.Buffer
			for i := 1; i <= tt.lines; i++ {
				// Not fmt: 3,000,000 lines through Fprintf were most of the
				// test's time under -race.
				chunk.WriteString("line ")
				chunk.WriteString(strconv.Itoa(i))
				chunk.WriteByte('\n')
				if i%tt.chunkedLines == 0 || i == tt.lines {
					want.Write(chunk.Bytes())
					s.Write(chunk.Bytes())
					chunk.Reset()
				}
			}
			sum := s.Close()
			if !sum.Offloaded || sum.Bytes != int64(want.Len()) || sum.Lines != tt.lines {
				t.Fatalf("%+v", sum)
			}
			got, err := os.ReadFile(sum.File)
			if err != nil {
				t.Fatal(err)
			}
			if int64(len(got)) > tt.max {
				t.Fatalf("a file of %d bytes, the cap is %d", len(got), tt.max)
			}
			if !tt.cut {
				if !bytes.Equal(got, want.Bytes()) || sum.Err != nil {
					t.Fatalf("under the cap the file is the output: %d bytes of %d, %v", len(got), want.Len(), sum.Err)
				}
				return
			}
			var e *Error
			if !errors.As(sum.Err, &e) || e.Capped != tt.max {
				t.Fatalf("no account of the cut: %v", sum.Err)
			}
			marker := e.Marker()
			i := bytes.Index(got, []byte(marker))
			if i < 0 {
				t.Fatalf("no marker %q in the file", marker)
			}
			head, tail := got[:i], got[i+len(marker):]
			if int64(len(head)) != e.Head || int64(len(tail)) != e.Tail || e.Head+e.Tail+e.Dropped != e.Total {
				t.Fatalf("head %d tail %d, error says %+v", len(head), len(tail), e)
			}
			if !bytes.HasPrefix(want.Bytes(), head) || !bytes.HasSuffix(want.Bytes(), tail) {
				t.Fatal("the head or the tail is not the output's")
			}
			cutLines := bytes.Count(want.Bytes()[len(head):want.Len()-len(tail)], []byte{'\n'})
			if e.DroppedLines != int64(cutLines) || e.Lines != int64(tt.lines) {
				t.Fatalf("%d lines cut, the error says %d of %d", cutLines, e.DroppedLines, e.Lines)
			}
			if tt.max > 2*TailBytes && e.Tail != TailBytes {
				t.Fatalf("a tail of %d bytes, want %d", e.Tail, TailBytes)
			}
			msg := e.Error()
			for _, w := range []string{Size(tt.max), fmt.Sprintf("(%d lines) cut", cutLines), "--offload-max-mib"} {
				if !strings.Contains(msg, w) {
					t.Errorf("%q does not say %q", msg, w)
				}
			}
		})
	}
}

func TestSize(t *testing.T) {
	t.Parallel()
	for n, want := range map[int64]string{0: "0 B", 1023: "1023 B", 1024: "1 KiB", 1536: "1.5 KiB", 64 << 20: "64 MiB", 217 * 1000 * 1000: "206.9 MiB", 3 << 30: "3 GiB"} {
		if got := Size(n); got != want {
			t.Errorf("Size(%d) = %q, want %q", n, got, want)
		}
	}
}
