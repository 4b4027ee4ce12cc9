package offload_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/todo-shell/todo-shell/tools/offload"
	"github.com/todo-shell/todo-shell/tools/offload/offloadtest"
)

// output returns n bytes of `seq 1 …`-like text.
func output(n int) []byte {
	var b bytes.Buffer
	for i := 1; b.Len() < n; i++ {
		b.WriteString(strconv.Itoa(i))
		b.WriteByte('\n')
	}
	return b.Bytes()[:n]
}

// feed writes out to s in chunks of varying size, as a pipe delivers it.
func feed(s *offload.Spool, out []byte) {
	sizes := []int{1, 4096, 7, 65536, 100, 32768, 65537, 3}
	for i := 0; len(out) > 0; i++ {
		n := min(sizes[i%len(sizes)], len(out))
		if w, err := s.Write(out[:n]); w != n || err != nil { // io.MultiWriter stops on a short count
			panic(fmt.Sprintf("Write returned %d, %v for %d bytes", w, err, n))
		}
		out = out[n:]
	}
}

type place struct{ primary, fallback string }

func newPlace(t *testing.T) place {
	t.Helper()
	d := t.TempDir()
	return place{filepath.Join(d, "offload"), filepath.Join(d, "fallback")}
}

func (p place) config(fs offload.FS) offload.Config {
	return offload.Config{Dir: p.primary, FallbackDir: p.fallback, Session: "s", Threshold: 1000, FS: fs}
}

// noTemporaryFiles checks no .tmp-* file is left in either place.
func (p place) noTemporaryFiles(t *testing.T) {
	t.Helper()
	for _, root := range []string{p.primary, p.fallback} {
		if left, _ := filepath.Glob(filepath.Join(root, "s", ".tmp-*")); len(left) > 0 {
			t.Fatalf("temporary files left: %v", left)
		}
	}
}

// writePoints are the byte counts after which a write fails: the edges of
// the threshold and of the spool's 64 KiB buffer, and the end.
func writePoints(total int) []int64 {
	return []int64{0, 1, 999, 1000, 1001, 4095, 4096, 65535, 65536, 65537, 131071, 131072, 131073, int64(total) - 1}
}

// faultsAt returns one fault for each step (every write point for Write).
func faultsAt(under string, total int) []offloadtest.Fault {
	var fs []offloadtest.Fault
	for _, step := range offloadtest.Steps {
		if step == offloadtest.Write {
			for _, n := range writePoints(total) {
				fs = append(fs, offloadtest.Fault{Under: under, Step: step, After: n})
			}
			continue
		}
		fs = append(fs, offloadtest.Fault{Under: under, Step: step})
	}
	return fs
}

func name(f offloadtest.Fault) string {
	if f.Step == offloadtest.Write {
		return fmt.Sprintf("%s-after-%d", f.Step, f.After)
	}
	return f.Step
}

// TestFaultSpoolFallsBack: whatever step of the offload file fails, the
// whole output ends up in the fallback directory, byte for byte, and the
// error names both places.
func TestFaultSpoolFallsBack(t *testing.T) {
	t.Parallel()
	const total = 300_000
	out := output(total)
	p := newPlace(t)
	for _, f := range faultsAt(p.primary, total) {
		t.Run(name(f), func(t *testing.T) {
			p := newPlace(t)
			f.Under = p.primary
			fs := offloadtest.New(f)
			s, err := offload.NewSpool(p.config(fs), "toolu_fb")
			if err != nil {
				t.Fatal(err)
			}
			feed(s, out)
			sum := s.Close()
			if len(fs.Struck()) == 0 {
				t.Fatal("the fault never struck")
			}
			want := filepath.Join(p.fallback, "s", "toolu_fb.md")
			if !sum.Offloaded || sum.File != want || sum.Bytes != total {
				t.Fatalf("%+v", sum)
			}
			if got, _ := os.ReadFile(sum.File); !bytes.Equal(got, out) {
				t.Fatalf("fallback file holds %d bytes, differs from the output", len(got))
			}
			var e *offload.Error
			if !errors.As(sum.Err, &e) || e.File != want || len(e.Failures) != 1 || !errors.Is(sum.Err, syscall.ENOSPC) {
				t.Fatalf("error %v", sum.Err)
			}
			step := f.Step
			if step == offloadtest.Dir {
				step = offloadtest.Create
			}
			msg := offload.Warning(sum.Err)
			if !strings.Contains(msg, filepath.Join(p.primary, "s", "toolu_fb.md")+" ("+step) || !strings.Contains(msg, "the output is in "+want) {
				t.Fatalf("warning %q", msg)
			}
			if _, err := os.Stat(filepath.Join(p.primary, "s", "toolu_fb.md")); err == nil {
				t.Fatal("a file was left in the failed place")
			}
			p.noTemporaryFiles(t)
		})
	}
}

