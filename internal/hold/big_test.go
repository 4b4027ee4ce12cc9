package hold

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/todo-shell/todo-shell/tools/todo"
)

// writeBig writes a Claude Code 2.1.332 transcript of at least size bytes
// to w, in the shape the real one has (records as in the fixtures): a
// first prompt, then rounds of a plan call and its result, a Bash call with
// 2–40 KB of output, a Read with 16 KB, an api-request-blob of ~130 KB and
// a prompt_snapshot attachment of ~60 KB (Claude Code keeps both for each
// request), and near the end a second prompt after which one item is
// removed while pending and the turn ends. tasks makes the plan calls the
// Task tools' (TaskCreate early, TaskUpdate after) instead of TodoWrite.
// It returns the bytes written.
func writeBig(w io.Writer, size int, tasks bool) int { return writeRounds(w, size, tasks, true) }

// writeRounds is writeBig; without start, it leaves out the start of the
// session (its first prompt, the tasks created): what a transcript gains.
func writeRounds(w io.Writer, size int, tasks, start bool) int {
	bw := bufio.NewWriterSize(w, 1<<20)
	defer bw.Flush()
	n := 0
	put := func(format string, a ...any) {
		k, _ := fmt.Fprintf(bw, format+"\n", a...)
		n += k
	}
	filler := strings.Repeat(`output line with \"quotes\" and \ttabs é `, 40)
	blob := strings.Repeat(`{\"type\":\"text\",\"text\":\"system prompt text\"},`, 2700)
	snapshot := strings.Repeat("You are an agent. ", 3400)
	prompt := func(id, text string, t int) {
		put(`{"parentUuid":null,"isSidechain":false,"promptId":"%s","type":"user","message":{"role":"user","content":"%s"},"uuid":"u-%s","timestamp":"2026-11-28T%02d:%02d:%02d.000Z","permissionMode":"default","promptSource":"sdk"}`,
			id, text, id, 9+t/3600, t/60%60, t%60)
	}
	ts := func(t int) string { return fmt.Sprintf("2026-11-28T%02d:%02d:%02d.000Z", 9+t/3600, t/60%60, t%60) }
	items := func(round, nItems int, drop int) string {
		var parts []string
		for i := 0; i < nItems; i++ {
			if i == drop {
				continue
			}
			st := "pending"
			switch {
			case i < round%nItems:
				st = "completed"
			case i == round%nItems:
				st = "in_progress"
			}
			parts = append(parts, fmt.Sprintf(`{"content":"Task %d of the plan","status":"%s","activeForm":"Doing task %d of the plan"}`, i, st, i))
		}
		return strings.Join(parts, ",")
	}
	call := func(id, name, input string, t int) {
		put(`{"parentUuid":"p","isSidechain":false,"message":{"content":[{"id":"%s","input":%s,"name":"%s","type":"tool_use"}],"id":"msg_%s","model":"claude-sonnet-4-5","role":"assistant","stop_reason":"tool_use","type":"message"},"type":"assistant","uuid":"a-%s","timestamp":"%s","cwd":"/src/app","sessionId":"s","version":"2.1.332"}`,
			id, input, name, id, id, ts(t))
	}
	result := func(id, content, extra string, t int) {
		put(`{"parentUuid":"a-%s","isSidechain":false,"promptId":"p1","type":"user","message":{"role":"user","content":[{"tool_use_id":"%s","type":"tool_result","content":"%s"}]},"uuid":"r-%s","timestamp":"%s"%s,"cwd":"/src/app","sessionId":"s","version":"2.1.332"}`,
			id, id, content, id, ts(t), extra)
	}
	const nItems = 10
	if start {
		put(`{"type":"queue-operation","operation":"enqueue","timestamp":"%s","sessionId":"s","content":"Write the app"}`, ts(0))
		prompt("p1", "Write the app", 0)
	}
	if tasks && start {
		for i := 0; i < nItems; i++ {
			id := fmt.Sprintf("toolu_c%d", i)
			call(id, "TaskCreate", fmt.Sprintf(`{"subject":"Task %d of the plan","description":"Part %d","activeForm":"Doing task %d"}`, i, i, i), 1)
			result(id, fmt.Sprintf("Task #%d created successfully: Task %d of the plan", i+1, i), fmt.Sprintf(`,"toolUseResult":{"task":{"id":"%d","subject":"Task %d of the plan"}}`, i+1, i), 1)
		}
	}
	end := size - 400<<10
	for round := 0; n < end; round++ {
		t := 2 + round
		id := fmt.Sprintf("toolu_w%d", round)
		if tasks {
			call(id, "TaskUpdate", fmt.Sprintf(`{"taskId":"%d","status":"in_progress"}`, round%nItems+1), t)
			result(id, fmt.Sprintf("Updated task #%d status", round%nItems+1), "", t)
		} else {
			call(id, "TodoWrite", `{"todos":[`+items(round, nItems, -1)+`]}`, t)
			result(id, "Todos have been modified successfully.", `,"toolUseResult":{"oldTodos":[],"newTodos":[`+items(round, nItems, -1)+`]}`, t)
		}
		put(`{"type":"api-request-blob","sessionId":"s","hash":"h%d","message":{"role":"user","content":"%s"}}`, round, blob)
		put(`{"parentUuid":"p","isSidechain":false,"attachment":{"type":"prompt_snapshot","systemPrompt":["%s"]},"type":"attachment","uuid":"at%d","timestamp":"%s"}`, snapshot, round, ts(t))
		bid := fmt.Sprintf("toolu_b%d", round)
		call(bid, "Bash", `{"command":"go test ./...","description":"Run the tests"}`, t)
		result(bid, strings.Repeat(filler, 1+round%20), `,"toolUseResult":{"stdout":"ok","stderr":"","interrupted":false}`, t)
		rid := fmt.Sprintf("toolu_r%d", round)
		call(rid, "Read", `{"file_path":"/src/app/main.go"}`, t)
		result(rid, strings.Repeat(filler, 8), "", t)
	}
	// The last prompt; one item removed while pending (a task deleted);
	// the end of the turn.
	prompt("p2", "Finish it", 5000)
	if tasks {
		call("toolu_last", "TaskUpdate", `{"taskId":"10","status":"deleted"}`, 5001)
		result("toolu_last", "Updated task #10 deleted", `,"toolUseResult":{"success":true,"taskId":"10","updatedFields":["deleted"],"statusChange":{"from":"pending","to":"deleted"}}`, 5001)
	} else {
		call("toolu_last", "TodoWrite", `{"todos":[`+items(1, nItems, nItems-1)+`]}`, 5001)
		result("toolu_last", "Todos have been modified successfully.", "", 5001)
	}
	put(`{"parentUuid":"p","isSidechain":false,"message":{"content":[{"text":"All done.","type":"text"}],"role":"assistant","type":"message"},"type":"assistant","uuid":"done","timestamp":"%s"}`, ts(5002))
	return n
}

