package plan

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/todo-shell/todo-shell/tools/todo"
)

// versions reads a fixture and returns its plan versions.
func versions(t *testing.T, name string) ([]*Version, *Parser) {
	t.Helper()
	f, err := os.Open("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var p Parser
	var vs []*Version
	if err := Scan(f, &p, func(e Event) {
		if e.Kind == KindVersion {
			vs = append(vs, e.Version)
		}
	}, nil); err != nil {
		t.Fatal(err)
	}
	return vs, &p
}

func statuses(list []todo.Item) string {
	var b strings.Builder
	for _, it := range list {
		b.WriteString(it.Status[:1])
	}
	return b.String()
}

func TestFixtures(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		file     string
		format   Format
		statuses []string // per version: first letter of each status
	}{
		{"claude_1x.jsonl", FormatClaudeTranscript, []string{"ipp", "cip", "ccc"}},
		{"claude_dropped.jsonl", FormatClaudeTranscript, []string{"ippp", "ciip", "ccc"}},
		{"claude_tasks.jsonl", FormatClaudeTranscript, []string{"p", "pp", "ppp", "ipp", "cpp", "cip", "ci", "cc"}},
		{"shell_transcript.jsonl", FormatShellTranscript, []string{"ip", "ci", "cc"}},
		// Written by the real agent loop (agent.Agent against the fake
		// API of agent's tests): a write with two in progress was rejected
		// (is_error) and is no version; the last write drops an item.
		{"agent_transcript.jsonl", FormatShellTranscript, []string{"ip", "c"}},
		{"todos.jsonl", FormatTodosJSONL, []string{"ip", "ci"}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			vs, p := versions(t, tc.file)
			if p.Format() != tc.format {
				t.Errorf("format %v, want %v", p.Format(), tc.format)
			}
			var got []string
			for i, v := range vs {
				got = append(got, statuses(v.Todos))
				if v.N != i+1 {
					t.Errorf("version %d numbered %d", i+1, v.N)
				}
				if v.Time.IsZero() || v.ToolUseID == "" {
					t.Errorf("version %d lacks time or tool_use_id: %+v", i+1, v)
				}
			}
			if strings.Join(got, " ") != strings.Join(tc.statuses, " ") {
				t.Errorf("statuses %q, want %q", got, tc.statuses)
			}
		})
	}
}

func TestOneXShapeUsesContentForActiveForm(t *testing.T) {
	t.Parallel()
	vs, _ := versions(t, "claude_1x.jsonl")
	it := vs[0].Todos[0]
	if it.ActiveForm != "Read the report handler" || it.Status != todo.StatusInProgress {
		t.Fatalf("item %+v", it)
	}
	if p := Problems(vs[0].Todos, todo.DefaultLimits()); p != nil {
		t.Errorf("1.x list has problems %q (id and priority must not count)", p)
	}
}

func TestTasks(t *testing.T) {
	t.Parallel()
	vs, _ := versions(t, "claude_tasks.jsonl")
	last := vs[len(vs)-1].Todos
	if len(last) != 2 || last[1].Content != "Draft the release notes" || last[1].ActiveForm != "Drafting the notes" {
		t.Fatalf("last %+v", last)
	}
	// Task 3 had no activeForm: its subject stands in.
	if it := vs[2].Todos[2]; it.ActiveForm != "Post to the forum" {
		t.Errorf("task 3 %+v", it)
	}
	c := Diff(vs[5].Todos, vs[6].Todos)
	if len(c.Dropped) != 1 || c.Dropped[0] != "Post to the forum" {
		t.Errorf("deleting a pending task: %+v", c)
	}
}

func TestDiffAndProblems(t *testing.T) {
	t.Parallel()
	vs, _ := versions(t, "claude_dropped.jsonl")
	c := Diff(vs[1].Todos, vs[2].Todos)
	if strings.Join(c.Dropped, "|") != "Run the suite 50 times" || strings.Join(c.Completed, "|") != "Find the race|Fix the race" {
		t.Errorf("change %+v", c)
	}
	c = Diff(nil, vs[0].Todos)
	if len(c.Added) != 4 || len(c.Started) != 1 || c.Dropped != nil {
		t.Errorf("first change %+v", c)
	}
	p := Problems(vs[1].Todos, todo.DefaultLimits())
	if len(p) != 1 || !strings.Contains(p[0], "Only one todo can be in_progress") {
		t.Errorf("problems %q", p)
	}
	p = Problems([]todo.Item{{Content: " ", Status: "done", ActiveForm: "x"}}, todo.DefaultLimits())
	if len(p) != 2 {
		t.Errorf("problems %q", p)
	}
}

func TestRejectedWriteIsNoVersion(t *testing.T) {
	t.Parallel()
	vs, _ := versions(t, "claude_dropped.jsonl")
	for _, v := range vs {
		if v.ToolUseID == "toolu_02D" {
			t.Fatal("a TodoWrite whose result is an error became a version")
		}
	}
}

func TestBadLinesNamed(t *testing.T) {
	t.Parallel()
	f, _ := os.Open("testdata/bad_line.jsonl")
	defer f.Close()
	var p Parser
	var errs []string
	n := 0
	Scan(f, &p, func(e Event) { n++ }, func(err error) { errs = append(errs, err.Error()) })
	if len(errs) != 1 || !strings.HasPrefix(errs[0], "line 2: not a JSON record") || n != 2 {
		t.Fatalf("errors %q, %d versions", errs, n)
	}
	f2, _ := os.Open("testdata/not_a_transcript.txt")
	defer f2.Close()
	var q Parser
	if err := Scan(f2, &q, func(Event) {}, nil); err == nil || !strings.HasPrefix(err.Error(), "line 1:") {
		t.Fatalf("err %v", err)
	}
}

