package cmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSharedPlanAcrossRuns: --plan NAME and TODO_SHELL_PLAN name one plan
// in the state directory; runs share it, watch and replay read it.
func TestSharedPlanAcrossRuns(t *testing.T) {
	state := t.TempDir()
	env := map[string]string{"XDG_STATE_HOME": state}
	steps := []struct {
		args []string
		want string
	}{
		{[]string{"--plan", "build", "-c", `TaskCreate '{"subject":"Read the spec","description":""}'`}, "Task #1 created successfully: Read the spec"},
		{[]string{"--plan", "build", "-c", `TaskCreate '{"subject":"Write","description":""}'`}, "Task #2 created successfully: Write"},
		{[]string{"--plan", "build", "-c", `TaskUpdate '{"taskId":"2","addBlockedBy":["1"]}'`}, "Updated task #2 blockedBy"},
		{[]string{"--plan", "build", "-c", "TaskList"}, "#1 [pending] Read the spec (free)\n#2 [pending] Write (blocked by #1)"},
		{[]string{"--plan", "build", "watch", "--once"}, "○ #2 Write ⊘ blocked by #1"},
		{[]string{"--plan", "build", "-c", `TaskUpdate '{"taskId":"2","status":"deleted"}'`}, "Task #2 deleted"},
		{[]string{"--plan", "build", "watch", "--once", "--json"}, `"todos":[{"content":"#1 Read the spec","status":"pending","activeForm":"#1 Read the spec"}]`},
		{[]string{"--plan", "other", "-c", "TaskList"}, "No tasks"},
		{[]string{"--plan", "../x", "-c", "TaskList"}, ""},
	}
	for _, s := range steps {
		r := run(t, "", env, s.args...)
		if !strings.Contains(r.stdout, s.want) || (s.want == "") != (r.code != 0) {
			t.Fatalf("%v: %d %q %q", s.args, r.code, r.stdout, r.stderr)
		}
	}
	// A session's own plan, watched with --tasks.
	r0 := run(t, "", env, "--session", "s1", "--offload-dir", filepath.Join(state, "off"), "-c", `TaskCreate '{"subject":"Mine","description":""}'`)
	w := run(t, "", env, "--offload-dir", filepath.Join(state, "off"), "watch", "--tasks", "--once", "s1")
	if r0.code != 0 || !strings.Contains(w.stdout, "○ #1 Mine") {
		t.Fatalf("watch --tasks: %q %q / %q", w.stdout, w.stderr, r0.stderr)
	}
	env[EnvPlan] = "build"
	if r := run(t, "", env, "-c", "TaskList"); r.stdout != "#1 [pending] Read the spec (free)\n" {
		t.Fatalf("%s: %q %q", EnvPlan, r.stdout, r.stderr)
	}
	journal := filepath.Join(state, "todo-shell", "plans", "build", "tasks.jsonl")
	if _, err := os.Stat(journal); err != nil {
		t.Fatal(err)
	}
	r := run(t, "", nil, "replay", "--summary", journal)
	if r.code != 0 || !strings.Contains(r.stdout, "DROPPED without being completed: #2 Write") || !strings.Contains(r.stdout, "4 versions") {
		t.Fatalf("replay: %q %q", r.stdout, r.stderr)
	}
}

// TestReplayOfATaskPlanKeepsItsOwnRules: a task plan with two owners' tasks
// in progress breaks no rule (the limit is per owner), and replay names the
// file as a task journal, not a todos.jsonl.
func TestReplayOfATaskPlanKeepsItsOwnRules(t *testing.T) {
	state := t.TempDir()
	env := map[string]string{"XDG_STATE_HOME": state}
	for _, line := range []string{
		`TaskCreate '{"subject":"Parse","description":""}'`,
		`TaskCreate '{"subject":"Render","description":""}'`,
		`TaskUpdate '{"taskId":"1","owner":"alice","status":"in_progress"}'`,
		`TaskUpdate '{"taskId":"2","owner":"bob","status":"in_progress"}'`,
	} {
		if r := run(t, "", env, "--plan", "team", "-c", line); r.code != 0 {
			t.Fatalf("%s: %q %q", line, r.stdout, r.stderr)
		}
	}
	journal := filepath.Join(state, "todo-shell", "plans", "team", "tasks.jsonl")
	r := run(t, "", nil, "replay", "--summary", journal)
	if r.code != 0 || !strings.Contains(r.stdout, "(todo-shell tasks.jsonl)") || strings.Contains(r.stdout, "breaks a rule") || !strings.Contains(r.stdout, "0 versions break a rule") {
		t.Fatalf("replay: %q %q", r.stdout, r.stderr)
	}
}

// TestReplayOfATaskPlanNamesOwnersAndBlockers: replay --summary of a task
// plan's journal says who took which task and what blocks what, as the
// panel of watch shows them (@owner, blocked by #N).
func TestReplayOfATaskPlanNamesOwnersAndBlockers(t *testing.T) {
	state := t.TempDir()
	env := map[string]string{"XDG_STATE_HOME": state}
	for _, line := range []string{
		`TaskCreate '{"subject":"Parse","description":""}'`,
		`TaskCreate '{"subject":"Render","description":""}'`,
		`TaskUpdate '{"taskId":"2","addBlockedBy":["1"]}'`,
		`TaskUpdate '{"taskId":"1","owner":"alice","status":"in_progress"}'`,
		`TaskUpdate '{"taskId":"1","owner":""}'`,
		`TaskUpdate '{"taskId":"2","subject":"Mine"}'`,
		`TaskUpdate '{"taskId":"2","status":"in_progress","owner":"bob"}'`,
		`TaskUpdate '{"taskId":"2","subject":"Draw it all"}'`,
		`TaskUpdate '{"taskId":"2","status":"pending"}'`,
	} {
		if r := run(t, "", env, "--plan", "team", "-c", line); r.code != 0 {
			t.Fatalf("%s: %q %q", line, r.stdout, r.stderr)
		}
	}
	journal := filepath.Join(state, "todo-shell", "plans", "team", "tasks.jsonl")
	r := run(t, "", nil, "replay", "--summary", journal)
	for _, want := range []string{
		"v3  ", "    · #2 blocked by #1\n",
		"v4  ", "    ● started    #1 Parse\n    · #1 owner alice\n",
		"v5  ", "    · #1 has no owner now\n",
		// A subject edit is the same task (matched by id), named once.
		"v6  ", "    ~ renamed    #2: Render → Mine\n",
		"v8  ", "    ~ renamed    #2: Mine → Draw it all\n",
		// A task set back to pending is a line too.
		"v9  ", "    ○ pending    #2 Draw it all\n",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Fatalf("replay --summary lacks %q:\n%s", want, r.stdout)
		}
	}
	for _, bad := range []string{"DROPPED", "+ added      #2 Mine", "+ added      #2 Draw"} {
		if strings.Contains(r.stdout, bad) {
			t.Fatalf("replay --summary says %q:\n%s", bad, r.stdout)
		}
	}
	j := run(t, "", nil, "replay", "--json", journal)
	for _, want := range []string{
		`"renamed":[{"from":"#2 Mine","to":"#2 Draw it all","id":"2"}]`,
		`"pending":["#2 Draw it all"]`,
	} {
		if !strings.Contains(j.stdout, want) {
			t.Fatalf("replay --json lacks %s:\n%s", want, j.stdout)
		}
	}
}
