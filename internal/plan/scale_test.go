package plan

import (
	"io"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/todo-shell/todo-shell/internal/testwait"
)

// reverseTranscript is a Claude Code transcript of n TodoWrite calls whose
// results come back in reverse order.
func reverseTranscript(n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(`{"type":"assistant","timestamp":"2026-01-01T00:00:00Z","message":{"role":"assistant","content":[{"type":"tool_use","id":"c` + strconv.Itoa(i) + `","name":"TodoWrite","input":{"todos":[{"content":"a","status":"pending","activeForm":"a"}]}}]}}` + "\n")
	}
	for i := n - 1; i >= 0; i-- {
		b.WriteString(`{"type":"user","timestamp":"2026-01-01T00:00:01Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"c` + strconv.Itoa(i) + `","content":"ok"}]}}` + "\n")
	}
	return b.String()
}

// scanTime is the least of five scans of in.
func scanTime(t *testing.T, in string) (time.Duration, int) {
	best, versions := time.Duration(1<<62), 0
	for range 5 {
		var p Parser
		versions = 0
		start := time.Now()
		if err := Scan(strings.NewReader(in), &p, func(e Event) {
			if e.Kind == KindVersion {
				versions++
			}
		}, nil); err != nil {
			t.Fatal(err)
		}
		best = min(best, time.Since(start))
	}
	return best, versions
}

// TestFaultReverseResultsAreLinear: matching tool results to their calls
// costs the same per call however many wait: eight times the calls take
// about eight times as long, not 64 (a relative bound, not a clock one,
// loose enough for a busy machine).
func TestFaultReverseResultsAreLinear(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("scans 100 000 calls")
	}
	n := 4000
	if testwait.Race {
		n /= 4 // the ratio is the same; the pass without -race runs 4,000 and 32,000
	}
	small, nSmall := scanTime(t, reverseTranscript(n))
	large, nLarge := scanTime(t, reverseTranscript(8*n))
	if nSmall != n || nLarge != 8*n {
		t.Fatalf("versions %d, %d", nSmall, nLarge)
	}
	if ratio := float64(large) / float64(small); ratio > 40 {
		t.Fatalf("8x the pending calls took %.1fx as long (%v, %v): matching is not linear", ratio, small, large)
	}
}

// TestResultsMatchTheirCalls: results in any order, a repeated id and a call
// never answered: each version is the call its result answers, in the
// order the results come; Flush completes the rest in call order.
func TestResultsMatchTheirCalls(t *testing.T) {
	t.Parallel()
	call := func(id, content string) string {
		return `{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"` + id + `","name":"TodoWrite","input":{"todos":[{"content":"` + content + `","status":"pending"}]}}]}}` + "\n"
	}
	result := func(id string) string {
		return `{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"` + id + `","content":"ok"}]}}` + "\n"
	}
	in := call("a", "A") + call("b", "B") + call("a", "A2") + call("c", "C") + call("d", "D") +
		result("c") + result("a") + result("a") + result("zz") + result("b")
	var p Parser
	var got []string
	if err := Scan(strings.NewReader(in), &p, func(e Event) {
		if e.Kind == KindVersion {
			got = append(got, e.Version.Todos[0].Content)
		}
	}, nil); err != nil {
		t.Fatal(err)
	}
	if want := "C A A2 B D"; strings.Join(got, " ") != want {
		t.Fatalf("versions %q, want %q", strings.Join(got, " "), want)
	}
}

// TestFaultLongLineIsSkippedWithItsNumber: a line over the cap is reported
// as a bad line with its number, the lines after it keep their numbers, and
// memory stays bounded by the cap, not the line.
func TestFaultLongLineIsSkippedWithItsNumber(t *testing.T) {
	first := `{"version":1,"todos":[{"content":"a","status":"pending","activeForm":"a"}]}` + "\n"
	last := `{"version":3,"todos":[{"content":"c","status":"pending","activeForm":"c"}]}` + "\n"
	r := io.MultiReader(strings.NewReader(first), &xs{n: 64 << 20}, strings.NewReader("\n"+last))
	var p Parser
	var lines []int
	var bad []string
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	err := Scan(r, &p, func(e Event) {
		if e.Kind == KindVersion {
			lines = append(lines, e.Version.Line)
		}
	}, func(err error) { bad = append(bad, err.Error()) })
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if len(lines) != 2 || lines[0] != 1 || lines[1] != 3 {
		t.Fatalf("versions at lines %v, want 1 and 3", lines)
	}
	if len(bad) != 1 || !strings.HasPrefix(bad[0], "line 2: longer than") {
		t.Fatalf("bad lines %q, want line 2 named", bad)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 40<<20 {
		t.Fatalf("scanning a 64 MiB line allocated %d bytes; want it bounded by the cap", alloc)
	}
}

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

func BenchmarkReverseResults(b *testing.B) {
	in := reverseTranscript(80000)
	b.ResetTimer()
	for range b.N {
		var p Parser
		if err := Scan(strings.NewReader(in), &p, func(Event) {}, nil); err != nil {
			b.Fatal(err)
		}
	}
}
