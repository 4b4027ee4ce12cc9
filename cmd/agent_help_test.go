package cmd

import (
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestAgentHelpNamesTheToolsItRuns: agent's help names every tool the
// agent's engine registers, in the order the model sees them, and no other
// (issue 29, item 13), and says which never ask: agentTools, written out
// so that --help builds no registry, is the registry's.
func TestAgentHelpNamesTheToolsItRuns(t *testing.T) {
	o := &Options{Getenv: func(string) string { return "" }, OffloadDir: t.TempDir(), BashTimeout: 1e9}
	o.MaxItems, o.MaxContentLength, o.MaxInProgress = 50, 200, 1
	a, err := newApp(o) // as agent builds it: the file tools too
	if err != nil {
		t.Fatal(err)
	}
	var names, never []string
	for _, d := range a.executor.Definitions() {
		names = append(names, d.Name)
		if d.ReadOnly {
			never = append(never, d.Name)
		}
	}
	if gotNames, gotNever := agentTools(); !slices.Equal(gotNames, names) || !slices.Equal(gotNever, never) {
		t.Errorf("agentTools() = %v, never asking %v; the registry has %v, never asking %v", gotNames, gotNever, names, never)
	}
	if len(names) < 10 {
		t.Fatalf("the agent runs %d tools: %v", len(names), names)
	}
	r := run(t, "", nil, "--help")
	if !strings.Contains(strings.Join(strings.Fields(r.stdout), " "), "agent Let Claude drive the shell with "+strconv.Itoa(len(names))+" tools: "+strings.Join(names, ", ")) {
		t.Errorf("--help:\n%s", r.stdout)
	}
	r = run(t, "", nil, "agent", "--help")
	flat := strings.Join(strings.Fields(r.stdout), " ")
	if !strings.Contains(flat, "works with "+strconv.Itoa(len(names))+" tools: "+strings.Join(names, ", ")+".") || strings.Contains(flat, "<the agent's tools>") {
		t.Errorf("agent --help:\n%s", r.stdout)
	}
	for _, never := range []string{"TodoWrite, TodoRead, TaskCreate, TaskGet, TaskUpdate, TaskList and Read never ask", "A call of Bash, Write and Edit asks you first"} {
		if !strings.Contains(flat, never) {
			t.Errorf("agent --help does not say %q:\n%s", never, r.stdout)
		}
	}
}
