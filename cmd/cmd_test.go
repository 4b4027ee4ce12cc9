package cmd

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
)

type result struct {
	code           int
	stdout, stderr string
}

// run runs todo-shell in-process with stdin and the environment env, in a
// temporary working directory.
func run(t *testing.T, stdin string, env map[string]string, args ...string) result {
	t.Helper()
	return runHost(t, stdin, host{getenv: func(k string) string { return env[k] }}, args...)
}

// runHost is run with the surroundings h.
func runHost(t *testing.T, stdin string, h host, args ...string) result {
	t.Helper()
	dir := t.TempDir()
	wd, _ := os.Getwd()
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	var out, errOut bytes.Buffer
	s := Streams{In: strings.NewReader(stdin), Out: &out, ErrOut: &errOut}
	code := mainWith(args, s, h)
	return result{code, out.String(), errOut.String()}
}

const todoLine = `TodoWrite '{"todos":[{"content":"Run tests","activeForm":"Running tests","status":"in_progress"}]}'`

func TestCommandLine(t *testing.T) {
	tests := []struct {
		name           string
		args           []string
		env            map[string]string
		code           int
		stdout, stderr string // substrings
	}{
		{"todo write", []string{"-c", todoLine}, nil, 0, "Todo list updated: 0 completed, 1 in_progress, 0 pending", ""},
		{"todo read empty", []string{"-c", "TodoRead"}, nil, 0, "No todos.", ""},
		{"validation fails", []string{"-c", `TodoWrite '{"todos":[{}]}'`}, nil, 1, "", "Error: Validation failed"},
		{"bash status passes through", []string{"-c", "echo hi; false"}, nil, 1, "hi", "exit status 1"},
		{"exit N leaves quietly with N, as bash does", []string{"-c", "echo hi; exit 7"}, nil, 7, "hi", ""},
		{"incomplete line", []string{"-c", "echo 'open"}, nil, 1, "", "Error: unexpected end of the command: the single quote (') opened on line 1 is never closed"},
		{"help", []string{"--help"}, nil, 0, "Exit status: 0 success, 1 a command failed, 2 bad usage.", ""},
		{"bad flag", []string{"--nope"}, nil, 2, "", "unknown flag: --nope"},
		{"bad session", []string{"--session", "../x", "-c", "TodoRead"}, nil, 2, "", "--session"},
		{"bad env", []string{"-c", "TodoRead"}, map[string]string{"TODO_MAX_ITEMS": "lots"}, 2, "", "TODO_MAX_ITEMS"},
		{"flag overrides env", []string{"--max-items", "1", "-c", `TodoWrite '{"todos":[{"content":"a","activeForm":"b","status":"pending"},{"content":"a","activeForm":"b","status":"pending"}]}'`},
			map[string]string{"TODO_MAX_ITEMS": "10"}, 1, "", "Too many todos: 2 (max 1)"},
		{"env limit", []string{"-c", `TodoWrite '{"todos":[{"content":"abc","activeForm":"b","status":"pending"}]}'`},
			map[string]string{"TODO_MAX_CONTENT_LENGTH": "2"}, 1, "", "content exceeds 2 characters"},
		{"missing file", []string{"no-such-script"}, nil, 2, "", "no-such-script"},
		{"version", []string{"version"}, nil, 0, "todo-shell ", ""},
		{"extra args", []string{"tools", "x"}, nil, 2, "", "unknown command"},
		{"completion", []string{"completion", "bash"}, nil, 0, "bash completion", ""},
		// Issue 7 item 14: a flag overrides the environment, a malformed
		// variable included; too large says "at most".
		{"flag overrides malformed env", []string{"--max-items", "5", "-c", "TodoRead"}, map[string]string{"TODO_MAX_ITEMS": "abc"}, 0, "No todos.", ""},
		{"flag overrides malformed env, others still read", []string{"--max-items", "5", "-c", "TodoRead"}, map[string]string{"TODO_MAX_ITEMS": "abc", "TODO_MAX_IN_PROGRESS": "x"}, 2, "", "TODO_MAX_IN_PROGRESS"},
		{"flag too large", []string{"--max-items", "99999999999999999999", "-c", "TodoRead"}, nil, 2, "", "at most 1000000"},
		{"env too large", []string{"-c", "TodoRead"}, map[string]string{"TODO_MAX_CONTENT_LENGTH": "5000000"}, 2, "", "at most 1000000"},
		{"flag zero", []string{"--max-items", "0", "-c", "TodoRead"}, nil, 2, "", "--max-items"},
		// Issue 8 item 12.
		{"completion unknown shell", []string{"completion", "tcsh"}, nil, 2, "", `unknown shell "tcsh"`},
		{"--version", []string{"--version"}, nil, 0, "todo-shell ", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := run(t, "", tt.env, tt.args...)
			if r.code != tt.code || !strings.Contains(r.stdout, tt.stdout) || !strings.Contains(r.stderr, tt.stderr) {
				t.Fatalf("code %d\nstdout %q\nstderr %q", r.code, r.stdout, r.stderr)
			}
			if tt.code == 2 && (strings.Count(r.stderr, "\n") != 2 || !strings.HasSuffix(r.stderr, " --help' for usage.\n") || strings.Contains(r.stderr, "Usage:")) {
				t.Fatalf("bad usage: want the error and one line pointing to --help, got %q", r.stderr)
			}
			if tt.code != 2 && strings.Contains(r.stderr, "Usage:\n") {
				t.Fatalf("usage printed for a non-usage failure: %q", r.stderr)
			}
		})
	}
}

