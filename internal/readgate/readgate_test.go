package readgate

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/todo-shell/todo-shell/internal/testwait"
)

func TestOpenRefusesWhatIsNotARegularFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	regular := filepath.Join(dir, "regular")
	if err := os.WriteFile(regular, []byte("ok\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink("/dev/zero", link); err != nil {
		t.Fatal(err)
	}
	linkToRegular := filepath.Join(dir, "link-to-regular")
	if err := os.Symlink(regular, linkToRegular); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, path, want string
	}{
		{"symlink to a device", link, "a symbolic link"},
		{"symlink to a regular file", linkToRegular, "a symbolic link"},
		{"fifo", fifo, "a FIFO"},
		{"device", "/dev/zero", "a device"},
		{"directory", dir, "a directory"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			done := make(chan error, 1)
			go func() {
				_, err := ReadFile(tt.path, SmallFile)
				done <- err
			}()
			select {
			case err := <-done:
				if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), tt.want) {
					t.Fatalf("ReadFile(%s) = %v, want ErrNotRegular naming %q", tt.name, err, tt.want)
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("ReadFile(%s) blocked", tt.name)
			}
		})
	}
	b, err := ReadFile(regular, SmallFile)
	if err != nil || string(b) != "ok\n" {
		t.Fatalf("ReadFile(regular) = %q, %v", b, err)
	}
	d, err := os.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	for _, tt := range []struct{ name, want string }{
		{"link", "a symbolic link"}, {"fifo", "a FIFO"}, {"regular", ""}, {"missing", "no such file"},
	} {
		b, err := ReadFileAt(int(d.Fd()), dir, tt.name, SmallFile)
		switch {
		case tt.want == "" && (err != nil || string(b) != "ok\n"):
			t.Errorf("ReadFileAt(%s) = %q, %v", tt.name, b, err)
		case tt.want != "" && (err == nil || !strings.Contains(Reason(err), tt.want) || strings.Contains(Reason(err), dir)):
			t.Errorf("ReadFileAt(%s) = %v (reason %q), want %q without the path", tt.name, err, Reason(err), tt.want)
		}
	}
}

func TestReadFileCap(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, []byte(strings.Repeat("x", 100)), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		max  int64
		fail bool
	}{{99, true}, {100, false}, {1000, false}} {
		_, err := ReadFile(path, tt.max)
		if got := errors.Is(err, ErrTooLarge); got != tt.fail {
			t.Errorf("cap %d: err = %v, want too large %v", tt.max, err, tt.fail)
		}
	}
}