// bigFile writes a transcript of size bytes in a temporary directory.
func bigFile(tb testing.TB, size int, tasks bool) string {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "big.jsonl")
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	writeBig(f, size, tasks)
	if err := f.Close(); err != nil {
		tb.Fatal(err)
	}
	return path
}

// TestColdReadOfALongTranscript: a transcript first seen long is read
// from its end back to the last prompt and the plan before it (TodoWrite),
// or back to its start (the Task tools, whose list is built call by call),
// and says what reading all of it says: the item removed since the last
// prompt and the ones still to do. Appending to it then reads only what
// was appended.
func TestColdReadOfALongTranscript(t *testing.T) {
	t.Parallel()
	for _, tasks := range []bool{false, true} {
		t.Run(map[bool]string{false: "TodoWrite", true: "Task tools"}[tasks], func(t *testing.T) {
			path := bigFile(t, 12<<20, tasks)
			store := Store{Dir: t.TempDir()}
			s, err := Open(store, Source{Transcript: path}, 0, true)
			if err != nil {
				t.Fatal(err)
			}
			st := s.State()
			// The whole file, read forward from its start.
			whole := &State{V: stateVersion, Transcript: path}
			r := newReader(whole, false)
			f, _ := os.Open(path)
			forEachLine(f, 0, 1<<40, r.line)
			f.Close()
			if summaryOf(st) != summaryOf(whole) {
				t.Fatalf("cold read:\n%s\nwhole file:\n%s", summaryOf(st), summaryOf(whole))
			}
			if tasks && st.Start > 1000 || !tasks && st.Start < 1<<20 {
				t.Errorf("started reading at %d", st.Start)
			}
			v := s.Stop(StopInput{MaxBlocks: 2})
			s.Close()
			want := Held{Item: "Task 9 of the plan", Status: todo.StatusPending, How: LossRemoved}
			if tasks {
				want = Held{Item: "Task 9 of the plan", ID: "10", Task: true, Status: todo.StatusInProgress, How: LossRemoved}
			}
			if !v.Block || !holds(v.Held, want) {
				t.Fatalf("held:\n%+v\nwant %+v", v.Held, want)
			}
			size := st.Offset
			f, _ = os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
			fmt.Fprintf(f, `{"parentUuid":null,"isSidechain":false,"promptId":"p3","type":"user","message":{"role":"user","content":"And now?"},"uuid":"u3","timestamp":"2026-11-28T11:00:00.000Z"}`+"\n")
			f.Close()
			s, err = Open(store, Source{Transcript: path}, 0, true)
			if err != nil {
				t.Fatal(err)
			}
			if got := s.State(); got.Prompt.ID != "p3" || got.Prompt.Offset != size || len(got.Losses) != 0 {
				t.Fatalf("after the append: prompt %+v, losses %v", got.Prompt, got.Losses)
			}
			s.Close()
		})
	}
}