// TestUsageErrorIsTwoLines holds issue 8 item 12: the error, then one line.
func TestUsageErrorIsTwoLines(t *testing.T) {
	r := run(t, "", map[string]string{"TODO_MAX_ITEMS": "abc"}, "-c", "TodoRead")
	want := "todo-shell: TODO_MAX_ITEMS=\"abc\": want a whole number, 1 or more\nRun 'todo-shell --help' for usage.\n"
	if r.code != 2 || r.stderr != want || r.stdout != "" {
		t.Fatalf("%+v", r)
	}
	r = run(t, "", nil, "--max-items", "0")
	want = "todo-shell: invalid argument \"0\" for \"--max-items\" flag: want a whole number, 1 or more\nRun 'todo-shell --help' for usage.\n"
	if r.code != 2 || r.stderr != want {
		t.Fatalf("%+v", r)
	}
}

func TestVersionFromBuildInfo(t *testing.T) {
	tests := []struct {
		info debug.BuildInfo
		want string
	}{
		{debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}}, "v1.2.3"},
		{debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "(devel)"},
		{debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "0123456789abcdef0123"}, {Key: "vcs.time", Value: "2026-11-22T13:00:00Z"}, {Key: "vcs.modified", Value: "true"}}},
			"(devel) 0123456789ab-dirty 2026-11-22T13:00:00Z"},
	}
	for _, tt := range tests {
		if got := versionFrom(&tt.info); got != tt.want {
			t.Errorf("got %q, want %q", got, tt.want)
		}
	}
	old := Version
	defer func() { Version = old }()
	Version = "v9.9.9-3-gabcdef"
	if r := run(t, "", nil, "--version"); r.stdout != "todo-shell v9.9.9-3-gabcdef\n" {
		t.Fatalf("%+v", r)
	}
	if r := run(t, "", nil, "version"); r.stdout != "todo-shell v9.9.9-3-gabcdef\n" {
		t.Fatalf("%+v", r)
	}
}

