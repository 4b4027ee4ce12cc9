package plan

import (
	"bytes"
	"os"
	"testing"
)

// TestResumeAtEveryQuietLine: a transcript read up to any line where no
// plan call waits for its result, then by a new Parser seeded with the
// first one's task list, gives the versions one Parser gives reading it
// all (the Stop hook reads a transcript a piece at a time this way).
func TestResumeAtEveryQuietLine(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"claude-code-2.1.330_tasks.jsonl", "claude-code-2.1.330_todowrite.jsonl", "claude_tasks.jsonl", "claude_dropped.jsonl"} {
		t.Run(name, func(t *testing.T) {
			whole, _ := versions(t, name)
			data, err := os.ReadFile("testdata/" + name)
			if err != nil {
				t.Fatal(err)
			}
			lines := bytes.SplitAfter(data, []byte("\n"))
			quiet := 0
			for cut := 0; cut <= len(lines); cut++ {
				var first Parser
				var got []*Version
				emit := func(e Event) {
					if e.Kind == KindVersion {
						got = append(got, e.Version)
					}
				}
				for _, l := range lines[:cut] {
					first.Feed(l, emit)
				}
				if first.Waiting() {
					continue
				}
				quiet++
				var second Parser
				second.SeedTasks(first.TaskList())
				for _, l := range lines[cut:] {
					second.Feed(l, emit)
				}
				second.Flush(emit)
				if len(got) != len(whole) {
					t.Fatalf("cut at line %d: %d versions, want %d", cut, len(got), len(whole))
				}
				for i := range got {
					if !SameList(got[i], whole[i]) {
						t.Fatalf("cut at line %d: version %d is %v, want %v", cut, i+1, got[i].Todos, whole[i].Todos)
					}
				}
			}
			if quiet < 3 {
				t.Fatalf("only %d quiet lines", quiet)
			}
		})
	}
}

// TestSidechainsAreTheSubagentsPlan: a sub-agent's own transcript is
// skipped by default and read when Sidechains is set.
func TestSidechainsAreTheSubagentsPlan(t *testing.T) {
	t.Parallel()
	rec := `{"isSidechain":true,"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"TodoWrite","input":{"todos":[{"content":"Look around","status":"in_progress","activeForm":"Looking around"}]}}]}}
{"isSidechain":true,"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"ok"}]}}
`
	for _, side := range []bool{false, true} {
		p := Parser{Sidechains: side}
		n := 0
		if err := Scan(bytes.NewReader([]byte(rec)), &p, func(e Event) {
			if e.Kind == KindVersion {
				n++
			}
		}, nil); err != nil {
			t.Fatal(err)
		}
		if want := map[bool]int{false: 0, true: 1}[side]; n != want {
			t.Errorf("Sidechains %v: %d versions, want %d", side, n, want)
		}
	}
}