func TestFlushCompletesCutOffCall(t *testing.T) {
	t.Parallel()
	var p Parser
	var vs []*Version
	emit := func(e Event) {
		if e.Kind == KindVersion {
			vs = append(vs, e.Version)
		}
	}
	p.Feed([]byte(`{"type":"assistant","message":{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"TodoWrite","input":{"todos":[{"content":"a","status":"pending","activeForm":"A"}]}}]}}`), emit)
	if len(vs) != 0 {
		t.Fatal("version before its result")
	}
	p.Flush(emit)
	if len(vs) != 1 || vs[0].Todos[0].ActiveForm != "A" {
		t.Fatalf("%+v", vs)
	}
}

func TestPlaybackEvents(t *testing.T) {
	t.Parallel()
	f, _ := os.Open("testdata/shell_transcript.jsonl")
	defer f.Close()
	p := Parser{Playback: true}
	var got []string
	Scan(f, &p, func(e Event) {
		switch e.Kind {
		case KindText:
			got = append(got, "text:"+e.Text)
		case KindCall:
			got = append(got, e.Text+"("+e.Detail+")")
		case KindVersion:
			got = append(got, "v")
		}
	}, nil)
	want := "text:Planning. TodoWrite(2 todos) v Bash(make build) TodoWrite(2 todos) v TodoWrite(2 todos) v text:The build is green."
	if strings.Join(got, " ") != want {
		t.Errorf("events\n%s\nwant\n%s", strings.Join(got, " "), want)
	}
}

// TestPlaybackFailedCall: a plan tool's call that failed is a KindFailed
// event at its result, with the call's name and detail and the reason;
// it makes no version.
func TestPlaybackFailedCall(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ file, want string }{
		{"claude-code-2.1.330_tasks.jsonl", "TaskUpdate(#9 completed): Task not found"},
		{"claude-code-2.1.330_todowrite.jsonl", ""},
	} {
		f, _ := os.Open("testdata/" + tc.file)
		p := Parser{Playback: true}
		var got []string
		Scan(f, &p, func(e Event) {
			switch e.Kind {
			case KindFailed:
				got = append(got, e.Text+"("+e.Detail+"): "+e.Reason)
			}
		}, nil)
		f.Close()
		if strings.Join(got, "; ") != tc.want {
			t.Errorf("%s: failed calls %q, want %q", tc.file, got, tc.want)
		}
	}
}

func TestAppendRecord(t *testing.T) {
	t.Parallel()
	vs, _ := versions(t, "todos.jsonl")
	got := string(AppendRecord(nil, vs[1], Diff(vs[0].Todos, vs[1].Todos), nil))
	want := `{"version":2,"time":"2026-11-20T09:03:00Z","tool_use_id":"toolu_05B","todos":[{"content":"Write the parser","status":"completed","activeForm":"Writing the parser"},{"content":"Add tests","status":"in_progress","activeForm":"Adding tests"}],"added":[],"started":["Add tests"],"completed":["Write the parser"],"dropped":[],"problems":[]}`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestRenamedTaskIsNotDropped: a TaskUpdate that changes a task's subject
// keeps the task (matched by id), so it is not "dropped" and "added".
func TestRenamedTaskIsNotDropped(t *testing.T) {
	t.Parallel()
	vs, _ := versions(t, "claude_tasks.jsonl")
	c := Changes(vs[6], vs[7])
	if c.Dropped != nil || c.Added != nil || strings.Join(c.Completed, "|") != "Draft the release notes" {
		t.Errorf("rename: %+v", c)
	}
	// 1.x lists are matched by their ids.
	ones, _ := versions(t, "claude_1x.jsonl")
	if ones[0].Keys == nil || ones[0].Keys[2] != "id:3" {
		t.Errorf("1.x keys %q", ones[0].Keys)
	}
	// Without keys (todos.jsonl), by content.
	plain, _ := versions(t, "todos.jsonl")
	if plain[0].Keys != nil || Changes(nil, plain[0]).Added == nil {
		t.Errorf("todos.jsonl: %+v", plain[0])
	}
}

// TestFeedKeepsNoByteOfTheLine feeds every fixture from one buffer that is
// scribbled over after each line, as a reader reusing its buffer does: the
// events are those of lines fed each in a copy of their own (Feed reads a
// line in place, and must copy out what it keeps).
func TestFeedKeepsNoByteOfTheLine(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob("testdata/*.json*")
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		lines := bytes.Split(data, []byte("\n"))
		if strings.HasSuffix(name, ".json") {
			lines = [][]byte{bytes.ReplaceAll(data, []byte("\n"), []byte(" "))}
		}
		run := func(reuse bool) []Event {
			p := Parser{Playback: true}
			var events []Event
			emit := func(e Event) { events = append(events, e) }
			buf := make([]byte, 0, 1<<16)
			for _, l := range lines {
				in := append([]byte(nil), l...)
				if reuse {
					buf = append(buf[:0], l...)
					in = buf
				}
				_ = p.Feed(in, emit)
				for i := range buf[:cap(buf)] {
					buf[:cap(buf)][i] = 'x'
				}
			}
			p.Flush(emit)
			return events
		}
		want, got := run(false), run(true)
		if len(want) == 0 {
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: events of lines read from a reused buffer differ from those of lines each in their own copy", name)
		}
	}
}
