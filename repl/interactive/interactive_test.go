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
		// Issue 29 item 15: a REPL is known by what it is, not by empty
		// arguments.
		{"python3 -q", true},
		{"python3 -X dev", true},
		{"python3 -i script.py", true},
		{"python3 -m http.server", false},
		{"python3 -", false},
		{"node --inspect", true},
		{"node --require ./x.js", true},
		{"node app.js", false},
		{"node -e 'console.log(1)'", false},
		{"psql -d db", true},
		{"psql -h localhost -U me db", true},
		{"psql -d db -c 'select 1'", false},
		{"psql -l", false},
		{"sqlite3 db", true},
		{"sqlite3 -cmd '.mode box' db", true},
		{"mysql -u root db", true},
		{"mysql -e 'show tables'", false},
		{"redis-cli -h host", true},
		{"redis-cli ping", false},
		{"ruby -e 'p 1'", false},
		{"ruby", true},
		{"lua -i x.lua", true},
		{"bash --norc", true},
		{"bash -c 'ls'", false},
		{"bash script.sh", false},
		{"bc -l", true},
		{"deno", true},
		{"deno run x.ts", false},
		{"docker run -it ubuntu", true},
		{"docker exec -ti c sh", true},
		{"docker run ubuntu ls", false},
		{"kubectl exec -it pod -- sh", true},
		// Its input is not the terminal: it reads that instead.
		{"echo 'print(1)' | python3", false},
		{"python3 < script.py", false},
		{"python3 <<EOF\nprint(1)\nEOF", false},
		{"echo x | less", true},
		// Wherever the program stands.
		{"env LANG=C python3 -q", true},
		{"(cd /tmp && psql -d db)", true},
		{"if true; then python3; fi", true},
		{"echo 'python3'", false},
		{"echo python3 # vim", false},
	}
	for _, c := range cases {
		t.Run(c.line, func(t *testing.T) {
			if got := d.Needs(c.line); got != c.want {
				t.Fatalf("Needs(%q) = %v", c.line, got)
			}
		})
	}
}