// TestFaultSpoolKeepsAllInMemory: when both places fail, at any step, an
// output of at most 8 MiB is returned whole, and the error says so.
func TestFaultSpoolKeepsAllInMemory(t *testing.T) {
	t.Parallel()
	const total = 300_000
	out := output(total)
	faults := faultsAt("", total)
	// The fallback failing differently from the first place, and the
	// first place's bytes that cannot be read back.
	faults = append(faults,
		offloadtest.Fault{Step: offloadtest.Write, After: 70_000, Under: "PRIMARY"},
		offloadtest.Fault{Step: offloadtest.Write, After: 10, Under: "FALLBACK"},
	)
	for i, f := range faults {
		t.Run(fmt.Sprint(i, "-", name(f)), func(t *testing.T) {
			p := newPlace(t)
			fs := offloadtest.New(f)
			switch f.Under {
			case "PRIMARY":
				f.Under = p.primary
				fs = offloadtest.New(f, offloadtest.Fault{Under: p.fallback, Step: offloadtest.Close})
			case "FALLBACK":
				f.Under = p.fallback
				fs = offloadtest.New(f, offloadtest.Fault{Under: p.primary, Step: offloadtest.Sync})
			}
			s, _ := offload.NewSpool(p.config(fs), "toolu_mem")
			feed(s, out)
			sum := s.Close()
			if sum.Offloaded || sum.Text != string(out) {
				t.Fatalf("offloaded %v, text of %d bytes (want the %d of the output)", sum.Offloaded, len(sum.Text), total)
			}
			var e *offload.Error
			if !errors.As(sum.Err, &e) || e.Dropped != 0 || !strings.Contains(e.Error(), "shown in full") {
				t.Fatalf("error %v", sum.Err)
			}
			p.noTemporaryFiles(t)
		})
	}
}

// TestFaultSpoolHeadAndTail: with both places failing, an output of more
// than 8 MiB keeps its first and last 4 MiB, and the line between them says
// exactly how many bytes were dropped.
func TestFaultSpoolHeadAndTail(t *testing.T) {
	t.Parallel()
	const total = 10<<20 + 12345
	out := output(total)
	for _, f := range []offloadtest.Fault{
		{Step: offloadtest.Create},
		{Step: offloadtest.Write, After: 65536},
		{Step: offloadtest.Write, After: 9 << 20},
		{Step: offloadtest.Rename},
	} {
		t.Run(name(f), func(t *testing.T) {
			p := newPlace(t)
			s, _ := offload.NewSpool(p.config(offloadtest.New(f)), "toolu_ht")
			feed(s, out)
			sum := s.Close()
			checkHeadTail(t, sum, out)
			if !strings.Contains(sum.Err.Error(), "could not write the offload file "+filepath.Join(p.primary, "s", "toolu_ht.md")) {
				t.Fatalf("error %v", sum.Err)
			}
			p.noTemporaryFiles(t)
		})
	}
	t.Run("offloading-off", func(t *testing.T) {
		s, _ := offload.NewSpool(offload.Config{}, "toolu_off")
		feed(s, out)
		sum := s.Close()
		checkHeadTail(t, sum, out)
		if !strings.HasPrefix(sum.Err.Error(), "offloading is off") {
			t.Fatal(sum.Err)
		}
	})
}

func checkHeadTail(t *testing.T, sum offload.Summary, out []byte) {
	t.Helper()
	var e *offload.Error
	if sum.Offloaded || !errors.As(sum.Err, &e) {
		t.Fatalf("%v %v", sum.Offloaded, sum.Err)
	}
	total := int64(len(out))
	if e.Total != total || e.Head != offload.HeadBytes || e.Tail != offload.TailBytes || e.Dropped != total-e.Head-e.Tail {
		t.Fatalf("accounting %+v", e)
	}
	want := string(out[:e.Head]) + e.Marker() + string(out[total-e.Tail:])
	if sum.Text != want {
		t.Fatal("text is not head + marker + tail")
	}
	if !strings.Contains(e.Marker(), strconv.FormatInt(e.Dropped, 10)+" bytes of output dropped here") {
		t.Fatalf("marker %q", e.Marker())
	}
}

