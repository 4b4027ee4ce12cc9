package painter

import (
	"strings"
	"testing"

	"github.com/todo-shell/todo-shell/tools/todo"
)

func env(kv ...string) func(string) string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) string { return m[k] }
}

func TestSupportsBar(t *testing.T) {
	for _, tc := range []struct {
		env  func(string) string
		want bool
	}{
		{env(), false},
		{env("TERM", "xterm-256color"), false},
		{env("WT_SESSION", "abc"), true},
		{env("TERM_PROGRAM", "WezTerm"), true},
		{env("TERM_PROGRAM", "ghostty"), true},
		{env("ConEmuANSI", "ON"), true},
		{env("TERM_PROGRAM", "iTerm.app", "TERM_PROGRAM_VERSION", "3.5.14"), false},
		{env("TERM_PROGRAM", "iTerm.app", "TERM_PROGRAM_VERSION", "3.6.0"), true},
		{env("TERM_PROGRAM", "iTerm.app", "TERM_PROGRAM_VERSION", "4.0"), true},
		{env("TERM_PROGRAM", "WezTerm", "TMUX", "/tmp/tmux-0/default,1,0"), false},
		{env("WT_SESSION", "abc", "TERM", "screen-256color"), false},
	} {
		if got := ProgressBarSupported(tc.env); got != tc.want {
			t.Errorf("%v: %v", tc.env("TERM_PROGRAM")+tc.env("TERM_PROGRAM_VERSION")+tc.env("WT_SESSION"), got)
		}
	}
	if ProgressEnabled(true, env()) || ProgressEnabled(false, env("TODO_SHELL_NO_PROGRESS", "1")) || !ProgressEnabled(false, env("TODO_SHELL_NO_PROGRESS", "0")) {
		t.Error("Enabled")
	}
}

func TestProgress(t *testing.T) {
	list := []todo.Item{
		{Content: "a", Status: "completed", ActiveForm: "A"},
		{Content: "b", Status: "in_progress", ActiveForm: "Writing \x1b]2;evil\x07 tests"},
		{Content: "c", Status: "pending", ActiveForm: "C"},
	}
	if got := ProgressTitle(list); got != "1/3 ▸ Writing \x1b]2;evil\x07 tests" { // the text as it is: Set neutralises it

		t.Errorf("title %q", got)
	}
	var b strings.Builder
	p := NewProgress(&b, true)
	p.Set(list)
	p.Set(list) // unchanged: nothing written
	list[1].Status = "completed"
	list[2].Status = "completed"
	p.Set(list)
	p.Close()
	want := "\x1b[22;2t\x1b]2;1/3 ▸ Writing ␛]2;evil␇ tests\x07\x1b]9;4;1;33\x07" +
		"\x1b]2;3/3\x07\x1b]9;4;0;0\x07" + "\x1b]9;4;0;0\x07\x1b[23;2t"
	if b.String() != want {
		t.Errorf("wrote\n%q\nwant\n%q", b.String(), want)
	}
	b.Reset()
	q := NewProgress(&b, false)
	q.Set(list)
	q.Close()
	if strings.Contains(b.String(), "]9;4") || !strings.HasSuffix(b.String(), "\x1b[23;2t") {
		t.Errorf("no bar: %q", b.String())
	}
}
