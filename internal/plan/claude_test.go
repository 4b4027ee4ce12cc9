package plan

import (
	"strconv"
	"strings"
	"testing"

	"github.com/todo-shell/todo-shell/tools/todo"
)

// The claude-code-2.1.330_*.jsonl fixtures were written by the real Claude
// Code 2.1.330 (npm @anthropic-ai/claude-code) driven by the scripted fake
// API in testdata/record, with long prose elided (testdata/record/elide.py).

func TestClaudeCode2_1_330Tasks(t *testing.T) {
	t.Parallel()
	vs, p := versions(t, "claude-code-2.1.330_tasks.jsonl")
	want := []struct {
		statuses, id string
		change       string // what Changes reports, in short
	}{
		{"p", "toolu_0002_1", "+Write the parser"},
		{"pp", "toolu_0002_2", "+Write tests"},
		{"ppp", "toolu_0002_3", "+Update the docs"},
		{"ipp", "toolu_0003_0", ">Write the parser note:#1 owner main"},
		{"ipp", "toolu_0003_1", "note:#2 blocked by #1"},
		// Results of message 4 were written 2, 3, 1; applied 1, 2, 3.
		{"cpp", "toolu_0004_0", "✓Write the parser"},
		{"cip", "toolu_0004_1", ">Write tests"},
		{"cii", "toolu_0004_2", ">Update the docs"},
		{"cii", "toolu_0005_0", "~Write tests→Write unit tests"},
		// toolu_0005_1 (TaskUpdate of task 9: "Task not found",
		// success:false, no is_error) is no version.
		{"ci", "toolu_0006_0", "!Update the docs"},
		{"cc", "toolu_0006_1", "✓Write unit tests note:#2 description changed"},
	}
	if len(vs) != len(want) {
		for _, v := range vs {
			t.Logf("v%d %s %s", v.N, statuses(v.Todos), v.ToolUseID)
		}
		t.Fatalf("%d versions, want %d", len(vs), len(want))
	}
	var prev *Version
	for i, v := range vs {
		w := want[i]
		if got := statuses(v.Todos); got != w.statuses || v.ToolUseID != w.id {
			t.Errorf("v%d: %s %s, want %s %s", v.N, got, v.ToolUseID, w.statuses, w.id)
		}
		if got := short(Changes(prev, v)); got != w.change {
			t.Errorf("v%d change %q, want %q", v.N, got, w.change)
		}
		if !v.Tasks || Check(v, todo.DefaultLimits()) != nil {
			t.Errorf("v%d: a task list with problems %q", v.N, Check(v, todo.DefaultLimits()))
		}
		prev = v
	}
	last := vs[len(vs)-1]
	if in := last.Info[0]; in.Owner != "main" || strings.Join(in.Blocks, ",") != "2" {
		t.Errorf("task 1 %+v", in)
	}
	if in := last.Info[1]; in.Description != "Table-driven tests" || strings.Join(in.BlockedBy, ",") != "1" {
		t.Errorf("task 2 %+v", in)
	}
	d := Display(vs[4])
	if d[1].Content != "#2 Write tests · blocked by #1" || d[0].ActiveForm != "#1 Writing the parser · @main" {
		t.Errorf("display %q %q", d[1].Content, d[0].ActiveForm)
	}
	if Display(vs[6])[1].Content != "#2 Write tests" {
		t.Errorf("a completed blocker still shown: %q", Display(vs[6])[1].Content)
	}
	if p.KeepsNoPlan() {
		t.Error("a Task session keeps no plan?")
	}
}

