package files

import (
	"encoding/json"
	"testing"

	"github.com/todo-shell/todo-shell/tools"
)

// TestCallSummary: a file tool's call reads as its shell form for a person
// (Read main.go, Write notes.md (12 lines), Edit src/x.go (replace 1)),
// paths relative to the working directory when under it, not raw JSON.
func TestCallSummary(t *testing.T) {
	reg := tools.NewRegistry()
	st := NewState()
	st.Dir = func() string { return "/work/p" }
	if err := Register(reg, st); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		tool string
		in   map[string]any
		want string
	}{
		{"Read", map[string]any{"file_path": "/work/p/main.go"}, "Read main.go"},
		{"Read", map[string]any{"file_path": "/work/p/main.go", "offset": 10, "limit": 50}, "Read main.go (lines 10–59)"},
		{"Read", map[string]any{"file_path": "/work/p/main.go", "offset": 10}, "Read main.go (from line 10)"},
		{"Read", map[string]any{"file_path": "/etc/hostname"}, "Read /etc/hostname"},
		{"Read", map[string]any{"file_path": "/work/pother/a"}, "Read /work/pother/a"},
		{"Write", map[string]any{"file_path": "/work/p/notes.md", "content": "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\n"}, "Write notes.md (12 lines)"},
		{"Write", map[string]any{"file_path": "/work/p/one", "content": "x"}, "Write one (1 line)"},
		{"Edit", map[string]any{"file_path": "/work/p/src/x.go", "old_string": "a", "new_string": "b"}, "Edit src/x.go (replace 1)"},
		{"Edit", map[string]any{"file_path": "/work/p/src/x.go", "old_string": "a", "new_string": "b", "replace_all": true}, "Edit src/x.go (replace all)"},
		{"Edit", map[string]any{"file_path": "/work/p/a\nb"}, "Edit a b (replace 1)"},
		{"Write", map[string]any{"file_path": "/work/p/x"}, `Write({"file_path":"/work/p/x"})`},
	}
	for _, tt := range tests {
		in, _ := json.Marshal(tt.in)
		if got := reg.Summary(tt.tool, in); got != tt.want {
			t.Errorf("Summary(%s, %s) = %q, want %q", tt.tool, in, got, tt.want)
		}
	}
}