// TestBudgetedRead: with a budget smaller than the transcript and no
// state, a reader that finds the last prompt and the plan before it in the
// last bytes has read all it needs (TodoWrite); one that would need the
// start (the Task tools) sees the task list in Claude Code's task files,
// keeps no state, and stays within its budget either way.
func TestBudgetedRead(t *testing.T) {
	t.Parallel()
	path := bigFile(t, 12<<20, false)
	s, err := Open(Store{Dir: t.TempDir()}, Source{Transcript: path}, 1<<20, false)
	if err != nil {
		t.Fatal(err)
	}
	if v := s.View(); len(v.Items) != 9 || s.Partial || v.Dropped != 1 {
		t.Fatalf("TodoWrite: view %d items, dropped %d, partial %v", len(v.Items), v.Dropped, s.Partial)
	}
	if st := s.State(); st.Offset-st.Start > 1<<20 {
		t.Fatalf("read %d bytes", st.Offset-st.Start)
	}
	s.Close()

	path = bigFile(t, 12<<20, true)
	taskDir := t.TempDir()
	for i := 1; i <= 3; i++ {
		status := map[bool]string{true: "completed", false: "pending"}[i == 1]
		os.WriteFile(filepath.Join(taskDir, fmt.Sprintf("%d.json", i)), []byte(fmt.Sprintf(`{"id":"%d","subject":"Task %d","activeForm":"Doing %d","status":"%s","blocks":[],"blockedBy":[]}`, i, i, i, status)), 0o600)
	}
	store := Store{Dir: t.TempDir()}
	s, err = Open(store, Source{Transcript: path, TaskDir: taskDir}, 1<<20, true)
	if err != nil {
		t.Fatal(err)
	}
	v := s.View()
	if !s.Partial || len(v.Items) != 3 || v.Items[0].Content != "#1 Task 1" {
		t.Fatalf("Task tools: partial %v, view %+v", s.Partial, v)
	}
	if st := s.State(); st.Offset-st.Start > 1<<20 {
		t.Fatalf("read %d bytes", st.Offset-st.Start)
	}
	s.Close()
	if _, err := os.Stat(store.Path(path)); err == nil {
		t.Fatal("a partial read kept its state")
	}
}

