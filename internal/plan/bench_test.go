package plan

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/todo-shell/todo-shell/tools/todo"
)

// WriteBigTranscript writes a Claude Code transcript of at least size bytes
// to w: rounds of a 10-item TodoWrite, a Bash call with a 2–20 KB result,
// a Read with a 4 KB result and some assistant text.
func writeBigTranscript(w io.Writer, size int) int {
	n := 0
	filler := strings.Repeat(`line of \"output\" with\ttabs and escapes \u00e9 `, 50)
	for round := 0; n < size; round++ {
		var todos []string
		for i := 0; i < 10; i++ {
			st := "pending"
			switch {
			case i < round%10:
				st = "completed"
			case i == round%10:
				st = "in_progress"
			}
			todos = append(todos, fmt.Sprintf(`{"content":"Task %d of the plan","status":"%s","activeForm":"Doing task %d of the plan"}`, i, st, i))
		}
		ts := fmt.Sprintf("2025-07-01T10:%02d:%02d.000Z", round/60%60, round%60)
		lines := []string{
			fmt.Sprintf(`{"parentUuid":"a","type":"assistant","timestamp":"%s","message":{"role":"assistant","content":[{"type":"text","text":"Working on step %d."},{"type":"tool_use","id":"toolu_w%d","name":"TodoWrite","input":{"todos":[%s]}}]},"uuid":"u"}`, ts, round, round, strings.Join(todos, ",")),
			fmt.Sprintf(`{"type":"user","timestamp":"%s","message":{"role":"user","content":[{"tool_use_id":"toolu_w%d","type":"tool_result","content":"Todos have been modified successfully."}]}}`, ts, round),
			fmt.Sprintf(`{"type":"assistant","timestamp":"%s","message":{"role":"assistant","content":[{"type":"tool_use","id":"toolu_b%d","name":"Bash","input":{"command":"go test ./..."}}]}}`, ts, round),
			fmt.Sprintf(`{"type":"user","timestamp":"%s","message":{"role":"user","content":[{"tool_use_id":"toolu_b%d","type":"tool_result","content":"%s"}]},"toolUseResult":{"stdout":"%s"}}`, ts, round, strings.Repeat(filler, 1+round%8), filler),
			fmt.Sprintf(`{"type":"assistant","timestamp":"%s","message":{"role":"assistant","content":[{"type":"tool_use","id":"toolu_r%d","name":"Read","input":{"file_path":"/src/main.go"}}]}}`, ts, round),
			fmt.Sprintf(`{"type":"user","timestamp":"%s","message":{"role":"user","content":[{"tool_use_id":"toolu_r%d","type":"tool_result","content":[{"type":"text","text":"%s"}]}]}}`, ts, round, filler+filler),
		}
		for _, l := range lines {
			k, _ := io.WriteString(w, l+"\n")
			n += k
		}
	}
	return n
}

// BenchmarkReplayJSON10MB is replay --json's work on a 10 MB Claude Code
// transcript: scan, each version's diff and validator problems, each record
// encoded.
func BenchmarkReplayJSON10MB(b *testing.B) {
	path := filepath.Join(b.TempDir(), "big.jsonl")
	f, _ := os.Create(path)
	size := writeBigTranscript(f, 10<<20)
	f.Close()
	b.SetBytes(int64(size))
	limits := todo.DefaultLimits()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		f, _ := os.Open(path)
		var p Parser
		var prev *Version
		var buf []byte
		versions := 0
		err := Scan(f, &p, func(e Event) {
			if e.Kind != KindVersion {
				return
			}
			v := e.Version
			buf = AppendRecord(buf[:0], v, Changes(prev, v), Problems(v.Todos, limits))
			prev = v
			versions++
		}, nil)
		f.Close()
		if err != nil || versions == 0 {
			b.Fatal(err, versions)
		}
	}
}

// TestFaultScanMemoryBounded: scanning a 10 MB transcript keeps the heap
// far below the file's size (it streams).
func TestFaultScanMemoryBounded(t *testing.T) {
	var buf bytes.Buffer
	size := writeBigTranscript(&buf, 10<<20)
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	var p Parser
	peak := uint64(0)
	n := 0
	err := Scan(bytes.NewReader(buf.Bytes()), &p, func(e Event) {
		if n++; n%20 == 0 {
			runtime.ReadMemStats(&after)
			if h := after.HeapAlloc; h > peak {
				peak = h
			}
		}
	}, nil)
	if err != nil || n < 100 {
		t.Fatalf("%v, %d events", err, n)
	}
	// The file itself (10 MB) is in the heap too: what matters is what
	// comes on top of it.
	growth := int64(peak) - int64(before.HeapAlloc)
	if growth > 4<<20 {
		t.Errorf("heap grew by %d KB while scanning a %d KB file", growth>>10, size>>10)
	}
	t.Logf("%d events; heap before %d KB, peak %d KB while scanning %d KB", n, before.HeapAlloc>>10, peak>>10, size>>10)
}

// TestWriteBigTranscript writes the benchmark's 10 MB transcript to
// $PLAN_BIG_TRANSCRIPT, for timing the whole `todo-shell replay --json`
// process (BENCHMARKS.md); without the variable it does nothing.
func TestWriteBigTranscript(t *testing.T) {
	t.Parallel()
	path := os.Getenv("PLAN_BIG_TRANSCRIPT")
	if path == "" {
		t.Skip("PLAN_BIG_TRANSCRIPT not set")
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	writeBigTranscript(f, 10<<20)
}

// BenchmarkScanReal is the plan reader on the files the real agent CLIs
// wrote (testdata): each file scanned whole, every version made. It is
// the JSON path's benchmark on real inputs (BENCHMARKS.md, "One JSON
// path").
func BenchmarkScanReal(b *testing.B) {
	for _, name := range []string{
		"claude-code-2.1.330_todowrite.jsonl",
		"claude-code-2.1.330_tasks.jsonl",
		"claude-code-2.1.330_mcp.jsonl",
		"codex-0.169.0_rollout.jsonl",
		"gemini-cli-0.61.0_session.jsonl",
		"opencode-1.18.33_export.json",
	} {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				var p Parser
				p.Playback = true
				versions := 0
				err := Scan(bytes.NewReader(data), &p, func(e Event) {
					if e.Kind == KindVersion {
						versions++
					}
				}, nil)
				if err != nil || versions == 0 {
					b.Fatal(err, versions)
				}
			}
		})
	}
}
