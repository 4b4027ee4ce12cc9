package follow

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestClaudeIgnoresSubagents: Claude Code 2.1 writes a sub-agent's
// transcript to <session>/subagents/agent-*.jsonl; a sub-agent written after
// the session's own transcript is not followed, and neither is a directory.
func TestClaudeIgnoresSubagents(t *testing.T) {
	t.Parallel()
	project := t.TempDir()
	main, _ := os.ReadFile("../plan/testdata/claude-code-2.1.330_tasks.jsonl")
	sub, _ := os.ReadFile("../plan/testdata/claude-code-2.1.330_subagent.jsonl")
	id := "d43c4a4c-0a74-409f-85f3-0097afb5aade"
	os.WriteFile(filepath.Join(project, id+".jsonl"), main, 0o600)
	old := time.Now().Add(-time.Minute)
	os.Chtimes(filepath.Join(project, id+".jsonl"), old, old)
	os.MkdirAll(filepath.Join(project, id, "subagents"), 0o700)
	os.WriteFile(filepath.Join(project, id, "subagents", "agent-a1.jsonl"), sub, 0o600)

	u, err := Once(Claude{ProjectDir: project})
	if err != nil || u.Source != id+".jsonl" || statuses(u) != "cc" {
		t.Fatalf("%+v %v", u, err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	updates := make(chan Update, 100)
	go Follow(ctx, Claude{ProjectDir: project}, func(u Update) { updates <- u })
	if u := <-updates; u.Source != id+".jsonl" || statuses(u) != "cc" {
		t.Fatalf("first update %+v", u)
	}
	// A sub-agent transcript starting now, in a new session directory.
	os.MkdirAll(filepath.Join(project, "other", "subagents"), 0o700)
	os.WriteFile(filepath.Join(project, "other", "subagents", "agent-b2.jsonl"), sub, 0o600)
	// Then a line in the followed transcript: the next update is its.
	f, _ := os.OpenFile(filepath.Join(project, id+".jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"type":"assistant","message":{"id":"m9","role":"assistant","content":[{"type":"tool_use","id":"x","name":"TaskUpdate","input":{"taskId":"1","status":"in_progress"}}]}}` + "\n")
	f.WriteString(`{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"x","content":"Updated task #1 status"}]},"toolUseResult":{"success":true}}` + "\n")
	f.Close()
	select {
	case u := <-updates:
		if u.Source != id+".jsonl" || statuses(u) != "ic" {
			t.Fatalf("update %+v (%s)", u, statuses(u))
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no update")
	}
}

// TestClaudeNoPlan: a default Claude Code 2.1.330 session lists its tools
// and none keeps a plan; the update says so.
func TestClaudeNoPlan(t *testing.T) {
	t.Parallel()
	project := t.TempDir()
	data, _ := os.ReadFile("../plan/testdata/claude-code-2.1.330_default.jsonl")
	os.WriteFile(filepath.Join(project, "s.jsonl"), data, 0o600)
	u, err := Once(Claude{ProjectDir: project})
	if err != nil || u.Version != nil || !u.NoPlan {
		t.Fatalf("%+v %v", u, err)
	}
}
