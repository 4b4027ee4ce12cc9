package task

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/todo-shell/todo-shell/internal/readgate"
	"github.com/todo-shell/todo-shell/tools"
	"github.com/todo-shell/todo-shell/tools/todo"
)

// plant replaces the plan file name in dir with a FIFO, a symbolic link to
// /dev/zero, or a directory.
func plant(t *testing.T, dir, name, kind string) {
	t.Helper()
	p := filepath.Join(dir, name)
	_ = os.Remove(p)
	var err error
	switch kind {
	case "fifo":
		err = syscall.Mkfifo(p, 0o600)
	case "link to /dev/zero":
		err = os.Symlink("/dev/zero", p)
	case "directory":
		err = os.Mkdir(p, 0o700)
	}
	if err != nil {
		t.Fatal(err)
	}
}

// createTask runs TaskCreate on s.
func createTask(t *testing.T, s *Store, subject string) tools.ToolResult {
	t.Helper()
	reg := tools.NewRegistry()
	if err := Register(reg, s, Options{Limits: todo.Limits{MaxItems: 1000, MaxContentLength: 200}}); err != nil {
		t.Fatal(err)
	}
	return reg.Execute(context.Background(), "toolu_1", CreateName, json.RawMessage(`{"subject":"`+subject+`","description":"d"}`))
}

// within runs fn and fails the test if it takes more than d (a hang on a
// FIFO would).
func within(t *testing.T, d time.Duration, what string, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); fn() }()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("%s: still running after %v", what, d)
	}
}

// TestFaultPlantedPlanFiles: a plan directory whose lock or journal is a
// FIFO, a link to /dev/zero or a directory is refused at once, before its
// lock is taken, with one line naming the file (a FIFO journal blocked the
// 9th TaskCreate in write(2) holding the lock, and every other client with
// it); a snapshot that is one is passed over (the journal is the record),
// where os.ReadFile hung on the FIFO and took 4.7 GB of /dev/zero.
func TestFaultPlantedPlanFiles(t *testing.T) {
	t.Parallel()
	for _, name := range []string{LockFile, JournalFile, SnapshotFile} {
		for _, kind := range []string{"fifo", "link to /dev/zero", "directory"} {
			t.Run(name+" "+kind, func(t *testing.T) {
				dir := filepath.Join(t.TempDir(), "plan")
				s, err := OpenStore(dir, nil)
				if err != nil {
					t.Fatal(err)
				}
				if r := createTask(t, s, "before"); r.IsError {
					t.Fatal(r.Content)
				}
				if err := s.Close(); err != nil {
					t.Fatal(err)
				}
				plant(t, dir, name, kind)
				within(t, 5*time.Second, "open", func() {
					s, err = OpenStore(dir, nil)
				})
				if name == SnapshotFile {
					if err != nil {
						t.Fatalf("a planted snapshot stopped the plan: %v", err)
					}
					if st := s.Snapshot(); len(st.Tasks) != 1 || st.Tasks[0].Subject != "before" {
						t.Fatalf("plan %+v", st.Tasks)
					}
					if r := createTask(t, s, "after"); r.IsError {
						t.Fatal(r.Content)
					}
					_ = s.Close()
					return
				}
				if !errors.Is(err, readgate.ErrNotRegular) || !strings.Contains(err.Error(), filepath.Join(dir, name)) || strings.Contains(err.Error(), "\n") {
					t.Fatalf("open: %v, want one line naming %s, not a regular file", err, name)
				}
				within(t, 5*time.Second, "watch --plan --once", func() { _, err = ReadDir(dir, nil) })
				if name == JournalFile && !errors.Is(err, readgate.ErrNotRegular) {
					t.Errorf("ReadDir: %v", err)
				}
			})
		}
	}
}

// TestJournalFIFOWhileOpen: a journal swapped for a FIFO while a store
// holds the directory open is not written by the next store: it is refused
// at its open, and the first store (whose file is the old one) goes on.
func TestJournalFIFOWhileOpen(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "plan")
	a, err := OpenStore(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	for i := 0; i < 8; i++ {
		if r := createTask(t, a, fmt.Sprint("task ", i)); r.IsError {
			t.Fatal(r.Content)
		}
	}
	plant(t, dir, JournalFile, "fifo")
	within(t, 5*time.Second, "a second client", func() {
		_, err = OpenStore(dir, nil)
	})
	if !errors.Is(err, readgate.ErrNotRegular) {
		t.Fatalf("second client: %v", err)
	}
	within(t, 5*time.Second, "the 9th TaskCreate", func() {
		if r := createTask(t, a, "task 8"); r.IsError {
			t.Error(r.Content)
		}
	})
}

