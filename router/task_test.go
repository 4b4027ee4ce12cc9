package router

import (
	"context"
	"testing"
)

func TestTaskCommands(t *testing.T) {
	sh, _ := newShell(t)
	tests := []struct {
		line, stdout, stderr string
		code                 int
	}{
		{"TodoRead", "No todos.", "", 0},
		{"TaskCreate", "", "Error: Missing JSON parameter\nUsage: TaskCreate '{\"subject\":\"...\",\"description\":\"...\"}'", 1},
		{"TaskCreate {a} {b}", "", "Error: Invalid JSON format\nExpected one argument, got 2: quote the JSON in single quotes\nUsage: TaskCreate '{\"subject\":\"...\",\"description\":\"...\"}'", 1},
		{"TaskCreate ''", "", "Error: The JSON argument is empty\nUsage: TaskCreate '{\"subject\":\"...\",\"description\":\"...\"}'", 1},
		{"TaskList ''", "", "Error: The JSON argument is empty\nUsage: TaskList '<JSON input>'", 1},
		{`TaskCreate '{"subject":"a","description":""}' x`, "", "Error: An extra argument after the JSON: \"x\"\nThe JSON is the only argument; remove the rest\nUsage: TaskCreate '{\"subject\":\"...\",\"description\":\"...\"}'", 1},
		{"TaskCreate '{\"subject\":'", "", "Error: Invalid JSON format\nParse error at line 1, column 12: unexpected end of JSON input\nUsage: TaskCreate '{\"subject\":\"...\",\"description\":\"...\"}'", 1},
		{`TaskCreate '{"subject":"","x":1}'`, "", "Error: Validation failed\n- 'subject' cannot be empty\n- 'description' is required\n- Unknown field 'x'", 1},
		{`TaskCreate '{"subject":"Read the spec","description":""}'`, "Task #1 created successfully: Read the spec", "", 0},
		{"TaskCreate '{\"subject\":\"Write\",\n \"description\":\"\", \"activeForm\":\"Writing\"}'", "Task #2 created successfully: Write", "", 0},
		{`TaskUpdate '{"taskId":"2","addBlockedBy":["1"]}'`, "Updated task #2 blockedBy", "", 0},
		{`TaskUpdate '{"taskId":"9","status":"completed"}'`, "", "Error: Task #9 not found", 1},
		{`TaskUpdate '{"taskId":"1","status":"in_progress","owner":"bob"}'`, "Updated task #1 status, owner", "", 0},
		{"TaskList", "#1 [in_progress] Read the spec (owner: bob)\n#2 [pending] Write (blocked by #1)", "", 0},
		{`TaskGet '{"taskId":"1"}'`, "Task #1: Read the spec\nStatus: in_progress\nOwner: bob\nBlocks: #2\nDescription: (none)", "", 0},
		{"TodoRead", "[>] #1 Read the spec @bob\n[ ] #2 Write ⊘ blocked by #1\n\n(0/2 completed)", "", 0},
		{"TodoRead --json", `{"todos":[]}`, "", 0},
		// Issue 29, item 19: JSON that is not an object gets the usage
		// line, with the id given for a task id alone.
		{"TaskGet 2", "", "Error: Validation failed\n- Input must be a JSON object\nUsage: TaskGet '{\"taskId\":\"2\"}'", 1},
		{`TaskUpdate "3"`, "", "Error: Validation failed\n- Input must be a JSON object\nUsage: TaskUpdate '{\"taskId\":\"3\",\"status\":\"in_progress\"}'", 1},
		{"TaskGet '[1]'", "", "Error: Validation failed\n- Input must be a JSON object\nUsage: TaskGet '{\"taskId\":\"1\"}'", 1},
		{"TaskCreate true", "", "Error: Validation failed\n- Input must be a JSON object\nUsage: TaskCreate '{\"subject\":\"...\",\"description\":\"...\"}'", 1},
		{"TodoWrite 2", "", "Error: Validation failed\n- Input must be a JSON object with a 'todos' array\nUsage: TodoWrite '{\"todos\":[...]}'", 1},
	}
	for _, tt := range tests {
		out := sh.Run(context.Background(), Classify(tt.line, sh.Executor), nil)
		if out.Stdout != tt.stdout || out.Stderr != tt.stderr || out.ExitCode != tt.code {
			t.Errorf("%s:\n got %q %q %d\nwant %q %q %d", tt.line, out.Stdout, out.Stderr, out.ExitCode, tt.stdout, tt.stderr, tt.code)
		}
	}
}
