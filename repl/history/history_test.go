package history

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestAddAndReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", "history")
	h, warn := Open(path)
	if warn != "" {
		t.Fatalf("warning on a missing file: %q", warn)
	}
	for _, line := range []string{"ls", "ls", " secret", "", "printf '%s|' 'line1\nline2'", "echo \"q\" \\ \x1b"} {
		if err := h.Add(line); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{"ls", "printf '%s|' 'line1\nline2'", "echo \"q\" \\ \x1b"}
	if got := h.Entries(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("entries = %q, want %q", got, want)
	}
	h2, warn := Open(path)
	if warn != "" {
		t.Fatalf("warning: %q", warn)
	}
	if got := h2.Entries(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("reopened = %q, want %q", got, want)
	}
	raw, _ := os.ReadFile(path)
	if n := strings.Count(string(raw), "\n"); n != 3 {
		t.Fatalf("file has %d lines, want 3:\n%s", n, raw)
	}
	if info, _ := os.Stat(path); info.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v", info.Mode())
	}
}

func TestOwnSessionFirst(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history")
	a, _ := Open(path)
	b, _ := Open(path)
	a.Add("from a")
	b.Add("from b")
	a.Add("again a")
	// a sees only its own lines after what was in the file when it opened.
	if got := fmt.Sprint(a.Entries()); got != "[from a again a]" {
		t.Fatalf("a = %s", got)
	}
	c, _ := Open(path)
	if got := fmt.Sprint(c.Entries()); got != "[from a from b again a]" {
		t.Fatalf("c = %s", got)
	}
}

func TestNoHistory(t *testing.T) {
	h, _ := Open("")
	h.Add("ls")
	if h.Len() != 1 {
		t.Fatal("memory history lost its line")
	}
}

func TestLimit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history")
	var b strings.Builder
	for i := range MaxEntries + 50 {
		fmt.Fprintf(&b, "%q\n", "cmd "+strconv.Itoa(i))
	}
	os.WriteFile(path, []byte(b.String()), 0o600)
	h, warn := Open(path)
	if warn != "" || h.Len() != MaxEntries || h.Entries()[0] != "cmd 50" {
		t.Fatalf("len %d first %q warn %q", h.Len(), h.Entries()[0], warn)
	}
}

func TestCompact(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history")
	h, _ := Open(path)
	h.max, h.compactAt = 5, 1<<10
	for i := range 200 {
		h.Add(fmt.Sprintf("command number %d", i))
	}
	raw, _ := os.ReadFile(path)
	if len(raw) > 2<<10 {
		t.Fatalf("file not compacted: %d bytes", len(raw))
	}
	h2, _ := Open(path)
	if e := h2.Entries(); e[len(e)-1] != "command number 199" {
		t.Fatalf("last = %q", e[len(e)-1])
	}
}

// TestCompactNotEveryLine: when the kept entries alone exceed the
// threshold, the file is not rewritten on every line.
func TestCompactNotEveryLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history")
	h, _ := Open(path)
	h.max, h.compactAt = 20, 1<<10
	long := strings.Repeat("x", 200) // 20 entries: ~4 KB, over the threshold
	for i := range 20 {
		h.Add(fmt.Sprint(i, long))
	}
	info1, _ := os.Stat(path)
	h.Add("one more")
	info2, _ := os.Stat(path)
	if !os.SameFile(info1, info2) {
		t.Fatal("the file was rewritten for one short line")
	}
}

func TestFaultCorruptFile(t *testing.T) {
	cases := []struct {
		name, content string
		want          []string
		warn          string
	}{
		{"binary", "\x00\x01\xff garbage\n{not json\n", nil, "is corrupt"},
		{"torn line", "\"ok\"\n\"half\n\"fine\"\n", []string{"ok", "fine"}, "skipped 1 corrupt"},
		{"long line", "\"" + strings.Repeat("x", maxLine+10) + "\"\n\"after\"\n", []string{"after"}, "skipped 1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "history")
			os.WriteFile(path, []byte(c.content), 0o600)
			h, warn := Open(path)
			if !strings.Contains(warn, c.warn) {
				t.Fatalf("warning %q, want %q", warn, c.warn)
			}
			if fmt.Sprint(h.Entries()) != fmt.Sprint(c.want) {
				t.Fatalf("entries %q, want %q", h.Entries(), c.want)
			}
			if err := h.Add("new"); err != nil {
				t.Fatalf("add after corrupt: %v", err)
			}
		})
	}
}

func TestFaultUnreadableFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "history")
	os.Mkdir(path, 0o700) // a directory where the file should be
	h, warn := Open(path)
	if !strings.Contains(warn, "a directory") || h.Len() != 0 {
		t.Fatalf("warn %q len %d", warn, h.Len())
	}
	// Said once at the start: the history is kept in memory, and adding
	// to it is no second error.
	if err := h.Add("ls"); err != nil {
		t.Fatalf("add: %v", err)
	}
	if h.Len() != 1 {
		t.Fatal("entry lost from memory")
	}
}

