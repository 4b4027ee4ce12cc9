package files

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/todo-shell/todo-shell/tools"
)

func call(t *testing.T, reg *tools.Registry, name string, in map[string]any) tools.ToolResult {
	t.Helper()
	b, _ := json.Marshal(in)
	return reg.Execute(context.Background(), "toolu_f", name, b)
}

func newReg(t *testing.T) *tools.Registry {
	reg := tools.NewRegistry()
	if err := Register(reg, NewState()); err != nil {
		t.Fatal(err)
	}
	return reg
}

func TestRead(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	var long strings.Builder
	for i := 1; i <= 2500; i++ {
		fmt.Fprintf(&long, "line %d\n", i)
	}
	small := write("small.txt", "alpha\nbeta\r\ngamma")
	one := write("one.txt", "only\n")
	empty := write("empty.txt", "")
	bin := write("bin.dat", "PK\x03\x04\x00\x00data")
	many := write("many.txt", long.String())
	wide := write("wide.txt", strings.Repeat("x", 2500)+"\nshort\n")
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		in      map[string]any
		isError bool
		has     []string
		hasNot  []string
	}{
		{"cat -n", map[string]any{"file_path": small}, false, []string{"     1\talpha\n     2\tbeta\n     3\tgamma\n"}, []string{"\r"}},
		{"offset and limit", map[string]any{"file_path": small, "offset": 2, "limit": 1}, false, []string{"     2\tbeta\n", "(lines 2-2 of 3"}, []string{"alpha"}},
		{"2000 lines by default", map[string]any{"file_path": many}, false, []string{"  2000\tline 2000\n", "(lines 1-2000 of 2500"}, []string{"line 2001"}},
		{"past the end", map[string]any{"file_path": small, "offset": 9}, false, []string{"offset 9 is past the end"}, nil},
		{"past the end of one line", map[string]any{"file_path": one, "offset": 5}, false, []string{"has 1 line; offset 5"}, nil},
		{"long line cut", map[string]any{"file_path": wide}, false, []string{"[line cut at 2000 characters]", "     2\tshort"}, []string{strings.Repeat("x", 2001)}},
		{"empty", map[string]any{"file_path": empty}, false, []string{"exists and is empty"}, nil},
		{"binary", map[string]any{"file_path": bin}, false, []string{"binary file of 10 bytes"}, nil},
		{"directory", map[string]any{"file_path": dir}, true, []string{"is a directory"}, nil},
		{"relative", map[string]any{"file_path": "small.txt"}, true, []string{"absolute path"}, nil},
		{"missing", map[string]any{"file_path": filepath.Join(dir, "nope")}, true, []string{"no such file"}, nil},
		{"fifo does not hang", map[string]any{"file_path": fifo}, true, []string{"not a regular file"}, nil},
		{"unknown field", map[string]any{"file_path": small, "pages": 1}, true, []string{"unknown field"}, nil},
	}
	reg := newReg(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := call(t, reg, ReadName, tt.in)
			if res.IsError != tt.isError {
				t.Fatalf("is_error %v: %s", res.IsError, res.Content)
			}
			for _, s := range tt.has {
				if !strings.Contains(res.Content, s) {
					t.Fatalf("no %q in %.300q", s, res.Content)
				}
			}
			for _, s := range tt.hasNot {
				if strings.Contains(res.Content, s) {
					t.Fatalf("%q in %.300q", s, res.Content)
				}
			}
		})
	}
}

// TestWriteSaysOneLine: Write's result counts in words: "1 line", "1 byte".
func TestWriteSaysOneLine(t *testing.T) {
	reg := newReg(t)
	for content, want := range map[string]string{"x": "(1 byte, 1 line)", "ab\n": "(3 bytes, 1 line)", "a\nb\n": "(4 bytes, 2 lines)"} {
		p := filepath.Join(t.TempDir(), "f.txt")
		if res := call(t, reg, WriteName, map[string]any{"file_path": p, "content": content}); !strings.HasSuffix(res.Content, want) {
			t.Errorf("Write %q: %q, want it to end %q", content, res.Content, want)
		}
	}
}

