package repl

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/todo-shell/todo-shell/internal/agent"
	"github.com/todo-shell/todo-shell/render"
	"github.com/todo-shell/todo-shell/tools"
	"github.com/todo-shell/todo-shell/tools/offload"
	"github.com/todo-shell/todo-shell/tools/todo"
	"github.com/todo-shell/todo-shell/tools/toolset"
)

// scriptedAgent stands in for the model: on its first prompt it writes a
// plan through the real registry and waits to be interrupted; later prompts
// answer at once.
type scriptedAgent struct {
	reg     *tools.Executor
	prompts []string
}

func (a *scriptedAgent) Run(ctx context.Context, prompt string, emit func(agent.Event)) (agent.Result, error) {
	a.prompts = append(a.prompts, prompt)
	if len(a.prompts) > 1 {
		read := tools.ToolUse{Type: "tool_use", ID: "toolu_m2", Name: "TodoRead", Input: json.RawMessage(`{}`)}
		emit(agent.ToolCall{Use: read})
		emit(agent.ToolDone{Use: read, Result: a.reg.Execute(ctx, read.ID, read.Name, read.Input)})
		emit(agent.TextDelta{Text: "second "})
		emit(agent.TextDone{Text: "second answer"})
		return agent.Result{Text: "second answer", NumTurns: 1}, nil
	}
	input := json.RawMessage(`{"todos":[{"content":"Count files","activeForm":"Counting files","status":"in_progress"}]}`)
	use := tools.ToolUse{Type: "tool_use", ID: "toolu_m1", Name: "TodoWrite", Input: input}
	emit(agent.ToolCall{Use: use})
	emit(agent.ToolDone{Use: use, Result: a.reg.Execute(ctx, use.ID, use.Name, use.Input)})
	emit(agent.TextDelta{Text: "Working on it"})
	<-ctx.Done()
	return agent.Result{NumTurns: 1}, agent.ErrInterrupted
}

func TestAgentMode(t *testing.T) {
	cfg, _ := testConfig(t)
	lastTranscript = &transcript{}
	cfg.Transcript = lastTranscript
	ag := &scriptedAgent{reg: cfg.Shell.Executor}
	cfg.Agent = ag
	tm := runShell(t, cfg, 70, 20)

	enter(tm, "count the files")
	waitFor(t, tm, "● TodoWrite(1 todos)", "Tasks 0/1", "Counting files… (", "Working on it")
	tm.Send(tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl})
	waitFor(t, tm, "Interrupted: the next prompt continues the conversation")

	enter(tm, "!echo bash still works")
	waitLine(t, "bash still works")
	enter(tm, "/trace on")
	waitLine(t, "Tracing on")
	enter(tm, "and now?")
	waitFor(t, tm, `→ {"type":"tool_use","id":"toolu_m2","name":"TodoRead","input":{}}`, "second answer")
	// A builtin typed now waits for the prompt to finish: its answer
	// means the shell is idle again.
	enter(tm, "/trace off")
	waitLine(t, "Tracing off")
	view := finalView(t, tm)
	if len(ag.prompts) != 2 || ag.prompts[0] != "count the files" || ag.prompts[1] != "and now?" {
		t.Fatalf("prompts %q", ag.prompts)
	}
	golden(t, screen(view, ""))
}

// toolsAgent makes real tool calls through the production registry, one
// per prompt, and answers "done".
type toolsAgent struct {
	reg  *tools.Executor
	uses map[string]tools.ToolUse // prompt → the call
}

func (a *toolsAgent) Run(ctx context.Context, prompt string, emit func(agent.Event)) (agent.Result, error) {
	use := a.uses[prompt]
	emit(agent.ToolCall{Use: use})
	emit(agent.ToolDone{Use: use, Result: a.reg.Execute(ctx, use.ID, use.Name, use.Input)})
	emit(agent.TextDone{Text: "done " + prompt})
	return agent.Result{Text: "done"}, nil
}

// TestAgentToolLines: each tool call shows as its tool's own shell form
// (Bash(…), Write notes.md (3 lines), Edit …, Read …; never raw JSON), and
// its result as its last lines below a row saying how many more there are;
// an offloaded result says where the whole is and how long it is.
func TestAgentToolLines(t *testing.T) {
	cfg, offDir := testConfig(t)
	// The file tools too, as the agent command has them.
	set, err := toolset.New(toolset.Options{Limits: todo.DefaultLimits(), Offload: offload.Config{Dir: offDir, Session: "test", Threshold: 1000}, BashTimeout: time.Minute, Dir: t.TempDir(), Files: true, Plain: render.PlainPlan})
	if err != nil {
		t.Fatal(err)
	}
	cfg.Shell.Executor, cfg.Plan = set.Executor, set.Plan
	lastTranscript = &transcript{}
	cfg.Transcript = lastTranscript
	pwd := cfg.Shell.Executor.Execute(context.Background(), "toolu_pwd", "Bash", json.RawMessage(`{"command":"pwd"}`))
	dir := strings.TrimSpace(strings.Split(pwd.Content, "\n")[0])
	notes := filepath.Join(dir, "notes.md")
	call := func(id, name string, in map[string]any) tools.ToolUse {
		b, _ := json.Marshal(in)
		return tools.ToolUse{Type: "tool_use", ID: id, Name: name, Input: b}
	}
	tests := []struct {
		prompt string
		use    tools.ToolUse
		want   string // the rows printed, the prompt's echo excluded
	}{
		{"short", call("toolu_a", "Bash", map[string]any{"command": "seq 1 4"}), "● Bash(seq 1 4)\n  ⎿ 1\n    2\n    3\n    4\n"},
		{"long", call("toolu_b", "Bash", map[string]any{"command": "seq 1 10"}), "● Bash(seq 1 10)\n  ⎿ … 7 more lines\n    8\n    9\n    10\n"},
		{"write", call("toolu_c", "Write", map[string]any{"file_path": notes, "content": "one\ntwo\nthree\n"}), "● Write notes.md (3 lines)\n  ⎿ Created " + notes + " (14 bytes, 3 lines)\n"},
		{"read", call("toolu_d", "Read", map[string]any{"file_path": notes}), "● Read notes.md\n  ⎿      1  one\n         2  two\n         3  three\n"},
		{"edit", call("toolu_e", "Edit", map[string]any{"file_path": notes, "old_string": "two", "new_string": "2"}), "● Edit notes.md (replace 1)\n"},
		{"offloaded", call("toolu_f", "Bash", map[string]any{"command": "seq 1 2000"}), "● Bash(seq 1 2000)\n  ⎿ 2000 lines, offloaded to file:\n    <offload-dir>/test/toolu_f.md\n"},
	}
	ag := &toolsAgent{reg: cfg.Shell.Executor, uses: map[string]tools.ToolUse{}}
	for _, tt := range tests {
		ag.uses[tt.prompt] = tt.use
	}
	cfg.Agent = ag
	tm := runShell(t, cfg, 100, 20)
	for _, tt := range tests {
		t.Run(tt.prompt, func(t *testing.T) {
			enter(tm, tt.prompt)
			waitLine(t, "done "+tt.prompt)
			got := strings.ReplaceAll(lastTranscript.String(), offDir, "<offload-dir>")
			got = got[strings.LastIndex(got, "✦ "+tt.prompt+"\n")+len("✦ "+tt.prompt+"\n"):]
			got = got[:strings.Index(got, "done "+tt.prompt)]
			if !strings.HasPrefix(got, tt.want) {
				t.Fatalf("printed\n%s\nwant it to start with\n%s", got, tt.want)
			}
		})
	}
}
