package offload_test

import (
	"bytes"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/todo-shell/todo-shell/tools/offload"
	"github.com/todo-shell/todo-shell/tools/offload/offloadtest"
)

// TestFaultSpoolCapFallsBack: a capped output (300 KB through a 64 KiB
// cap) whose file fails at any step lands in the fallback directory cut
// the same way: the output's start, the marker, its end; the error names
// the place that failed and says what was cut.
func TestFaultSpoolCapFallsBack(t *testing.T) {
	t.Parallel()
	const total, most = 300_000, 64 << 10
	out := output(total)
	for _, f := range faultsAt("", most) {
		if f.Step == offloadtest.Write && f.After >= most/2 {
			continue // the file never gets that far
		}
		t.Run(name(f), func(t *testing.T) {
			p := newPlace(t)
			f.Under = p.primary
			cfg := p.config(offloadtest.New(f))
			cfg.MaxFile = most
			s, _ := offload.NewSpool(cfg, "toolu_cap")
			feed(s, out)
			sum := s.Close()
			var e *offload.Error
			if !sum.Offloaded || !errors.As(sum.Err, &e) || e.Capped != most || e.File != sum.File || len(e.Failures) == 0 {
				t.Fatalf("%+v %v", sum, sum.Err)
			}
			if !strings.HasPrefix(sum.File, p.fallback) || !strings.Contains(e.Error(), p.primary) {
				t.Fatalf("file %s, error %v", sum.File, e)
			}
			checkCut(t, sum.File, e, out, most)
			p.noTemporaryFiles(t)
		})
	}
}

// TestFaultSpoolCapNowhereToWrite: when no place takes a file, a capped
// output is kept as any other: its start and its end in memory, the bytes
// between exactly counted.
func TestFaultSpoolCapNowhereToWrite(t *testing.T) {
	t.Parallel()
	const total, most = 10<<20 + 12345, 64 << 10
	out := output(total)
	for _, f := range []offloadtest.Fault{
		{Step: offloadtest.Create},
		{Step: offloadtest.Write, After: 1000},
		{Step: offloadtest.Sync},
		{Step: offloadtest.Rename},
	} {
		t.Run(name(f), func(t *testing.T) {
			p := newPlace(t)
			cfg := p.config(offloadtest.New(f))
			cfg.MaxFile = most
			s, _ := offload.NewSpool(cfg, "toolu_capmem")
			feed(s, out)
			sum := s.Close()
			var e *offload.Error
			if sum.Offloaded || !errors.As(sum.Err, &e) || e.Dropped == 0 || e.Head+e.Tail+e.Dropped != total {
				t.Fatalf("%v %+v", sum.Offloaded, e)
			}
			want := string(out[:e.Head]) + e.Marker() + string(out[total-e.Tail:])
			if sum.Text != want {
				t.Fatalf("text is not head + marker + tail (head %d, tail %d)", e.Head, e.Tail)
			}
			p.noTemporaryFiles(t)
		})
	}
}

// checkCut checks that file holds out's first e.Head bytes, e's marker and
// out's last e.Tail bytes, in at most most bytes.
func checkCut(t *testing.T, file string, e *offload.Error, out []byte, most int64) {
	t.Helper()
	got, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if int64(len(got)) > most {
		t.Fatalf("a file of %d bytes, the cap is %d", len(got), most)
	}
	want := append(append(append([]byte(nil), out[:e.Head]...), e.Marker()...), out[int64(len(out))-e.Tail:]...)
	if !bytes.Equal(got, want) || e.Head+e.Tail+e.Dropped != int64(len(out)) || e.Dropped == 0 {
		t.Fatalf("the file is not head + marker + tail: %d bytes, %+v", len(got), e)
	}
}
