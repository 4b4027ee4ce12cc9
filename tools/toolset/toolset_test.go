package toolset

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/todo-shell/todo-shell/tools/offload"
	"github.com/todo-shell/todo-shell/tools/todo"
)

func TestNew(t *testing.T) {
	s, err := New(Options{Limits: todo.DefaultLimits(), Offload: offload.Config{Dir: t.TempDir(), Session: "s", Threshold: 1000}, BashTimeout: time.Minute, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, d := range s.Registry.Definitions() {
		names = append(names, d.Name)
	}
	if strings.Join(names, " ") != "TodoWrite TodoRead TaskCreate TaskGet TaskUpdate TaskList Bash" {
		t.Fatalf("tools %v", names)
	}
	res := s.Registry.Execute(context.Background(), "toolu_1", "Bash", json.RawMessage(`{"command":"pwd"}`))
	if res.IsError || res.Content != s.Runner.Dir()+"\n" {
		t.Fatalf("%+v", res)
	}
	if _, err := New(Options{Limits: todo.Limits{}}); err == nil {
		t.Fatal("bad limits accepted")
	}
}

// TestToolsBringTheirShellForm: each standard tool says its own call, its
// flags and the argument it offers; a front end names none of them.
func TestToolsBringTheirShellForm(t *testing.T) {
	s, err := New(Options{Limits: todo.DefaultLimits(), BashTimeout: time.Minute, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	reg := s.Registry
	tests := []struct {
		name, input, summary string
		flags                []string
		arg                  bool
	}{
		{"Bash", `{"command":"ls \\\n -la\nwc"}`, "Bash(ls  -la ⏎ wc)", nil, false}, // line breaks marked (issue 29, item 20)
		{"TodoWrite", `{"todos":[{},{},{}]}`, "TodoWrite(3 todos)", nil, true},
		{"TodoRead", `{}`, "TodoRead({})", []string{"--json"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := reg.Summary(tt.name, json.RawMessage(tt.input)); got != tt.summary {
				t.Errorf("summary %q, want %q", got, tt.summary)
			}
			if reg.ShellOf(tt.name) == nil {
				t.Error("no shell form")
			}
			c := reg.CompleterOf(tt.name)
			if tt.name == "Bash" {
				return
			}
			if c == nil || !slices.Equal(c.ShellFlags(), tt.flags) {
				t.Fatalf("completer %v", c)
			}
			if _, _, ok := c.ShellArg(); ok != tt.arg {
				t.Errorf("offers an argument: %v", ok)
			}
		})
	}
}
