package interactive

import "testing"

func TestNeeds(t *testing.T) {
	d := New("mytui, other")
	cases := []struct {
		line string
		want bool
	}{
		{"vim a.txt", true},
		{"/usr/bin/less -R file", true},
		{"git log | less", true},
		{"top", true},
		{"python", true},
		{"python script.py", false},
		{"python3 -c 'print(1)'", false},
		{"node", true},
		{"sqlite3", true},
		{"sqlite3 db 'select 1'", false},
		{"ls -la", false},
		{"echo 'vim is great | less'", false},
		{"FOO=1 vim x", true},
		{"sudo htop", true},
		{"make && ssh host", true},
		{"mytui --flag", true},
		{"other", true},
		{"git commit", true},
		{"git commit -m 'x'", false},
		{"git add -p", true},
		{"git status", false},
		{"git -c user.name=t commit --allow-empty", true},
		{"git -c user.name=t commit -m x", false},
		{"git -C /tmp/repo commit", true},
		{"git -C /tmp/repo commit -m x", false},
		{"git --git-dir=.git --work-tree=. commit", true},
		{"git --git-dir .git commit", true},
		{"git --no-pager -c core.editor=vim add -p", true},
		{"git -c commit.verbose=true status", false},
		{"git -C commit status", false},
		{"git --namespace commit log", false},
		{"git -C dir", false},
		{"git", false},
	}
	for _, c := range cases {
		t.Run(c.line, func(t *testing.T) {
			if got := d.Needs(c.line); got != c.want {
				t.Fatalf("Needs(%q) = %v", c.line, got)
			}
		})
	}
}
