package repl

import (
	"context"
	"encoding/json"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/todo-shell/todo-shell/internal/agent"
	"github.com/todo-shell/todo-shell/tools"
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
	tm := teatest.NewTestModel(t, New(cfg), teatest.WithInitialTermSize(70, 20))

	enter(tm, "count the files")
	waitFor(t, tm, "● TodoWrite(1 todos)", "Tasks 0/1", "Counting files… (", "Working on it")
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlC})
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
