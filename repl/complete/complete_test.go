package complete

import (
	"fmt"
	"os"
	"os/exec"
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
		{"cd sr", `'src dir/`, "src dir/"},
		{"cat spa", `'spaced `, "spaced one spaced two"},
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

func TestTemplates(t *testing.T) {
	c := &Completer{Commands: []string{"TaskCreate", "TaskList"}, Arg: func(command string) (string, string, bool) {
		if command == "TaskCreate" {
			return `'{"subject":""}'`, "a template", true
		}
		return "", "", false
	}}
	res := c.Complete("TaskCreate ", len("TaskCreate "))
	if len(res.Candidates) != 1 || res.Candidates[0].Insert != `'{"subject":""}'` || res.Start != len("TaskCreate ") {
		t.Fatalf("%+v", res)
	}
	if cur := res.Candidates[0].Cursor; cur != len(`'{"subject":"`) {
		t.Errorf("cursor at %d, want inside the empty subject", cur)
	}
	if res := c.Complete("TaskList ", len("TaskList ")); len(res.Candidates) == 1 && res.Candidates[0].Display == "a template" {
		t.Fatalf("a template for a command without one: %+v", res)
	}
}

// TestQuoteControlBytes: a name with a control byte is quoted as bash's
// $'...', which bash reads back as the name (trial finding: Tab gave
// new\<newline>line.txt, a line continuation bash read as newline.txt);
// other names keep their backslashes or the quote they were begun with.
func TestQuoteControlBytes(t *testing.T) {
	tests := []struct {
		name  string
		quote byte
		want  string
	}{
		{"new\nline.txt", 0, `$'new\nline.txt'`},
		{"new\nline.txt", '\'', `$'new\nline.txt'`},
		{"new\nline.txt", '"', `$'new\nline.txt'`},
		{"tab\there", 0, `$'tab\there'`},
		{"esc\x1b[31m", 0, `$'esc\x1b[31m'`},
		{"it's\r\\", 0, `$'it\'s\r\\'`},
		{"del\x7f", 0, `$'del\x7f'`},
		{"~/a\nb", 0, `~/$'a\nb'`},
		{"plain name", 0, `'plain name'`},
		{"it's here", 0, `"it's here"`},
		{"plain name", '\'', `'plain name'`},
	}
	_, bashErr := exec.LookPath("bash")
	for _, tc := range tests {
		got := quoteWord(tc.name, tc.quote)
		if got != tc.want {
			t.Errorf("quoteWord(%q, %q) = %s, want %s", tc.name, tc.quote, got, tc.want)
		}
		if bashErr != nil || strings.HasPrefix(tc.name, "~/") {
			continue
		}
		out, err := exec.Command("bash", "-c", "printf %s "+got).Output()
		if err != nil || string(out) != tc.name {
			t.Errorf("bash reads %s as %q (%v), want %q", got, out, err, tc.name)
		}
	}
}

// TestCompleteNameWithNewline: Tab on a file named new<newline>line.txt
// inserts $'new\nline.txt'.
func TestCompleteNameWithNewline(t *testing.T) {
	c, work := setup(t)
	if err := os.WriteFile(filepath.Join(work, "new\nline.txt"), nil, 0o644); err != nil {
		t.Skip("no newline in file names here:", err)
	}
	res := c.Complete("cat new", len("cat new"))
	if len(res.Candidates) != 1 || res.Candidates[0].Insert != `$'new\nline.txt' ` {
		t.Fatalf("candidates %+v", res.Candidates)
	}
}
