package hold

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/todo-shell/todo-shell/tools/todo"
)

// The claude-code-2.1.332_*.jsonl fixtures were written by the real
// Claude Code 2.1.332 (npm @anthropic-ai/claude-code) with todo-shell's
// hook configured, driven by the scripted fake API of
// internal/plan/testdata/record on loopback in a network namespace of its
// own, long prose elided (record/elide.py):
//
//   - _hook: "Write a parser"; TodoWrite of three items, then one completed,
//     "Add tests" removed while pending, "All done." (line 33): the hook
//     held the stop; then all three completed, "Now all done." (line 44):
//     the stop went through.
//   - _interrupt: as above but all three completed at once; a second prompt
//     "Now the lexer", a TodoWrite of two items, the person pressed Esc
//     ("[Request interrupted by user]"), then "never mind, what is 2+2?".

// lines returns the fixture's lines, each with its newline.
func lines(t *testing.T, name string) [][]byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return bytes.SplitAfter(b, []byte("\n"))
}

// writeLines writes ls to path (replacing it).
func writeLines(t *testing.T, path string, ls [][]byte) {
	t.Helper()
	if err := os.WriteFile(path, bytes.Join(ls, nil), 0o600); err != nil {
		t.Fatal(err)
	}
}

// appendLines appends ls to path.
func appendLines(t *testing.T, path string, ls [][]byte) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Write(bytes.Join(ls, nil)); err != nil {
		t.Fatal(err)
	}
}

// stop opens the session of src in store, asks Stop and closes it.
func stop(t *testing.T, store Store, src Source, in StopInput) Verdict {
	t.Helper()
	s, err := Open(store, src, 0, true)
	if err != nil {
		t.Fatal(err)
	}
	v := s.Stop(in)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	return v
}

// holds reports whether held has each of want (package hook's tests say
// how a reason words them).
func holds(held []Held, want ...Held) bool {
	for _, w := range want {
		if !slices.ContainsFunc(held, func(h Held) bool { return reflect.DeepEqual(h, w) }) {
			return false
		}
	}
	return true
}

// The fixture's items, as a stop is held for them.
var (
	addTestsRemoved   = Held{Item: "Add tests", Status: todo.StatusPending, How: LossRemoved}
	updateTheDocsLeft = Held{Item: "Update the docs", Status: todo.StatusInProgress}
)

// TestRealClaudeCodeStopIsHeld: at the fixture's first stop the plan has
// one item in progress and one removed while pending: the stop is held,
// the verdict names both (package hook's TestStopWording: the reason
// says them); at the second, all three are completed: it goes through.
func TestRealClaudeCodeStopIsHeld(t *testing.T) {
	t.Parallel()
	ls := lines(t, "claude-code-2.1.332_hook.jsonl")
	dir := t.TempDir()
	path := filepath.Join(dir, "session.jsonl")
	store := Store{Dir: filepath.Join(dir, "state")}
	src := Source{Transcript: path}

	writeLines(t, path, ls[:33])
	v := stop(t, store, src, StopInput{MaxBlocks: 2})
	want := []Held{addTestsRemoved, updateTheDocsLeft}
	if !reflect.DeepEqual(v.Held, want) || !v.Block || v.Blocks != 1 || v.MaxBlocks != 2 || v.Through != ThroughUnsaid {
		t.Fatalf("first stop: block %v (%d of %d, %d), held:\n%+v\nwant:\n%+v", v.Block, v.Blocks, v.MaxBlocks, v.Through, v.Held, want)
	}
	appendLines(t, path, ls[33:44])
	v = stop(t, store, src, StopInput{MaxBlocks: 2, Active: true})
	if v.Block || len(v.Held) != 0 || v.Through != ThroughUnsaid {
		t.Fatalf("second stop: %+v", v)
	}
}

// TestIncrementalIsWhole: the fixture read a piece at a time — cut at
// every byte that ends a line and in the middle of lines, the state kept
// between the pieces — holds the same plan, prompt and losses as a first
// read of the whole file, at every point.
func TestIncrementalIsWhole(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"claude-code-2.1.332_hook.jsonl", "claude-code-2.1.332_interrupt.jsonl"} {
		t.Run(name, func(t *testing.T) {
			data := bytes.Join(lines(t, name), nil)
			dir := t.TempDir()
			path := filepath.Join(dir, "s.jsonl")
			inc := Store{Dir: filepath.Join(dir, "inc")}
			// Cut points: every line end, and a few bytes into each line.
			var cuts []int
			for i, b := range data {
				if b == '\n' {
					cuts = append(cuts, i+1, min(i+8, len(data)))
				}
			}
			os.WriteFile(path, nil, 0o600)
			done := 0
			for _, c := range cuts {
				if c <= done {
					continue
				}
				appendLines(t, path, [][]byte{data[done:c]})
				done = c
				s, err := Open(inc, Source{Transcript: path}, 0, true)
				if err != nil {
					t.Fatal(err)
				}
				got := s.State()
				if err := s.Close(); err != nil {
					t.Fatal(err)
				}
				whole, err := Open(Store{Dir: filepath.Join(dir, "whole", strings.Repeat("x", c%7+1))}, Source{Transcript: path}, 0, false)
				if err != nil {
					t.Fatal(err)
				}
				want := whole.State()
				whole.Close()
				if !sameState(got, want) {
					t.Fatalf("after %d bytes: incremental %+v\nwhole %+v", c, summaryOf(got), summaryOf(want))
				}
			}
		})
	}
}

