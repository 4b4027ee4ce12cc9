package offload

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestSpoolStaysInMemoryBelowThreshold(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s, err := NewSpool(Config{Dir: dir, Session: "s", Threshold: 1000}, "toolu_1")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Repeat("界", 999) // 999 characters
	for _, chunk := range strings.SplitAfter(text, "") {
		s.Write([]byte(chunk))
	}
	sum := s.Close()
	if sum.Offloaded || sum.Text != text || sum.Err != nil {
		t.Fatalf("%+v", sum)
	}
	if _, err := os.Stat(filepath.Join(dir, "s")); !os.IsNotExist(err) {
		t.Fatal("directory created for an output that stayed in memory")
	}
}

func TestSpoolSpillsAtThreshold(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s, _ := NewSpool(Config{Dir: dir, Session: "s", Threshold: 1000}, "toolu_2")
	var want bytes.Buffer
	for i := 1; i <= 500; i++ {
		line := fmt.Sprintf("line %d\n", i)
		want.WriteString(line)
		s.Write([]byte(line))
	}
	sum := s.Close()
	if !sum.Offloaded || sum.Err != nil || sum.Text != "" {
		t.Fatalf("%+v", sum)
	}
	if sum.File != filepath.Join(dir, "s", "toolu_2.md") {
		t.Fatalf("file %s", sum.File)
	}
	got, _ := os.ReadFile(sum.File)
	if !bytes.Equal(got, want.Bytes()) {
		t.Fatal("file differs from the output")
	}
	if sum.Lines != 500 || sum.Bytes != int64(want.Len()) {
		t.Fatalf("lines %d bytes %d", sum.Lines, sum.Bytes)
	}
	wantPreview := strings.Join(strings.SplitAfter(want.String(), "\n")[:PreviewLines], "")
	if sum.Preview != wantPreview {
		t.Fatalf("preview %q", sum.Preview)
	}
	if tmp, _ := filepath.Glob(filepath.Join(dir, "s", ".tmp-*")); len(tmp) != 0 {
		t.Fatalf("temporary files left: %v", tmp)
	}
}

func TestSpoolExactlyThreshold(t *testing.T) {
	t.Parallel()
	s, _ := NewSpool(Config{Dir: t.TempDir(), Session: "s", Threshold: 10}, "toolu_3")
	s.Write([]byte("0123456789"))
	if sum := s.Close(); !sum.Offloaded || sum.Lines != 1 {
		t.Fatalf("%+v", sum)
	}
}

func TestSpoolOff(t *testing.T) {
	t.Parallel()
	s, _ := NewSpool(Config{Threshold: 0}, "")
	s.Write(bytes.Repeat([]byte("x"), 5000))
	if sum := s.Close(); sum.Offloaded || len(sum.Text) != 5000 {
		t.Fatalf("%+v", sum)
	}
}

func TestSpoolFailureKeepsEverything(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	blocker := filepath.Join(dir, "file")
	os.WriteFile(blocker, nil, 0o600) // the offload dir is a file: spilling fails
	s, _ := NewSpool(Config{Dir: blocker, FallbackDir: blocker, Session: "s", Threshold: 10}, "toolu_4")
	text := strings.Repeat("abcdefgh\n", 100)
	s.Write([]byte(text))
	sum := s.Close()
	if sum.Offloaded || sum.Text != text || sum.Err == nil || !strings.Contains(sum.Err.Error(), "toolu_4.md") {
		t.Fatalf("%+v", sum)
	}
}

// TestSpoolUnsafeIDStillOffloads: an id that cannot name a file gets a
// safe name; the output is still offloaded (no unbounded memory).
func TestSpoolUnsafeIDStillOffloads(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	s, err := NewSpool(Config{Dir: dir, Session: "s", Threshold: 10}, "../x")
	if err != nil {
		t.Fatal(err)
	}
	s.Write([]byte("0123456789abc"))
	sum := s.Close()
	if !sum.Offloaded || sum.File != filepath.Join(dir, "s", FileName("../x")) || sum.Err != nil {
		t.Fatalf("%+v", sum)
	}
	if _, err := NewSpool(Config{Dir: dir, Session: "../s", Threshold: 10}, "x"); err == nil {
		t.Fatal("bad session id accepted")
	}
}

// TestSpoolBoundedMemory streams 200 MB through a spool and checks the
// heap never grows by 1 MB.
func TestSpoolBoundedMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("streams 200 MB")
	}
	s, _ := NewSpool(Config{Dir: t.TempDir(), Session: "s", Threshold: 1000}, "toolu_big")
	chunk := bytes.Repeat([]byte("0123456789abcde\n"), 4096) // 64 KiB
	runtime.GC()
	var base, now runtime.MemStats
	runtime.ReadMemStats(&base)
	var peak uint64
	const total = 200 << 20
	for n := 0; n < total; n += len(chunk) {
		s.Write(chunk)
		if n%(8<<20) == 0 {
			runtime.GC() // the live heap, not garbage waiting for a cycle
			runtime.ReadMemStats(&now)
			peak = max(peak, now.HeapAlloc)
		}
	}
	sum := s.Close()
	runtime.ReadMemStats(&now)
	peak = max(peak, now.HeapAlloc)
	if !sum.Offloaded || sum.Bytes != total {
		t.Fatalf("%+v", sum)
	}
	if grew := int64(peak) - int64(base.HeapAlloc); grew > 1<<20 {
		t.Fatalf("heap grew by %d bytes while 200 MB passed", grew)
	} else {
		t.Logf("peak heap growth %d bytes for 200 MB", grew)
	}
}

func BenchmarkSpool(b *testing.B) {
	chunk := bytes.Repeat([]byte("0123456789abcde\n"), 4096)
	dir := b.TempDir()
	b.SetBytes(int64(len(chunk)) * 64)
	b.ReportAllocs()
	for b.Loop() {
		s, _ := NewSpool(Config{Dir: dir, Session: "s", Threshold: 1000}, "toolu_b")
		for i := 0; i < 64; i++ {
			s.Write(chunk)
		}
		os.Remove(s.Close().File) // an offload never replaces a file: make room for the next
	}
}
