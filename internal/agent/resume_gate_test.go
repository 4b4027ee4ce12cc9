package agent

import (
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/todo-shell/todo-shell/internal/testwait"
)

// xs yields n bytes of 'x' without holding them.
type xs struct{ n int }

func (x *xs) Read(p []byte) (int, error) {
	if x.n == 0 {
		return 0, io.EOF
	}
	k := min(len(p), x.n)
	for i := range p[:k] {
		p[i] = 'x'
	}
	x.n -= k
	return k, nil
}

// TestFaultTranscriptLongLineSkipped: a transcript line longer than the cap
// (here 300 MiB) is skipped with its line number instead of refusing the
// session, and is never held in memory.
func TestFaultTranscriptLongLineSkipped(t *testing.T) {
	first := `{"type":"request","message":{"role":"user","content":"one"}}` + "\n"
	last := "\n" + `{"type":"request","message":{"role":"user","content":"three"}}` + "\n"
	long := 300 << 20
	if testwait.Race {
		long = 128 << 20 // still twice the bound below; the pass without -race reads 300 MiB
	}
	r := io.MultiReader(strings.NewReader(first+`{"type":"request","message":{"role":"user","content":"`), &xs{n: long}, strings.NewReader(`"}}`+last))
	var warnings []string
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	msgs, err := ReadTranscript(r, func(w string) { warnings = append(warnings, w) })
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatalf("a long line refused the session: %v", err)
	}
	if len(msgs) != 2 || !strings.Contains(string(msgs[1]), "three") {
		t.Fatalf("messages %q", msgs)
	}
	if len(warnings) != 1 || warnings[0] != "transcript line 2 skipped: longer than 16 MiB" {
		t.Fatalf("warnings %q", warnings)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 64<<20 {
		t.Fatalf("reading past a %d MiB line allocated %d bytes; want it bounded by the cap", long>>20, alloc)
	}
}