// BenchmarkHookCold100MB: the hook's read of a 100 MB transcript it has
// never seen (no state).
func BenchmarkHookCold100MB(b *testing.B) {
	for _, tasks := range []bool{false, true} {
		b.Run(map[bool]string{false: "TodoWrite", true: "Tasks"}[tasks], func(b *testing.B) {
			path := bigFile(b, 100<<20, tasks)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				s, err := Open(Store{Dir: b.TempDir()}, Source{Transcript: path}, 0, true)
				if err != nil {
					b.Fatal(err)
				}
				s.Stop(StopInput{MaxBlocks: 2})
				s.Close()
			}
		})
	}
}

// BenchmarkHookAppend100MB: the hook's read of a 100 MB transcript after
// an append of one round (~200 KB), its state kept from the read before.
func BenchmarkHookAppend100MB(b *testing.B) {
	for _, tasks := range []bool{false, true} {
		b.Run(map[bool]string{false: "TodoWrite", true: "Tasks"}[tasks], func(b *testing.B) { benchAppend(b, tasks) })
	}
}

func benchAppend(b *testing.B, tasks bool) {
	path := bigFile(b, 100<<20, tasks)
	store := Store{Dir: b.TempDir()}
	s, _ := Open(store, Source{Transcript: path}, 0, true)
	s.Close()
	var round strings.Builder
	writeRounds(&round, 410<<10, tasks, false)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
		io.WriteString(f, round.String())
		f.Close()
		b.StartTimer()
		s, err := Open(store, Source{Transcript: path}, 0, true)
		if err != nil {
			b.Fatal(err)
		}
		s.Stop(StopInput{MaxBlocks: 2})
		s.Close()
	}
}

// TestWriteBigTranscript writes a transcript of $HOLD_BIG_SIZE MB (100 by
// default) to $HOLD_BIG_TRANSCRIPT, the Task tools' when $HOLD_BIG_TASKS is
// set, and one more round of it to $HOLD_BIG_TRANSCRIPT.round (what an
// append adds): for timing the whole `todo-shell hook` and `statusline`
// (docs/BENCHMARKS.md).
func TestWriteBigTranscript(t *testing.T) {
	t.Parallel()
	path := os.Getenv("HOLD_BIG_TRANSCRIPT")
	if path == "" {
		t.Skip("HOLD_BIG_TRANSCRIPT not set")
	}
	size := 100
	if s := os.Getenv("HOLD_BIG_SIZE"); s != "" {
		fmt.Sscan(s, &size)
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	writeBig(f, size<<20, os.Getenv("HOLD_BIG_TASKS") != "")
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if os.Getenv("HOLD_BIG_TASKS") != "" {
		// Claude Code's task files of the list: tasks 1 to 9 in
		// progress (10 was deleted).
		dir := path + ".tasks"
		os.MkdirAll(dir, 0o700)
		for i := 1; i <= 9; i++ {
			os.WriteFile(filepath.Join(dir, fmt.Sprintf("%d.json", i)), []byte(fmt.Sprintf(
				`{"id":"%d","subject":"Task %d of the plan","description":"Part %d","activeForm":"Doing task %d","status":"in_progress","blocks":[],"blockedBy":[]}`, i, i-1, i-1, i-1)), 0o600)
		}
	}
	var round strings.Builder
	writeRounds(&round, 410<<10, os.Getenv("HOLD_BIG_TASKS") != "", false) // one round and the end of a turn
	if err := os.WriteFile(path+".round", []byte(round.String()), 0o600); err != nil {
		t.Fatal(err)
	}
}
