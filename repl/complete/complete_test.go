package complete

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/todo-shell/todo-shell/tools/todo"
)

func setup(t testing.TB) (*Completer, string) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	os.Mkdir(bin, 0o755)
	for _, n := range []string{"gitk", "git", "grep"} {
		os.WriteFile(filepath.Join(bin, n), []byte("#!/bin/sh\n"), 0o755)
	}
	os.WriteFile(filepath.Join(bin, "gnotexec"), nil, 0o644)
	work := filepath.Join(dir, "work")
	os.MkdirAll(filepath.Join(work, "src dir"), 0o755)
	os.MkdirAll(filepath.Join(work, "docs"), 0o755)
	os.WriteFile(filepath.Join(work, "notes.txt"), nil, 0o644)
	os.WriteFile(filepath.Join(work, "notes.md"), nil, 0o644)
	os.WriteFile(filepath.Join(work, ".hidden"), nil, 0o644)
	os.WriteFile(filepath.Join(work, "spaced one"), nil, 0o644)
	os.WriteFile(filepath.Join(work, "spaced two"), nil, 0o644)
	home := filepath.Join(dir, "home")
	os.MkdirAll(filepath.Join(home, "projects"), 0o755)
	return &Completer{
		Builtins: []string{"/help", "/history", "/exit", "/tools"},
		Commands: []string{"TodoWrite", "TodoRead"},
		Flags:    map[string][]string{"TodoRead": {"--json"}, "TodoWrite": {"--help"}},
		Path:     bin,
		Dir:      func() string { return work },
		Home:     home,
	}, work
}

func TestComplete(t *testing.T) {
	c, _ := setup(t)
	cases := []struct {
		line   string
		common string
		want   string // displays, space-separated
	}{
		{"/he", "/help ", "/help"},
		{"/h", "/h", "/help /history"},
		{"TodoW", "TodoWrite ", "TodoWrite"},
		{"Todo", "Todo", "TodoRead TodoWrite"},
		{"gi", "git", "git gitk"},
		{"gn", "", ""}, // not executable
		{"ls | gr", "grep ", "grep"},
		{"!Todo", "", ""},
		{"cat no", "notes.", "notes.md notes.txt"},
		{"cat notes.t", "notes.txt ", "notes.txt"},
		{"cd sr", `src\ dir/`, "src dir/"},
		{"cat spa", `spaced\ `, "spaced one spaced two"},
		{"cd 'sr", `'src dir/`, "src dir/"},
		{"cat ~/pr", "~/projects/", "projects/"},
		{"cat .h", ".hidden ", ".hidden"},
		{"TodoRead --j", "--json ", "--json"},
		{"echo d", "docs/", "docs/"},
	}
	for _, tc := range cases {
		t.Run(tc.line, func(t *testing.T) {
			r := c.Complete(tc.line, len(tc.line))
			var got []string
			for _, cand := range r.Candidates {
				got = append(got, cand.Display)
			}
			if strings.Join(got, " ") != tc.want || r.Common != tc.common {
				t.Fatalf("got %q common %q, want %q common %q", got, r.Common, tc.want, tc.common)
			}
		})
	}
}

func TestTodoWriteInsertsList(t *testing.T) {
	c, _ := setup(t)
	items := []todo.Item{{Content: "Fix Bob's bug", Status: "in_progress", ActiveForm: "Fixing"}}
	c.Arg = func(command string) (string, string, bool) {
		return todo.EditableArg(items), "the current list", command == todo.WriteName
	}
	r := c.Complete("TodoWrite ", 10)
	want := `'{
  "todos": [
    {
      "content": "Fix Bob\u0027s bug",
      "status": "in_progress",
      "activeForm": "Fixing"
    }
  ]
}'`
	if r.Common != want || r.Start != 10 {
		t.Fatalf("got %q at %d", r.Common, r.Start)
	}
	items = nil
	if r := c.Complete("TodoWrite ", 10); !strings.Contains(r.Common, `"status": "pending"`) {
		t.Fatalf("template: %q", r.Common)
	}
}

func TestColumns(t *testing.T) {
	names := []string{"alpha", "beta", "gamma", "delta", "epsilon"}
	got := Columns(names, 30, 5)
	want := []string{"alpha    gamma    epsilon", "beta     delta"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("%q", got)
	}
	many := make([]string, 100)
	for i := range many {
		many[i] = fmt.Sprintf("file%03d", i)
	}
	got = Columns(many, 40, 4)
	if len(got) != 4 || got[3] != "… 88 more" {
		t.Fatalf("%q", got)
	}
}

// BenchmarkTab10kFiles is one Tab on a path in a directory of 10,000 files.
func BenchmarkTab10kFiles(b *testing.B) {
	c, work := setup(b)
	big := filepath.Join(work, "big")
	os.Mkdir(big, 0o755)
	for i := range 10000 {
		os.WriteFile(filepath.Join(big, fmt.Sprintf("file-%05d.txt", i)), nil, 0o644)
	}
	b.ResetTimer()
	for b.Loop() {
		r := c.Complete("cat big/file-01", len("cat big/file-01"))
		if len(r.Candidates) != 1000 {
			b.Fatal(len(r.Candidates))
		}
		Columns(displays(r), 100, 22)
	}
}

func displays(r Result) []string {
	var out []string
	for _, c := range r.Candidates {
		out = append(out, c.Display)
	}
	return out
}