func TestClaudeCode2_1_330TodoWrite(t *testing.T) {
	t.Parallel()
	vs, _ := versions(t, "claude-code-2.1.330_todowrite.jsonl")
	got := []string{}
	var prev *Version
	for _, v := range vs {
		got = append(got, statuses(v.Todos)+" "+short(Changes(prev, v)))
		prev = v
	}
	want := []string{
		"ipp +Write the parser +Write tests +Update the docs >Write the parser",
		// No ids: "Write tests" is matched to "Write unit tests" by its words.
		"cii ~Write tests→Write unit tests >Write unit tests >Update the docs ✓Write the parser",
		"cc ✓Write unit tests !Update the docs",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("versions\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// TodoWrite's own rules still apply to TodoWrite lists.
	if p := Check(vs[1], todo.DefaultLimits()); len(p) != 1 || !strings.Contains(p[0], "Only one todo") {
		t.Errorf("problems %q", p)
	}
}

func TestClaudeCode2_1_330MCP(t *testing.T) {
	t.Parallel()
	vs, p := versions(t, "claude-code-2.1.330_mcp.jsonl")
	if len(vs) != 2 || statuses(vs[0].Todos) != "ip" || statuses(vs[1].Todos) != "ci" {
		t.Fatalf("%d versions", len(vs))
	}
	if p.MCPTool() != "mcp__todo-shell__TodoWrite" || p.KeepsNoPlan() {
		t.Errorf("mcp tool %q, keeps no plan %v", p.MCPTool(), p.KeepsNoPlan())
	}
}

func TestClaudeCode2_1_330DefaultKeepsNoPlan(t *testing.T) {
	t.Parallel()
	vs, p := versions(t, "claude-code-2.1.330_default.jsonl")
	if len(vs) != 0 || !p.KeepsNoPlan() {
		t.Errorf("%d versions, keeps no plan %v", len(vs), p.KeepsNoPlan())
	}
	// An older transcript that does not list its tools does not say.
	_, old := versions(t, "claude_1x.jsonl")
	if old.KeepsNoPlan() {
		t.Error("a 1.x transcript keeps no plan?")
	}
}

// TestSubagentIgnored: a sub-agent's transcript (subagents/agent-*.jsonl,
// every record isSidechain) holds no plan change; its records are skipped
// even when they call a plan tool.
func TestSubagentIgnored(t *testing.T) {
	t.Parallel()
	vs, p := versions(t, "claude-code-2.1.330_subagent.jsonl")
	if len(vs) != 0 || p.Records() == 0 {
		t.Errorf("%d versions from %d records", len(vs), p.Records())
	}
	var q Parser
	n := 0
	emit := func(e Event) { n++ }
	q.Feed([]byte(`{"type":"assistant","isSidechain":true,"message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"TodoWrite","input":{"todos":[{"content":"a","status":"pending","activeForm":"A"}]}}]}}`), emit)
	q.Feed([]byte(`{"type":"user","isSidechain":true,"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"ok"}]}}`), emit)
	q.Flush(emit)
	if n != 0 {
		t.Errorf("a sidechain call made %d events", n)
	}
}

func TestCallsApplyInToolUseOrder(t *testing.T) {
	t.Parallel()
	lines := []string{
		`{"type":"assistant","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"a","name":"TodoWrite","input":{"todos":[{"content":"one","status":"pending","activeForm":"One"}]}}]}}`,
		`{"type":"assistant","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"b","name":"TodoWrite","input":{"todos":[{"content":"two","status":"pending","activeForm":"Two"}]}}]}}`,
		`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"b","content":"ok"}]}}`,
		`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"a","content":"ok"}]}}`,
		// A call whose result has not come holds back the calls after it
		// in its message, not the next message; at the end it counts.
		`{"type":"assistant","message":{"id":"m2","role":"assistant","content":[{"type":"tool_use","id":"c","name":"TodoWrite","input":{"todos":[]}},{"type":"tool_use","id":"d","name":"TodoWrite","input":{"todos":[{"content":"four","status":"pending","activeForm":"Four"}]}}]}}`,
		`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"d","content":"ok"}]}}`,
		`{"type":"assistant","message":{"id":"m3","role":"assistant","content":[{"type":"text","text":"done"}]}}`,
	}
	var p Parser
	var ids []string
	for _, l := range lines {
		p.Feed([]byte(l), func(e Event) { ids = append(ids, e.Version.ToolUseID) })
	}
	p.Flush(func(e Event) { ids = append(ids, e.Version.ToolUseID) })
	if strings.Join(ids, " ") != "a b c d" {
		t.Errorf("versions from %q, want a b c d", ids)
	}
}

// short is a Change in one line: +added >started ✓completed !dropped
// ~from→to note:….
func short(c Change) string {
	var f []string
	for _, s := range c.Added {
		f = append(f, "+"+s)
	}
	for _, r := range c.Renamed {
		f = append(f, "~"+r.From+"→"+r.To)
	}
	for _, s := range c.Started {
		f = append(f, ">"+s)
	}
	for _, s := range c.Completed {
		f = append(f, "✓"+s)
	}
	for _, s := range c.Dropped {
		f = append(f, "!"+s)
	}
	for _, s := range c.Notes {
		f = append(f, "note:"+s)
	}
	return strings.Join(f, " ")
}

// reversedResults is one assistant message of n TodoWrite calls whose
// results come in the reverse order.
func reversedResults(n int) [][]byte {
	var lines [][]byte
	for i := 0; i < n; i++ {
		lines = append(lines, []byte(`{"type":"assistant","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"t`+strconv.Itoa(i)+`","name":"TodoWrite","input":{"todos":[{"content":"a","status":"pending","activeForm":"A"}]}}]}}`))
	}
	for i := n - 1; i >= 0; i-- {
		lines = append(lines, []byte(`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t`+strconv.Itoa(i)+`","content":"ok"}]}}`))
	}
	return lines
}

// TestReversedResultsInOrder: results in reverse order are applied in call
// order, each found by a map lookup.
func TestReversedResultsInOrder(t *testing.T) {
	t.Parallel()
	var p Parser
	var ids []string
	for _, l := range reversedResults(2000) {
		p.Feed(l, func(e Event) { ids = append(ids, e.Version.ToolUseID) })
	}
	if len(ids) != 2000 || ids[0] != "t0" || ids[1999] != "t1999" || len(p.queues) != 0 || len(p.byID) != 0 {
		t.Fatalf("%d versions, first %q, %d queued", len(ids), ids[:1], len(p.queues))
	}
}

func BenchmarkReversedResults(b *testing.B) {
	lines := reversedResults(20000)
	b.ReportAllocs()
	for b.Loop() {
		var p Parser
		for _, l := range lines {
			p.Feed(l, func(Event) {})
		}
	}
}