func TestToolsPrintsDefinitions(t *testing.T) {
	r := run(t, "", nil, "tools")
	var defs []struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		InputSchema json.RawMessage `json:"input_schema"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &defs); err != nil || r.code != 0 {
		t.Fatalf("%v %q", err, r.stdout)
	}
	var names []string
	for _, d := range defs {
		names = append(names, d.Name)
		if d.Description == "" || len(d.InputSchema) == 0 {
			t.Errorf("%s is incomplete", d.Name)
		}
	}
	if fmt.Sprint(names) != "[TodoWrite TodoRead TaskCreate TaskGet TaskUpdate TaskList Bash Read Write Edit]" {
		t.Fatalf("tools %v", names)
	}
}

func TestScriptMode(t *testing.T) {
	script := strings.Join([]string{
		"# comments are bash no-ops",
		`TodoWrite '{"todos":[`,
		`  {"content":"A","activeForm":"Doing A","status":"in_progress"},`,
		`  {"content":"B","activeForm":"Doing B","status":"pending"}`,
		`]}'`,
		"echo to-stdout; echo to-stderr >&2",
		"false",
		"TodoRead",
		"/nope",
		"echo after failures",
	}, "\n") + "\n"
	r := run(t, script, nil, "--panel")
	if r.code != 1 {
		t.Fatalf("exit %d, want 1 (a line failed)", r.code)
	}
	for _, want := range []string{"Todo list updated: 0 completed, 1 in_progress, 1 pending", "╭─ Tasks 0/2", "● Doing A", "to-stdout\nto-stderr", "[>] A <- Doing A", "after failures"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, r.stdout)
		}
	}
	if strings.Contains(r.stdout+r.stderr, "\x1b") {
		t.Error("escape codes in script output")
	}
	if r.stderr != "exit status 1\nUnknown command: /nope (try /help)\n" {
		t.Errorf("stderr %q", r.stderr)
	}
	// The panel is printed after changes only: once here.
	if n := strings.Count(r.stdout, "╭─ Tasks"); n != 1 {
		t.Errorf("panel printed %d times", n)
	}
}

func TestScriptModeSuccessAndExit(t *testing.T) {
	r := run(t, "echo one\nexit\necho never\n", nil)
	if r.code != 0 || r.stdout != "one\n" {
		t.Fatalf("%+v", r)
	}
	r = run(t, "echo 'unclosed\n", nil)
	if r.code != 1 || !strings.Contains(r.stderr, "unexpected end of input") {
		t.Fatalf("%+v", r)
	}
	r = run(t, "echo no newline at end", nil)
	if r.code != 0 || r.stdout != "no newline at end\n" {
		t.Fatalf("%+v", r)
	}
}

func TestScriptOffload(t *testing.T) {
	r := run(t, "seq 1 500\n", nil, "--session", "s1")
	path, _ := filepath.Abs(filepath.Join(".offload", "s1"))
	if r.code != 0 || !strings.HasPrefix(r.stdout, "[Tool result offloaded to file: ") || !strings.Contains(r.stdout, "/.offload/s1/toolu_") || !strings.Contains(r.stdout, "… 490 more lines") {
		t.Fatalf("%+v (%s)", r, path)
	}
	r = run(t, "seq 1 500\n", nil, "--offload-threshold", "0")
	if !strings.HasSuffix(r.stdout, "499\n500\n") {
		t.Fatalf("threshold 0 still offloaded: %q", r.stdout[:80])
	}
}

// TestScriptOffloadCap: --offload-max-mib caps the offload file; the
// output keeps its start and end there and the warning says what was cut
// (issue 29, item 6).
func TestScriptOffloadCap(t *testing.T) {
	r := run(t, "yes | head -c 5000000\n", nil, "--session", "cap", "--offload-max-mib", "1")
	if r.code != 0 || !strings.Contains(r.stderr, "passed the 1 MiB an offload file holds (--offload-max-mib)") || !strings.Contains(r.stderr, "cut from its middle") {
		t.Fatalf("%+v", r)
	}
	path := strings.TrimSuffix(strings.TrimPrefix(strings.SplitN(r.stdout, "\n", 2)[0], "[Tool result offloaded to file: "), "]")
	info, err := os.Stat(path)
	if err != nil || info.Size() > 1<<20 {
		t.Fatalf("%v %v", info, err)
	}
	for _, bad := range []string{"-1", "2000000"} {
		if r := run(t, "", nil, "--offload-max-mib", bad, "-c", "true"); r.code != 2 || !strings.Contains(r.stderr, "--offload-max-mib must be 0 (no cap) to 1048576") {
			t.Fatalf("%s: %+v", bad, r)
		}
	}
}

