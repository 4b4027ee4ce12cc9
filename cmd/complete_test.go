package cmd

import (
	"slices"
	"testing"

	"github.com/todo-shell/todo-shell/tools"
)

// TestCompleterBuiltins: Tab offers /cost and /compact in agent mode only.
func TestCompleterBuiltins(t *testing.T) {
	o := &Options{Getenv: func(string) string { return "" }}
	a := &app{registry: tools.NewRegistry()}
	for _, tt := range []struct {
		agent bool
		want  bool
	}{{false, false}, {true, true}} {
		b := newCompleter(o, a, tt.agent).Builtins
		if got := slices.Contains(b, "/cost") && slices.Contains(b, "/compact"); got != tt.want {
			t.Errorf("agent mode %v: builtins %q", tt.agent, b)
		}
	}
	if len(replBuiltins) != 9 {
		t.Errorf("the shell's builtins changed: %q", replBuiltins)
	}
}