// TestJournalReadInLines: a 3 GiB sparse journal (no newline in it) is
// read without holding it: a few MiB allocated, not 3 GiB (catchUp
// allocated the rest of the file), by a reader and by a writer (which cuts
// it off: its writer, if any, is gone); a journal's lines over
// readgate.MaxLine are skipped and the versions around them kept.
func TestJournalReadInLines(t *testing.T) {
	if testing.Short() {
		t.Skip("reads 3 GiB of holes")
	}
	dir := filepath.Join(t.TempDir(), "plan")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	j := filepath.Join(dir, JournalFile)
	f, err := os.Create(j)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(3 << 30); err != nil {
		t.Fatal(err)
	}
	_ = f.Close()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	st, err := ReadDir(dir, nil)
	if err != nil || st.Version != 0 {
		t.Fatalf("ReadDir: %+v %v", st, err)
	}
	s, err := OpenStore(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r := createTask(t, s, "after the holes"); r.IsError {
		t.Fatal(r.Content)
	}
	_ = s.Close()
	runtime.ReadMemStats(&after)
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 64<<20 {
		t.Errorf("%d MiB allocated reading a 3 GiB journal", grew>>20)
	}
	t.Logf("%v, %d MiB allocated", time.Since(start), (after.TotalAlloc-before.TotalAlloc)>>20)
	if st, err := ReadDir(dir, nil); err != nil || st.Version != 1 || st.Tasks[0].Subject != "after the holes" {
		t.Fatalf("after: %+v %v", st, err)
	}
}

// TestLongJournalLine: a line over readgate.MaxLine between good ones is
// skipped; the versions before and after it are read.
func TestLongJournalLine(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "plan")
	s, err := OpenStore(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	createTask(t, s, "one")
	_ = s.Close()
	j := filepath.Join(dir, JournalFile)
	good, _ := os.ReadFile(j)
	long := append(bytes.Repeat([]byte("x"), readgate.MaxLine+10), '\n')
	second := bytes.ReplaceAll(bytes.Replace(good, []byte(`"version":1`), []byte(`"version":2`), 1), []byte(`"subject":"one"`), []byte(`"subject":"two"`))
	second = bytes.ReplaceAll(second, []byte(`"id":"1"`), []byte(`"id":"2"`))
	if err := os.WriteFile(j, append(append(append([]byte{}, good...), long...), second...), 0o600); err != nil {
		t.Fatal(err)
	}
	_ = os.Remove(filepath.Join(dir, SnapshotFile))
	var versions []uint64
	st, err := ReadDir(dir, func(st State, r Record) { versions = append(versions, r.Version) })
	if err != nil || fmt.Sprint(versions) != "[1 2]" || len(st.Tasks) != 2 {
		t.Fatalf("versions %v, %d tasks, %v", versions, len(st.Tasks), err)
	}
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.ReaderAt
	n int64
}

func (c *countingReader) ReadAt(p []byte, off int64) (int, error) {
	n, err := c.r.ReadAt(p, off)
	c.n += int64(n)
	return n, err
}

// TestScanLinesResumes: a line with no newline yet is not read again from
// its start once it is over readgate.MaxLine; reading on costs only the
// bytes added.
func TestScanLinesResumes(t *testing.T) {
	t.Parallel()
	var got []string
	data := []byte("{\"a\":1}\n" + strings.Repeat("y", readgate.MaxLine+100))
	r := &countingReader{r: bytes.NewReader(data)}
	end, rest, err := scanLines(r, 0, 0, int64(len(data)), func(l []byte) { got = append(got, string(l)) })
	if err != nil || end != 8 || rest != int64(len(data))-8 || len(got) != 1 {
		t.Fatalf("end %d rest %d %v, lines %q", end, rest, err, got)
	}
	data = append(data, []byte("zz\n{\"b\":2}\n")...)
	r = &countingReader{r: bytes.NewReader(data)}
	end, rest, err = scanLines(r, end, rest, int64(len(data)), func(l []byte) { got = append(got, string(l)) })
	if err != nil || end != int64(len(data)) || rest != 0 || len(got) != 2 || got[1] != `{"b":2}` {
		t.Fatalf("end %d rest %d %v, lines %q", end, rest, err, got)
	}
	if r.n != 11 {
		t.Errorf("read %d bytes to go on, want the 11 added", r.n)
	}
}