func TestScanLines(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("y", 200<<10) // longer than the reader's buffer
	tests := []struct {
		name, in string
		max      int
		want     []string
		skipped  []LongLine
	}{
		{"empty", "", 10, nil, nil},
		{"final newline", "a\nb\n", 10, []string{"1:a", "2:b"}, nil},
		{"no final newline", "a\nb", 10, []string{"1:a", "2:b"}, nil},
		{"blank lines kept", "a\n\nb\n", 10, []string{"1:a", "2:", "3:b"}, nil},
		{"exactly the cap", "abc\n", 3, []string{"1:abc"}, nil},
		{"one over the cap", "abcd\nok\n", 3, []string{"2:ok"}, []LongLine{{1, 4}}},
		{"over the cap at the end", "ok\nabcd", 3, []string{"1:ok"}, []LongLine{{2, 4}}},
		{"longer than the buffer", "a\n" + long + "\nb\n", 1000, []string{"1:a", "3:b"}, []LongLine{{2, int64(len(long))}}},
		{"long line within cap", long + "\n", len(long), []string{"1:" + long}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			skipped, err := ScanLines(strings.NewReader(tt.in), tt.max, func(n int, line []byte) error {
				got = append(got, strconv.Itoa(n)+":"+string(line))
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(got, "|") != strings.Join(tt.want, "|") {
				t.Errorf("lines = %.80q, want %.80q", got, tt.want)
			}
			if len(skipped) != len(tt.skipped) {
				t.Fatalf("skipped = %v, want %v", skipped, tt.skipped)
			}
			for i := range skipped {
				if skipped[i] != tt.skipped[i] {
					t.Errorf("skipped = %v, want %v", skipped, tt.skipped)
				}
			}
		})
	}
}

// endless yields n bytes of 'x' without holding them.
type endless struct{ n int64 }

func (e *endless) Read(p []byte) (int, error) {
	if e.n == 0 {
		return 0, io.EOF
	}
	if int64(len(p)) > e.n {
		p = p[:e.n]
	}
	for i := range p {
		p[i] = 'x'
	}
	e.n -= int64(len(p))
	return len(p), nil
}

func TestScanLinesMemoryIsBoundedByTheCap(t *testing.T) {
	lineBytes := int64(256 << 20)
	if testwait.Race {
		lineBytes /= 4 // still 8 times the bound; the pass without -race reads 256 MiB
	}
	r := io.MultiReader(&endless{n: lineBytes}, strings.NewReader("\nlast\n"))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	var got []string
	skipped, err := ScanLines(r, 1<<20, func(_ int, line []byte) error {
		got = append(got, string(line))
		return nil
	})
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if len(skipped) != 1 || skipped[0] != (LongLine{Line: 1, Bytes: lineBytes}) || len(got) != 1 || got[0] != "last" {
		t.Fatalf("skipped %v, lines %q", skipped, got)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 8<<20 {
		t.Fatalf("scanning a %d-byte line allocated %d bytes; want it bounded by the 1 MiB cap", lineBytes, alloc)
	}
}

func TestLastLines(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("y", 200<<10) // longer than a block
	tests := []struct {
		name, in string
		max      int
		want     []string // "start:line", last first; "start:LONG" for a long line
	}{
		{"empty", "", 10, nil},
		{"one line", "abc\n", 10, []string{"0:abc"}},
		{"no final newline", "a\nbc", 10, []string{"2:bc", "0:a"}},
		{"blank lines", "a\n\nb\n", 10, []string{"3:b", "2:", "0:a"}},
		{"only a newline", "\n", 10, []string{"0:"}},
		{"long line", "a\n" + long + "\nb\n", 1000, []string{strconv.Itoa(len(long)+3) + ":b", "2:LONG", "0:a"}},
		{"long line within cap", "a\n" + long + "\n", len(long), []string{"2:" + long, "0:a"}},
		{"long first line", long + "\nb", 10, []string{strconv.Itoa(len(long)+1) + ":b", "0:LONG"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			r := strings.NewReader(tt.in)
			err := LastLines(r, int64(len(tt.in)), tt.max, func(start int64, line []byte, long bool) (bool, error) {
				s := string(line)
				if long {
					s = "LONG"
				}
				got = append(got, strconv.FormatInt(start, 10)+":"+s)
				return false, nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(got, "|") != strings.Join(tt.want, "|") {
				t.Errorf("lines = %.80q, want %.80q", got, tt.want)
			}
			for _, g := range got {
				start, _, _ := strings.Cut(g, ":")
				off, _ := strconv.ParseInt(start, 10, 64)
				n, err := LineNumber(r, off)
				if err != nil || (off > 0 && tt.in[off-1] != '\n') || n != strings.Count(tt.in[:off], "\n")+1 {
					t.Errorf("LineNumber(%d) = %d, %v", off, n, err)
				}
			}
		})
	}
}

func TestLastLinesStops(t *testing.T) {
	t.Parallel()
	in := "a\nb\nc\n"
	var got []string
	err := LastLines(strings.NewReader(in), int64(len(in)), 10, func(_ int64, line []byte, _ bool) (bool, error) {
		got = append(got, string(line))
		return string(line) == "b", nil
	})
	if err != nil || strings.Join(got, "") != "cb" {
		t.Fatalf("got %q, %v; want c, b and a stop", got, err)
	}
}

func TestLastLinesMemoryIsBoundedByTheCap(t *testing.T) {
	// A file of one 64 MiB line then a short one, read from the end:
	// the long line is passed over without being held.
	lineBytes := int64(64 << 20)
	if testwait.Race {
		lineBytes /= 4 // still twice the bound; the pass without -race reads 64 MiB
	}
	r := &sparse{size: lineBytes + 6, tail: "\nlast\n"}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	var got []string
	err := LastLines(r, r.size, 1<<20, func(_ int64, line []byte, long bool) (bool, error) {
		if long {
			got = append(got, "LONG")
		} else {
			got = append(got, string(line))
		}
		return false, nil
	})
	runtime.ReadMemStats(&after)
	if err != nil || strings.Join(got, "|") != "last|LONG" {
		t.Fatalf("got %q, %v", got, err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 8<<20 {
		t.Fatalf("reading past a %d-byte line allocated %d bytes; want it bounded by the 1 MiB cap", lineBytes, alloc)
	}
}

// sparse is a file of size bytes: 'x' everywhere but its tail.
type sparse struct {
	size int64
	tail string
}

func (s *sparse) ReadAt(p []byte, off int64) (int, error) {
	if off >= s.size {
		return 0, io.EOF
	}
	n := 0
	for ; n < len(p) && off+int64(n) < s.size; n++ {
		i := off + int64(n) - (s.size - int64(len(s.tail)))
		if i >= 0 {
			p[n] = s.tail[i]
		} else {
			p[n] = 'x'
		}
	}
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// TestOpenInRoot: inside a held directory, only a regular file opens; a
// link (within the directory or out of it) and a FIFO are refused as what
// they are.
func TestOpenInRoot(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	outside := filepath.Join(t.TempDir(), "elsewhere")
	if err := os.WriteFile(outside, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "plain"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	for name, target := range map[string]string{"inner-link": "plain", "outer-link": outside} {
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o600); err != nil {
		t.Fatal(err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = root.Close() }()
	for _, tc := range []struct{ name, want string }{
		{"plain", ""},
		{"inner-link", "a symbolic link"},
		{"outer-link", "a symbolic link"},
		{"fifo", "a FIFO"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, _, err := OpenInRoot(root, tc.name, os.O_RDONLY, 0)
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				_ = f.Close()
				return
			}
			if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want ErrNotRegular saying %q", err, tc.want)
			}
		})
	}
}