// TestFaultHistoryNotARegularFile: a history that is a link to /dev/zero
// or a FIFO is neither read (no endless read, no block) nor written: one
// warning naming why, a history in memory.
func TestFaultHistoryNotARegularFile(t *testing.T) {
	for _, kind := range []string{"link to /dev/zero", "FIFO"} {
		t.Run(kind, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "history")
			if kind == "FIFO" {
				if err := syscall.Mkfifo(path, 0o600); err != nil {
					t.Fatal(err)
				}
			} else if err := os.Symlink("/dev/zero", path); err != nil {
				t.Fatal(err)
			}
			done := make(chan string, 1)
			go func() {
				h, warn := Open(path)
				if err := h.Add("ls"); err != nil || h.Len() != 1 {
					warn = fmt.Sprintf("add: %v, len %d", err, h.Len())
				}
				done <- warn
			}()
			select {
			case warn := <-done:
				want := map[string]string{"FIFO": "is a FIFO: not read or written", "link to /dev/zero": "is a symbolic link: not read or written"}[kind]
				if !strings.Contains(warn, want) || strings.Count(warn, "\n") > 0 {
					t.Fatalf("warning %q, want one line with %q", warn, want)
				}
			case <-time.After(5 * time.Second):
				t.Fatal("opening the history blocked")
			}
		})
	}
}

// TestFaultHugeHistoryReadsTheEnd: a history of a million lines opens with
// its last MaxEntries entries, reading only its end: memory and time stay
// those of a full history.
func TestFaultHugeHistoryReadsTheEnd(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history")
	var b []byte
	for i := range 1000000 {
		b = append(b, `"cmd `+strconv.Itoa(i)+`"`+"\n"...)
	}
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	h, warn := Open(path)
	runtime.ReadMemStats(&after)
	if warn != "" || h.Len() != MaxEntries || h.Entries()[0] != "cmd 990000" || h.Entries()[MaxEntries-1] != "cmd 999999" {
		t.Fatalf("len %d, first %q, warn %q", h.Len(), h.Entries()[0], warn)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 4<<20 {
		t.Fatalf("opening a million-line history allocated %d bytes; want only its end read", alloc)
	}
}

// TestConcurrentWriters runs two processes (this test binary) that each add
// many lines, some long enough to need several writes without the lock, at
// the same time: every line must arrive whole.
func TestConcurrentWriters(t *testing.T) {
	if os.Getenv("HISTORY_WRITER") != "" {
		return
	}
	path := filepath.Join(t.TempDir(), "history")
	const n = 300
	var cmds []*exec.Cmd
	for _, name := range []string{"a", "b"} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestWriterProcess$")
		cmd.Env = append(os.Environ(), "HISTORY_WRITER="+name, "HISTORY_PATH="+path, "HISTORY_N="+strconv.Itoa(n))
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	for _, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Fatal(err)
		}
	}
	h, warn := Open(path)
	if warn != "" {
		t.Fatalf("warning: %s", warn)
	}
	seen := map[string]bool{}
	for _, e := range h.Entries() {
		seen[e] = true
	}
	for _, name := range []string{"a", "b"} {
		for i := range n {
			if !seen[writerLine(name, i)] {
				t.Fatalf("lost or torn: %s %d (have %d entries)", name, i, h.Len())
			}
		}
	}
	if h.Len() != 2*n {
		t.Fatalf("%d entries, want %d", h.Len(), 2*n)
	}
}

func writerLine(name string, i int) string {
	return fmt.Sprintf("%s %d\n%s", name, i, strings.Repeat(name, 5000+i))
}

// TestWriterProcess is one writer of TestConcurrentWriters.
func TestWriterProcess(t *testing.T) {
	name := os.Getenv("HISTORY_WRITER")
	if name == "" {
		t.Skip("run by TestConcurrentWriters")
	}
	n, _ := strconv.Atoi(os.Getenv("HISTORY_N"))
	h, _ := Open(os.Getenv("HISTORY_PATH"))
	for i := range n {
		if err := h.Add(writerLine(name, i)); err != nil {
			t.Fatal(err)
		}
	}
}

func BenchmarkOpen10k(b *testing.B) {
	path := filepath.Join(b.TempDir(), "history")
	var sb strings.Builder
	for i := range MaxEntries {
		fmt.Fprintf(&sb, "%q\n", fmt.Sprintf("git commit -m 'change number %d' && make test", i))
	}
	os.WriteFile(path, []byte(sb.String()), 0o600)
	b.ResetTimer()
	for b.Loop() {
		if h, _ := Open(path); h.Len() != MaxEntries {
			b.Fatal(h.Len())
		}
	}
}
