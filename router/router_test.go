package router

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/todo-shell/todo-shell/internal/bashline"
	"github.com/todo-shell/todo-shell/render"
	"github.com/todo-shell/todo-shell/tools"
	"github.com/todo-shell/todo-shell/tools/offload"
	"github.com/todo-shell/todo-shell/tools/todo"
	"github.com/todo-shell/todo-shell/tools/toolset"
)

type names map[string]bool

func (n names) Has(s string) bool { return n[s] }

func TestClassify(t *testing.T) {
	reg := names{"TodoWrite": true, "TodoRead": true, "Bash": true}
	tests := []struct {
		line string
		want Line
	}{
		{"", Line{Kind: Empty}},
		{"   \t", Line{Kind: Empty}},
		{"TodoWrite '{}'", Line{Kind: Agent, Name: "TodoWrite", Args: "'{}'"}},
		{"  TodoRead", Line{Kind: Agent, Name: "TodoRead"}},
		{"TodoRead --json", Line{Kind: Agent, Name: "TodoRead", Args: "--json"}},
		{"TodoWrite\t'{}'", Line{Kind: Agent, Name: "TodoWrite", Args: "'{}'"}},
		{"TodoWriteX '{}'", Line{Kind: Bash, Text: "TodoWriteX '{}'"}},
		{"todowrite '{}'", Line{Kind: Bash, Text: "todowrite '{}'"}},
		{"TodoWrite2", Line{Kind: Bash, Text: "TodoWrite2"}},
		{"!TodoRead", Line{Kind: Bash, Text: "TodoRead", Forced: true}},
		{"! ls -la", Line{Kind: Bash, Text: "ls -la", Forced: true}},
		{"/help", Line{Kind: Builtin, Name: "help"}},
		{"/trace on", Line{Kind: Builtin, Name: "trace", Args: "on"}},
		{"/bin/ls -la", Line{Kind: Bash, Text: "/bin/ls -la"}},
		{"/", Line{Kind: Bash, Text: "/"}},
		{"exit", Line{Kind: Builtin, Name: "exit"}},
		{" quit ", Line{Kind: Builtin, Name: "exit"}},
		{"exit 3", Line{Kind: Bash, Text: "exit 3"}},
		{"ls -la", Line{Kind: Bash, Text: "ls -la"}},
		{"echo TodoWrite", Line{Kind: Bash, Text: "echo TodoWrite"}},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			if got := Classify(tt.line, reg); got != tt.want {
				t.Fatalf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

// TestWords: an agent command's arguments are the words bash would pass.
func TestWords(t *testing.T) {
	tests := []struct {
		in   string
		want []string
		err  error
	}{
		{``, nil, nil},
		{`a b  c`, []string{"a", "b", "c"}, nil},
		{`'a b' "c d"`, []string{"a b", "c d"}, nil},
		{`'{"x":"a\nb"}'`, []string{`{"x":"a\nb"}`}, nil},
		{`"a\"b\\c\$d\e"`, []string{`a"b\c$d\e`}, nil},
		{`a\ b`, []string{"a b"}, nil},
		{"a\\\nb", []string{"ab"}, nil},
		{"\"a\\\nb\"", []string{"ab"}, nil},
		{`x'y'"z"`, []string{"xyz"}, nil},
		{`''`, []string{""}, nil},
		{"a\nb", []string{"a", "b"}, nil},
		{"# don't worry", nil, nil},
		{"a # it's a comment\nb", []string{"a", "b"}, nil},
		{`a#b '#c'`, []string{"a#b", "#c"}, nil},
		{`'open`, nil, bashline.ErrIncomplete},
		{`"open`, nil, bashline.ErrIncomplete},
		{`"open\"`, nil, bashline.ErrIncomplete},
		{`trailing\`, nil, bashline.ErrIncomplete},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := bashline.Words(tt.in)
			if !errors.Is(err, tt.err) || !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("got %q %v, want %q %v", got, err, tt.want, tt.err)
			}
		})
	}
}

// seed002 is the multi-line example of the TodoWrite design document.
const seed002 = `TodoWrite '{"todos":[
  {"content":"Analyze requirements","activeForm":"Analyzing requirements","status":"completed"},
  {"content":"Write implementation","activeForm":"Writing implementation","status":"in_progress"},
  {"content":"Run tests","activeForm":"Running tests","status":"pending"}
]}'`

func TestSeedMultiLineEqualsOneLine(t *testing.T) {
	lines := strings.Split(seed002, "\n")
	text := ""
	for i, l := range lines {
		if i > 0 {
			text += "\n"
		}
		text += l
		if last := i == len(lines)-1; (Waiting(text) != "") == last {
			t.Fatalf("after line %d Incomplete=%v", i, !last)
		}
	}
	sh, _ := newShell(t)
	multi := sh.Run(context.Background(), Classify(text, sh.Executor), nil)
	oneLine := strings.ReplaceAll(seed002, "\n", "")
	single := sh.Run(context.Background(), Classify(oneLine, sh.Executor), nil)
	if multi.Stdout != "Todo list updated: 1 completed, 1 in_progress, 1 pending" || multi.Stdout != single.Stdout {
		t.Fatalf("multi %+v single %+v", multi, single)
	}
	// The same input: equal JSON values (the multi-line one is compacted).
	var a, b any
	if json.Unmarshal(multi.Call.Input, &a) != nil || json.Unmarshal(single.Call.Input, &b) != nil || !reflect.DeepEqual(a, b) {
		t.Fatalf("inputs differ:\n%s\n%s", multi.Call.Input, single.Call.Input)
	}
	if strings.Contains(string(multi.Call.Input), "\n") || strings.Contains(string(multi.Call.Input), "[  {") {
		t.Fatalf("multi-line input not compacted: %s", multi.Call.Input)
	}
}

func newShell(t *testing.T) (*Shell, *todo.Store) {
	t.Helper()
	off := offload.Config{Dir: t.TempDir(), Session: "test", Threshold: 1000}
	set, err := toolset.New(toolset.Options{Limits: todo.DefaultLimits(), Offload: off, BashTimeout: time.Minute, Dir: t.TempDir(), Plain: render.PlainPlan})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	return &Shell{Executor: set.Executor, Offload: off,
		NewID: func() string { n++; return fmt.Sprintf("toolu_%02d", n) }}, set.Store
}

func TestDispatch(t *testing.T) {
	valid := `TodoWrite '{"todos":[{"content":"A","activeForm":"Doing A","status":"in_progress"},{"content":"B","activeForm":"Doing B","status":"pending"}]}'`
	var many []string
	for i := 0; i < 25; i++ {
		many = append(many, `{"content":"","status":"pending","activeForm":"x"}`)
	}
	tests := []struct {
		name, line     string
		stdout, stderr string
		code           int
	}{
		{"missing json", "TodoWrite", "", "Error: Missing JSON parameter\nUsage: TodoWrite '{\"todos\":[...]}'", 1},
		{"two args", "TodoWrite '{}' '{}'", "", "Error: An extra argument after the JSON: \"{}\"\nThe JSON is the only argument; remove the rest\n" + todo.WriteUsageLong, 1},
		{"extra args", `TodoWrite '{"todos":[]}' extra more`, "", "Error: 2 extra arguments after the JSON: \"extra\" \"more\"\nThe JSON is the only argument; remove the rest\n" + todo.WriteUsageLong, 1},
		{"apostrophe", `TodoWrite '{"todos":[{"content":"Don't panic","activeForm":"Don't","status":"pending"}]}'`, "", "Error: Invalid JSON format\nAn apostrophe (') in the text closed the single quotes early, leaving 2 arguments: " +
			`write it as \u0027 (JSON's escape, "Don\u0027t") or as '\'' (close the quote, an escaped ', open it again)` + "\n" + todo.WriteUsageLong, 1},
		{"empty", "TodoWrite ''", "", "Error: The JSON argument is empty\n" + todo.WriteUsageLong, 1},
		{"blank", "TodoWrite ' '", "", "Error: The JSON argument is empty\n" + todo.WriteUsageLong, 1},
		{"unquoted json", `TodoWrite {"todos": []}`, "", "Error: Invalid JSON format\nExpected one argument, got 2: quote the JSON in single quotes\n" + todo.WriteUsageLong, 1},
		{"bad json", "TodoWrite '{\"todos\":\n[}'", "", "Error: Invalid JSON format\nParse error at line 2, column 2: invalid character '}' looking for beginning of value\n" + todo.WriteUsageLong, 1},
		{"validation", `TodoWrite '{"todos":[{"content":"","status":"x","activeForm":"y"}]}'`, "",
			"Error: Validation failed\n- Todo at index 0: content is required and cannot be empty\n- Todo at index 0: invalid status 'x'. Must be one of: pending, in_progress, completed", 1},
		{"validation capped", `TodoWrite '{"todos":[` + strings.Join(many, ",") + `]}'`, "",
			"Error: Validation failed\n" + func() string {
				var b []string
				for i := 0; i < 20; i++ {
					b = append(b, fmt.Sprintf("- Todo at index %d: content is required and cannot be empty", i))
				}
				return strings.Join(b, "\n") + "\n- … and 5 more"
			}(), 1},
		{"success", valid, "Todo list updated: 0 completed, 1 in_progress, 1 pending", "", 0},
		{"read", "TodoRead", "[>] A <- Doing A\n[ ] B\n\n(0/2 completed)", "", 0},
		{"read json", "TodoRead --json", `{"todos":[{"content":"A","status":"in_progress","activeForm":"Doing A"},{"content":"B","status":"pending","activeForm":"Doing B"}]}`, "", 0},
		{"read bad arg", "TodoRead --yaml", "", "Error: Unknown argument '--yaml'\n" + todo.ReadUsage, 1},
		{"clear", `TodoWrite '{"todos":[]}'`, "Todo list updated: 0 completed, 0 in_progress, 0 pending", "", 0},
		{"read empty", "TodoRead", "No todos.", "", 0},
		{"bash", "echo hi", "hi", "", 0},
		{"bash failure", "echo oops >&2; exit 4", "oops", "exit status 4", 4},
		{"bash through agent syntax", `Bash '{"command":"echo via tool"}'`, "via tool", "", 0},
		{"generic bad json", `Bash '{'`, "", "Error: Invalid JSON format\nunexpected end of JSON input\nUsage: Bash '<JSON input>'", 1},
		{"unclosed quote", `TodoWrite '{`, "", "Error: incomplete: unclosed quote or trailing backslash", 1},
	}
	sh, _ := newShell(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := sh.Run(context.Background(), Classify(tt.line, sh.Executor), nil)
			if out.Stdout != tt.stdout || out.Stderr != tt.stderr || out.ExitCode != tt.code {
				t.Fatalf("got stdout %q\nstderr %q\ncode %d", out.Stdout, out.Stderr, out.ExitCode)
			}
		})
	}
}

func TestHelpIsNeverOffloaded(t *testing.T) {
	sh, _ := newShell(t)
	pol := sh.Executor.Offloader().(offload.Policy)
	pol.Config.Threshold = 10
	sh.Executor = tools.NewExecutor(sh.Executor.Registry(), pol)
	for _, line := range []string{"TodoWrite -h", "TodoWrite --help", "TodoRead --help"} {
		out := sh.Run(context.Background(), Classify(line, sh.Executor), nil)
		if !out.Help || out.Offloaded != nil || !strings.Contains(out.Stdout, "TodoWrite") {
			t.Errorf("%s: %+v", line, out)
		}
	}
}

func TestLongAgentOutputIsOffloaded(t *testing.T) {
	sh, _ := newShell(t)
	var items []string
	for i := 0; i < 40; i++ {
		items = append(items, fmt.Sprintf(`{"content":"Task number %d with a long description","status":"pending","activeForm":"x"}`, i))
	}
	sh.Run(context.Background(), Classify(`TodoWrite '{"todos":[`+strings.Join(items, ",")+`]}'`, sh.Executor), nil)
	out := sh.Run(context.Background(), Classify("TodoRead", sh.Executor), nil)
	pol := sh.Executor.Offloader().(offload.Policy)
	path := filepath.Join(pol.Config.Dir, "test", out.Call.ID+".md")
	if out.Offloaded == nil || out.Stdout != offload.Pointer(path) {
		t.Fatalf("%+v", out)
	}
	data, _ := os.ReadFile(path)
	if !strings.HasPrefix(string(data), "[ ] Task number 0") || out.Offloaded.Lines != 42 {
		t.Fatalf("file %q lines %d", data[:40], out.Offloaded.Lines)
	}
	// When the file cannot be written the full text is shown, with a warning.
	pol.Writer = failingWriter{}
	sh.Executor = tools.NewExecutor(sh.Executor.Registry(), pol)
	out = sh.Run(context.Background(), Classify("TodoRead", sh.Executor), nil)
	if out.Offloaded != nil || !strings.HasPrefix(out.Stdout, "[ ] Task number 0") || !strings.Contains(out.Warning, "disk full") {
		t.Fatalf("%+v", out)
	}
}

type failingWriter struct{}

func (failingWriter) MkdirAll(string) error          { return nil }
func (failingWriter) WriteFile(string, []byte) error { return errors.New("disk full") }

func TestToolCallsAreReal(t *testing.T) {
	sh, _ := newShell(t)
	out := sh.Run(context.Background(), Classify(`TodoWrite '{"todos": [ ]}'`, sh.Executor), nil)
	if out.Call == nil || out.Call.Name != "TodoWrite" || string(out.Call.Input) != `{"todos": [ ]}` || out.Result.ToolUseID != out.Call.ID {
		t.Fatalf("%+v %+v", out.Call, out.Result)
	}
	lines := TraceLines(out)
	var use, res map[string]any
	if len(lines) != 2 || json.Unmarshal([]byte(strings.TrimPrefix(lines[0], "→ ")), &use) != nil || json.Unmarshal([]byte(strings.TrimPrefix(lines[1], "← ")), &res) != nil {
		t.Fatalf("%q", lines)
	}
	if use["type"] != "tool_use" || res["tool_use_id"] != use["id"] {
		t.Fatalf("%v %v", use, res)
	}
}

func TestBuiltins(t *testing.T) {
	sh, _ := newShell(t)
	tests := []struct {
		line   string
		action Action
		trace  bool
		stdout string
		stderr string
	}{
		{"/help", ActionNone, false, HelpText, ""},
		{"/exit", ActionExit, false, "", ""},
		{"exit", ActionExit, false, "", ""},
		{"/clear", ActionClear, false, "", ""},
		{"/trace on", ActionTrace, true, "Tracing on", ""},
		{"/trace off", ActionTrace, false, "Tracing off", ""},
		{"/trace", ActionNone, false, "", "Usage: /trace on|off"},
		{"/nope", ActionNone, false, "", "Unknown command: /nope (try /help)"},
	}
	for _, tt := range tests {
		b := sh.Builtin(Classify(tt.line, sh.Executor))
		if b.Action != tt.action || b.Trace != tt.trace || b.Stdout != tt.stdout || b.Stderr != tt.stderr {
			t.Errorf("%s: %+v", tt.line, b)
		}
	}
	var defs []map[string]any
	if err := json.Unmarshal([]byte(sh.Builtin(Classify("/tools", sh.Executor)).Stdout), &defs); err != nil || len(defs) != 7 || defs[0]["input_schema"] == nil {
		t.Fatalf("/tools: %v %v", defs, err)
	}
	if s := sh.Builtin(Classify("/session", sh.Executor)).Stdout; !strings.Contains(s, "Session:    test") || !strings.Contains(s, "Offloaded:  0 files") {
		t.Fatalf("/session: %q", s)
	}
}

// TestOnOffloadHearsTheCommand: each offloaded result is told to OnOffload
// with its tool_use id and the line as typed (issue 29, item 10); a short
// result is not.
func TestOnOffloadHearsTheCommand(t *testing.T) {
	sh, _ := newShell(t)
	var heard []string
	sh.OnOffload = func(id, command string) { heard = append(heard, id+" "+command) }
	for _, line := range []string{"seq 1 500", "echo short", "!seq 1 400", `Bash '{"command":"seq 1 300"}'`} {
		sh.Run(context.Background(), Classify(line, sh.Executor), nil)
	}
	want := []string{"toolu_01 seq 1 500", "toolu_03 !seq 1 400", `toolu_04 Bash '{"command":"seq 1 300"}'`}
	if strings.Join(heard, "\n") != strings.Join(want, "\n") {
		t.Fatalf("heard %q, want %q", heard, want)
	}
}