func sameState(a, b *State) bool { return summaryOf(a) == summaryOf(b) }

// summaryOf is what a state says, in a comparable form.
func summaryOf(st *State) string {
	var b strings.Builder
	list := func(l *List) {
		if l == nil {
			b.WriteString("nil;")
			return
		}
		for _, it := range l.Items {
			b.WriteString(it.Content + "=" + it.Status + ",")
		}
		b.WriteString(";")
	}
	list(st.Plan)
	list(st.Tasks)
	b.WriteString(st.Prompt.ID + ";")
	for _, l := range settled(st.Losses, st.Plan) {
		b.WriteString(l.Item + " " + l.How + ",")
	}
	if st.Interrupted {
		b.WriteString("interrupted")
	}
	return b.String()
}

// TestInterruptLetsTheStopThrough: after the person's Esc the plan of two
// unfinished items holds no stop, in the prompt after it too ("never
// mind, …"), and the verdict says why (package hook's TestStopWording:
// the note tells the person).
func TestInterruptLetsTheStopThrough(t *testing.T) {
	t.Parallel()
	ls := lines(t, "claude-code-2.1.332_interrupt.jsonl")
	dir := t.TempDir()
	path := filepath.Join(dir, "s.jsonl")
	store := Store{Dir: filepath.Join(dir, "state")}
	at := -1
	for i, l := range ls {
		if bytes.Contains(l, []byte(interruptText)) && bytes.Contains(l, []byte(`"type":"user"`)) && at < 0 {
			at = i
		}
	}
	if at < 0 {
		t.Fatal("no interrupt in the fixture")
	}
	// Just before the interrupt: the lexer plan is held.
	writeLines(t, path, ls[:at])
	s, err := Open(store, Source{Transcript: path}, 0, false)
	if err != nil {
		t.Fatal(err)
	}
	if v := s.Stop(StopInput{MaxBlocks: 2}); !v.Block || !holds(v.Held, Held{Item: "Write the lexer", Status: todo.StatusInProgress}) {
		t.Fatalf("before the interrupt: %+v", v)
	}
	s.Close()
	writeLines(t, path, ls)
	v := stop(t, Store{Dir: filepath.Join(dir, "state2")}, Source{Transcript: path}, StopInput{MaxBlocks: 2})
	if v.Block || v.Through != ThroughInterrupted || len(v.Held) != 2 {
		t.Fatalf("after the interrupt: %+v", v)
	}
}

// TestNeverLoops: a model that never finishes is held exactly MaxBlocks
// times in a prompt, then let through, the limit given as why (package
// hook's TestStopWording: the note says it); a new prompt starts the count
// again; stop_hook_active with no hold of ours in the prompt (another
// hook's doing) holds nothing, and says nothing; MaxBlocks 0 never holds.
func TestNeverLoops(t *testing.T) {
	t.Parallel()
	ls := lines(t, "claude-code-2.1.332_hook.jsonl")
	dir := t.TempDir()
	path := filepath.Join(dir, "s.jsonl")
	writeLines(t, path, ls[:33])
	src := Source{Transcript: path}
	for _, limit := range []int{1, 2, 3} {
		store := Store{Dir: filepath.Join(dir, "n", string(rune('0'+limit)))}
		for i := 0; i < limit; i++ {
			v := stop(t, store, src, StopInput{MaxBlocks: limit, Active: i > 0})
			if !v.Block || v.Blocks != i+1 {
				t.Fatalf("limit %d, stop %d: %+v", limit, i+1, v)
			}
		}
		v := stop(t, store, src, StopInput{MaxBlocks: limit, Active: true})
		if v.Block || v.Through != ThroughLimit || v.Blocks != limit || v.MaxBlocks != limit {
			t.Fatalf("limit %d, the stop after: %+v", limit, v)
		}
		// The agent's own id of a new prompt: held again.
		if v := stop(t, store, src, StopInput{MaxBlocks: limit, PromptID: "next"}); !v.Block || v.Blocks != 1 {
			t.Fatalf("limit %d, a new prompt: %+v", limit, v)
		}
	}
	store := Store{Dir: filepath.Join(dir, "active")}
	if v := stop(t, store, src, StopInput{MaxBlocks: 2, Active: true}); v.Block || v.Through != ThroughUnsaid {
		t.Fatalf("stop_hook_active with no hold of ours: %+v", v)
	}
	if v := stop(t, Store{Dir: filepath.Join(dir, "zero")}, src, StopInput{MaxBlocks: 0}); v.Block || v.Through != ThroughUnsaid {
		t.Fatalf("MaxBlocks 0: %+v", v)
	}
}