func TestWriteAndEdit(t *testing.T) {
	type step struct {
		tool    string
		in      map[string]any
		isError string // "" for success, else a part of the error
		before  func(path string)
	}
	tests := []struct {
		name  string
		start *string // the file before; nil for none
		mode  os.FileMode
		steps []step
		want  string
	}{
		{"create", nil, 0, []step{{WriteName, map[string]any{"content": "new\n"}, "", nil}}, "new\n"},
		{"overwrite unread", ptr("old\n"), 0o600, []step{{WriteName, map[string]any{"content": "new\n"}, "has not been read", nil}}, "old\n"},
		{"overwrite read", ptr("old\n"), 0o600, []step{{ReadName, nil, "", nil}, {WriteName, map[string]any{"content": "new\n"}, "", nil}}, "new\n"},
		{"changed since read", ptr("old\n"), 0o600, []step{{ReadName, nil, "", nil}, {EditName, map[string]any{"old_string": "old", "new_string": "new"}, "has changed since it was read", func(p string) {
			os.WriteFile(p, []byte("other\n"), 0o600)
		}}}, "other\n"},
		{"edit once", ptr("a b a\n"), 0o640, []step{{ReadName, nil, "", nil}, {EditName, map[string]any{"old_string": "b", "new_string": "B"}, "", nil}}, "a B a\n"},
		{"edit twice after own edit", ptr("a b c\n"), 0o640, []step{{ReadName, nil, "", nil}, {EditName, map[string]any{"old_string": "b", "new_string": "B"}, "", nil}, {EditName, map[string]any{"old_string": "c", "new_string": "C"}, "", nil}}, "a B C\n"},
		{"not unique", ptr("a b a\n"), 0o640, []step{{ReadName, nil, "", nil}, {EditName, map[string]any{"old_string": "a", "new_string": "x"}, "occurs 2 times", nil}}, "a b a\n"},
		{"replace all", ptr("a b a\n"), 0o640, []step{{ReadName, nil, "", nil}, {EditName, map[string]any{"old_string": "a", "new_string": "x", "replace_all": true}, "", nil}}, "x b x\n"},
		{"not found", ptr("a\n"), 0o640, []step{{ReadName, nil, "", nil}, {EditName, map[string]any{"old_string": "zz", "new_string": "x"}, "was not found", nil}}, "a\n"},
		{"same strings", ptr("a\n"), 0o640, []step{{ReadName, nil, "", nil}, {EditName, map[string]any{"old_string": "a", "new_string": "a"}, "are the same", nil}}, "a\n"},
		{"edit missing file", nil, 0, []step{{EditName, map[string]any{"old_string": "a", "new_string": "b"}, "does not exist", nil}}, ""},
		{"crlf kept", ptr("one\r\ntwo\r\nthree\r\n"), 0o644, []step{{ReadName, nil, "", nil}, {EditName, map[string]any{"old_string": "one\ntwo", "new_string": "1\n2\n2.5"}, "", nil}}, "1\r\n2\r\n2.5\r\nthree\r\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "sub", "f.txt")
			if tt.start != nil {
				os.MkdirAll(filepath.Dir(path), 0o755)
				if err := os.WriteFile(path, []byte(*tt.start), tt.mode); err != nil {
					t.Fatal(err)
				}
				os.Chmod(path, tt.mode)
			}
			reg := newReg(t)
			for i, s := range tt.steps {
				if s.before != nil { // the change is seen by content, not by clock
					s.before(path)
				}
				in := map[string]any{"file_path": path}
				for k, v := range s.in {
					in[k] = v
				}
				res := call(t, reg, s.tool, in)
				if (s.isError != "") != res.IsError || !strings.Contains(res.Content, s.isError) {
					t.Fatalf("step %d %s: %v %q", i, s.tool, res.IsError, res.Content)
				}
			}
			got, err := os.ReadFile(path)
			if tt.want == "" && tt.start == nil {
				if err == nil {
					t.Fatal("a file was created")
				}
				return
			}
			if err != nil || string(got) != tt.want {
				t.Fatalf("file %q, %v; want %q", got, err, tt.want)
			}
			if tt.start != nil {
				if fi, _ := os.Stat(path); fi.Mode().Perm() != tt.mode {
					t.Fatalf("mode %v, want %v", fi.Mode().Perm(), tt.mode)
				}
			}
			if left, _ := filepath.Glob(filepath.Join(dir, "sub", ".*.tmp")); len(left) > 0 {
				t.Fatalf("temporary files left: %v", left)
			}
		})
	}
}

func ptr(s string) *string { return &s }

// TestShellArg: Tab after Read, Write or Edit offers a template with the
// path started at the working directory.
func TestShellArg(t *testing.T) {
	st := NewState()
	st.Dir = func() string { return "/work/it's" }
	for tool, want := range map[tools.ShellCompleter]string{
		readTool{st}:  `'{"file_path":"/work/it\u0027s/"}'`,
		writeTool{st}: `'{"file_path":"/work/it\u0027s/","content":""}'`,
		editTool{st}:  `'{"file_path":"/work/it\u0027s/","old_string":"","new_string":""}'`,
	} {
		if got, _, ok := tool.ShellArg(); !ok || got != want {
			t.Errorf("%T: %s", tool, got)
		}
	}
}
