package toolset

import (
	"context"
	"encoding/json"
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