func TestServe(t *testing.T) {
	in := strings.Join([]string{
		`{"type":"tool_use","id":"toolu_1","name":"TodoWrite","input":{"todos":[{"content":"A","activeForm":"Doing A","status":"pending"}]}}`,
		`{"type":"tool_use","id":"toolu_2","name":"TodoRead","input":{}}`,
		`not json at all`,
		``,
		`{"type":"tool_use","id":"toolu_3","name":"Nope","input":{}}`,
		`{"type":"tool_use","id":"toolu_4","name":"TodoWrite","input":{"todos":"x"}}`,
		`{"type":"text","id":"toolu_5"}`,
		`{"type":"tool_use","id":"toolu_6","name":"Bash","input":{"command":"seq 1 400"}}`,
		`{"type":"tool_use","id":"toolu_7","name":"TodoRead","input":{}`,
	}, "\n")
	r := run(t, in, nil, "serve", "--session", "srv")
	if r.code != 0 {
		t.Fatalf("%+v", r)
	}
	lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
	type res struct {
		Type      string `json:"type"`
		ToolUseID string `json:"tool_use_id"`
		Content   string `json:"content"`
		IsError   *bool  `json:"is_error"`
	}
	want := []struct {
		id, content string
		isError     bool
	}{
		{"toolu_1", `{"success":true,"count":1}`, false},
		{"toolu_2", `{"todos":[{"content":"A","status":"pending","activeForm":"Doing A"}]}`, false},
		{"", "Invalid tool_use: invalid JSON: invalid character 'o' in literal null (at offset 1)", true},
		{"toolu_3", "Tool 'Nope' not found", true},
		{"toolu_4", "'todos' must be an array", true},
		{"toolu_5", `Invalid tool_use: "input" must be a JSON object`, true},
		{"toolu_6", "[Tool result offloaded to file: ", false},
		{"toolu_7", "Invalid tool_use: invalid JSON: unexpected end of JSON input (at offset 62)", true},
	}
	if len(lines) != len(want) {
		t.Fatalf("%d lines:\n%s", len(lines), r.stdout)
	}
	for i, w := range want {
		var got res
		if err := json.Unmarshal([]byte(lines[i]), &got); err != nil {
			t.Fatalf("line %d: %v", i, err)
		}
		if got.Type != "tool_result" || got.ToolUseID != w.id || !strings.HasPrefix(got.Content, w.content) || (got.IsError != nil) != w.isError || (got.IsError != nil && !*got.IsError) {
			t.Errorf("line %d: %s", i, lines[i])
		}
	}
}

// TestServeToldEveryReasonTheShellLists: for the same bad TodoWrite, the
// tool_result a model gets lists every reason the shell lists for a person.
func TestServeToldEveryReasonTheShellLists(t *testing.T) {
	input := `{"todos":[{"content":"","activeForm":"x","status":"done"},{"content":"b","activeForm":"x","status":"in_progress"},{"content":"c","activeForm":"x","status":"in_progress"}]}`
	shell := run(t, "", nil, "-c", "TodoWrite '"+input+"'")
	if shell.code != 1 || !strings.Contains(shell.stderr, "- Only one todo can be in_progress") {
		t.Fatalf("%+v", shell)
	}
	served := run(t, `{"type":"tool_use","id":"toolu_1","name":"TodoWrite","input":`+input+"}\n", nil, "serve", "--session", "srv")
	var got struct {
		Content string `json:"content"`
		IsError bool   `json:"is_error"`
	}
	if err := json.Unmarshal([]byte(served.stdout), &got); err != nil {
		t.Fatalf("%v: %q", err, served.stdout)
	}
	want := strings.TrimSuffix(strings.TrimPrefix(shell.stderr, "Error: "), "\n")
	if !got.IsError || got.Content != want {
		t.Fatalf("serve says\n%s\nthe shell says\n%s", got.Content, want)
	}
}

// TestHelpWrappedInPipe: /help written to a file or pipe is wrapped to 80
// columns at word boundaries.
func TestHelpWrappedInPipe(t *testing.T) {
	r := run(t, "", nil, "-c", "/help")
	if !strings.Contains(r.stdout, "Ctrl+R") {
		t.Fatalf("no help:\n%s", r.stdout)
	}
	for _, l := range strings.Split(r.stdout, "\n") {
		if n := len([]rune(l)); n > 80 {
			t.Fatalf("line of %d columns: %q", n, l)
		}
	}
}