// TestFaultSpoolReadBackFails: the first file fails after 5000 bytes and
// cannot be read back, the fallback cannot be created: those 5000 bytes are
// dropped, exactly counted, and the rest is kept.
func TestFaultSpoolReadBackFails(t *testing.T) {
	t.Parallel()
	const total = 300_000
	out := output(total)
	p := newPlace(t)
	fs := offloadtest.New(
		offloadtest.Fault{Under: p.primary, Step: offloadtest.Write, After: 5000},
		offloadtest.Fault{Step: offloadtest.Read},
		offloadtest.Fault{Under: p.fallback, Step: offloadtest.Create},
	)
	s, _ := offload.NewSpool(p.config(fs), "toolu_rb")
	feed(s, out)
	sum := s.Close()
	var e *offload.Error
	if sum.Offloaded || !errors.As(sum.Err, &e) || e.Head != 0 || e.Dropped != 5000 || e.Tail != total-5000 {
		t.Fatalf("%v %+v", sum.Offloaded, e)
	}
	if sum.Text != e.Marker()+string(out[5000:]) || !strings.Contains(e.Marker(), "(read back: ") {
		t.Fatalf("text is not marker + the last %d bytes: %.300q", total-5000, sum.Text)
	}
	p.noTemporaryFiles(t)
}

// TestFaultSameIDTwice: two spools (as two processes would) with the same
// id, finishing in either order, never replace each other's file.
func TestFaultSameIDTwice(t *testing.T) {
	t.Parallel()
	p := newPlace(t)
	a, _ := offload.NewSpool(p.config(nil), "a/b")
	b, _ := offload.NewSpool(p.config(nil), "a/b")
	feed(a, output(5000))
	feed(b, output(7000))
	sb, sa := b.Close(), a.Close()
	if !sa.Offloaded || !sb.Offloaded || sa.File == sb.File {
		t.Fatalf("%s %s", sa.File, sb.File)
	}
	for file, n := range map[string]int{sa.File: 5000, sb.File: 7000} {
		if got, _ := os.ReadFile(file); !bytes.Equal(got, output(n)) {
			t.Fatalf("%s replaced", file)
		}
		if filepath.Dir(file) != filepath.Join(p.primary, "s") {
			t.Fatalf("%s outside the session directory", file)
		}
	}
}

// TestFaultTextFallsBack: a result already in memory (offload.Apply) goes
// to the fallback place when the first one fails, at any step.
func TestFaultTextFallsBack(t *testing.T) {
	t.Parallel()
	text := string(output(3000))
	for _, step := range offloadtest.Steps {
		t.Run(step, func(t *testing.T) {
			p := newPlace(t)
			info, warn, err := offload.TextWarn(text, "toolu_t", p.config(offloadtest.New(offloadtest.Fault{Under: p.primary, Step: step, After: 100})), nil)
			if err != nil {
				t.Fatal(err)
			}
			if info.Path != filepath.Join(p.fallback, "s", "toolu_t.md") || warn == nil {
				t.Fatalf("%s %v", info.Path, warn)
			}
			if got, _ := os.ReadFile(info.Path); string(got) != text {
				t.Fatal("file differs")
			}
			p.noTemporaryFiles(t)
			// Both failing: the error says why; the caller keeps the text.
			_, _, err = offload.TextWarn(text, "toolu_t2", p.config(offloadtest.New(offloadtest.Fault{Step: step, After: 100})), nil)
			var e *offload.Error
			if !errors.As(err, &e) || len(e.Failures) != 2 {
				t.Fatalf("error %v", err)
			}
		})
	}
}

// TestFaultSpoolBoundedMemory streams 200 MB through a spool with nowhere
// to write: the live heap stays within the kept head and tail and 1 MB.
func TestFaultSpoolBoundedMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("streams 200 MB")
	}
	s, _ := offload.NewSpool(offload.Config{Dir: t.TempDir(), FallbackDir: t.TempDir(), Session: "s", Threshold: 1000,
		FS: offloadtest.New(offloadtest.Fault{Step: offloadtest.Write, After: 1 << 20})}, "toolu_m")
	chunk := bytes.Repeat([]byte("0123456789abcde\n"), 4096) // 64 KiB
	runtime.GC()
	var base, now runtime.MemStats
	runtime.ReadMemStats(&base)
	var peak uint64
	const total = 200 << 20
	for n := 0; n < total; n += len(chunk) {
		s.Write(chunk)
		if n%(16<<20) == 0 {
			runtime.GC()
			runtime.ReadMemStats(&now)
			peak = max(peak, now.HeapAlloc)
		}
	}
	sum := s.Close()
	runtime.GC()
	runtime.ReadMemStats(&now)
	peak = max(peak, now.HeapAlloc)
	var e *offload.Error
	if sum.Offloaded || !errors.As(sum.Err, &e) || e.Dropped != total-offload.HeadBytes-offload.TailBytes {
		t.Fatalf("%v", sum.Err)
	}
	if grew := int64(peak) - int64(base.HeapAlloc); grew > 2*(offload.HeadBytes+offload.TailBytes)+1<<20 {
		t.Fatalf("heap grew by %d bytes while 200 MB passed", grew)
	} else {
		t.Logf("peak live heap growth %d bytes for 200 MB with no file", grew)
	}
}
