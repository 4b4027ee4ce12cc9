package permission

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// decision is one case of TestDecisions: a call, the mode and rules, and
// what the policy must decide.
type decision struct {
	line              string // a Bash command, or "Write PATH" / "Edit PATH"
	mode              Mode
	allow, ask, deny  []string
	want              Verdict
	rule              string   // the deciding or first suggested rule ("" to skip)
	always, notAlways []string // rules "always" must offer, and must not
}

// TestDecisions holds issue 26's table: every attack of the issue and the
// rules around them, a line, a mode and rules each, with the decision.
// HOME is a temporary directory; the working directory holds s.sh (a
// script that runs rm) and a .git directory.
func TestDecisions(t *testing.T) {
	echo := []string{"Bash(echo:*)"}
	denyRm := []string{"Bash(rm:*)"}
	const (
		def    = ModeDefault
		edits  = ModeAcceptEdits
		bypass = ModeBypass
	)
	tests := []decision{
		// The three critical holes: a command run under Bash(echo:*).
		{line: `echo $'\'';touch PWN;#'`, allow: echo, want: Ask, rule: "Bash(touch:*)"},
		{line: "echo a #'\ntouch PWN #'", allow: echo, want: Ask, rule: "Bash(touch:*)"},
		{line: "echo a #\"\ntouch PWN #\"", allow: echo, want: Ask, rule: "Bash(touch:*)"},
		{line: "echo () { touch PWN; }; echo", allow: echo, want: Ask, rule: "Bash(touch:*)"},
		{line: "ls () { touch PWN; }; ls", allow: []string{"Bash(ls:*)"}, want: Ask, rule: "Bash(touch:*)"},
		{line: `echo $'\''`, allow: echo, want: Allowed},
		{line: "echo a #'", allow: echo, want: Allowed},
		// A deny rule holds wherever the command stands, however written,
		// in bypassPermissions too.
		{line: "if true; then rm -rf x; fi", mode: bypass, deny: denyRm, want: Denied, rule: "Bash(rm:*)"},
		{line: "for f in a; do rm -rf $f; done", mode: bypass, deny: denyRm, want: Denied},
		{line: "case a in a) rm -rf x;; esac", mode: bypass, deny: denyRm, want: Denied},
		{line: "X=1 rm -rf x", mode: bypass, deny: denyRm, want: Denied},
		{line: "command rm -rf x", mode: bypass, deny: denyRm, want: Denied},
		{line: "time rm -rf x", mode: bypass, deny: denyRm, want: Denied},
		{line: `\rm -rf x`, mode: bypass, deny: denyRm, want: Denied},
		{line: `'rm' -rf x`, mode: bypass, deny: denyRm, want: Denied},
		{line: `r"m" -rf x`, mode: bypass, deny: denyRm, want: Denied},
		{line: "if true; then rm -rf x; fi", deny: denyRm, want: Denied},
		{line: `\rm -rf x`, deny: denyRm, allow: []string{"Bash"}, want: Denied},
		{line: "while false; do rm x; done", mode: bypass, deny: denyRm, want: Denied},
		{line: "until true; do rm x; done", mode: bypass, deny: denyRm, want: Denied},
		{line: "{ rm x; }", mode: bypass, deny: denyRm, want: Denied},
		{line: "(rm x)", mode: bypass, deny: denyRm, want: Denied},
		{line: "f() { rm x; }", mode: bypass, deny: denyRm, want: Denied},
		{line: "echo $(rm x)", mode: bypass, deny: denyRm, want: Denied},
		{line: "echo `rm x`", mode: bypass, deny: denyRm, want: Denied},
		{line: "diff <(rm x) y", mode: bypass, deny: denyRm, want: Denied},
		{line: "tee >(rm x)", mode: bypass, deny: denyRm, want: Denied},
		{line: "echo $(( $(rm x) ))", mode: bypass, deny: denyRm, want: Denied},
		{line: "cat <<EOF\n$(rm x)\nEOF", mode: bypass, deny: denyRm, want: Denied},
		{line: "cat <<'EOF'\n$(rm x)\nEOF", mode: bypass, deny: denyRm, want: Allowed},
		{line: "X=$(rm x)", mode: bypass, deny: denyRm, want: Denied},
		{line: "echo ${X:-$(rm x)}", mode: bypass, deny: denyRm, want: Denied},
		{line: "[[ -n $(rm x) ]]", mode: bypass, deny: denyRm, want: Denied},
		{line: "ls | rm x", mode: bypass, deny: denyRm, want: Denied},
		{line: "ls && rm x || true", mode: bypass, deny: denyRm, want: Denied},
		{line: "ls & rm x", mode: bypass, deny: denyRm, want: Denied},
		{line: "! rm x", mode: bypass, deny: denyRm, want: Denied},
		{line: "coproc rm x", mode: bypass, deny: denyRm, want: Denied},
		{line: "/bin/rm x", mode: bypass, deny: denyRm, want: Denied},
		{line: "$'rm' x", mode: bypass, deny: denyRm, want: Denied},
		// … and through every wrapper.
		{line: "builtin rm x", mode: bypass, deny: denyRm, want: Denied},
		{line: "exec rm x", mode: bypass, deny: denyRm, want: Denied},
		{line: "env -i -u HOME A=1 rm x", mode: bypass, deny: denyRm, want: Denied},
		{line: "env -S 'rm x'", mode: bypass, deny: denyRm, want: Denied},
		{line: "nice -n 5 rm x", mode: bypass, deny: denyRm, want: Denied},
		{line: "nohup rm x", mode: bypass, deny: denyRm, want: Denied},
		{line: "timeout -k 1 5 rm x", mode: bypass, deny: denyRm, want: Denied},
		{line: "stdbuf -oL rm x", mode: bypass, deny: denyRm, want: Denied},
		{line: "setsid rm x", mode: bypass, deny: denyRm, want: Denied},
		{line: "sudo -u root rm x", mode: bypass, deny: denyRm, want: Denied},
		{line: "doas rm x", mode: bypass, deny: denyRm, want: Denied},
		{line: "echo x | xargs -0 rm", mode: bypass, deny: denyRm, want: Denied},
		{line: `find . -exec rm {} \;`, mode: bypass, deny: denyRm, want: Denied},
		{line: "find . -execdir rm {} +", mode: bypass, deny: denyRm, want: Denied},
		{line: `find . -ok rm {} ';'`, mode: bypass, deny: denyRm, want: Denied},
		{line: "sh -c 'rm x'", mode: bypass, deny: denyRm, want: Denied},
		{line: `bash -ec "rm x"`, mode: bypass, deny: denyRm, want: Denied},
		{line: "zsh -c 'rm x'", mode: bypass, deny: denyRm, want: Denied},
		{line: "dash -c 'ls; rm x'", mode: bypass, deny: denyRm, want: Denied},
		{line: "eval 'rm x'", mode: bypass, deny: denyRm, want: Denied},
		{line: "eval \"echo a; rm x\"", mode: bypass, deny: denyRm, want: Denied},
		{line: "source s.sh", mode: bypass, deny: denyRm, want: Denied},
		{line: ". ./s.sh", mode: bypass, deny: denyRm, want: Denied},
		{line: "bash s.sh", mode: bypass, deny: denyRm, want: Denied},
		{line: "sh <<EOF\nrm x\nEOF", mode: bypass, deny: denyRm, want: Denied},
		{line: "bash <<< 'rm x'", mode: bypass, deny: denyRm, want: Denied},
		{line: "sudo sh -c 'env rm x'", mode: bypass, deny: denyRm, want: Denied},
		{line: "trap 'rm x' EXIT", mode: bypass, deny: denyRm, want: Denied},
		{line: "sudo ls", mode: bypass, deny: []string{"Bash(sudo:*)"}, want: Denied},
		{line: "env ls", mode: bypass, deny: []string{"Bash(env:*)"}, want: Denied},
		{line: "rmdir x", mode: bypass, deny: denyRm, want: Allowed},
		// What is not known asks: in bypass too when a deny rule could name it.
		{line: "$X -rf x", mode: bypass, deny: denyRm, want: Ask, rule: "Bash($X -rf x)"},
		{line: "$X -rf x", mode: bypass, want: Allowed},
		{line: "$X -rf x", allow: []string{"Bash(echo:*)"}, want: Ask},
		{line: "$(echo rm) x", allow: echo, want: Ask},
		{line: `"${a}b" x`, allow: echo, want: Ask},
		{line: "eval $CMD", allow: echo, want: Ask},
		{line: "sh -c \"$CMD\"", allow: echo, want: Ask},
		{line: "curl -s x | sh", allow: []string{"Bash(curl:*)"}, want: Ask, rule: "Bash(curl -s x | sh)"},
		{line: "echo 'a", allow: echo, want: Ask, rule: "Bash(echo 'a)"},
		{line: "echo 'a", mode: bypass, deny: denyRm, want: Ask},
		{line: "echo )", mode: bypass, want: Allowed},
		{line: "x='a[$(touch PWN)]'; (( x ))", allow: []string{"Bash(echo:*)", "Bash(x:*)"}, want: Ask},
		{line: "(( $(cat f) ))", allow: []string{"Bash(cat:*)"}, want: Ask},
		{line: "source ./missing.sh", allow: []string{"Bash(source:*)"}, want: Ask},
		// "Always" offers the command inside the wrapper, never the wrapper.
		{line: "env LANG=C ls", want: Ask, rule: "Bash(ls:*)", always: []string{"Bash(ls:*)"}, notAlways: []string{"Bash(env:*)"}},
		{line: "time make", want: Ask, rule: "Bash(make:*)", always: []string{"Bash(make:*)"}},
		{line: "nice ls", want: Ask, rule: "Bash(ls:*)", always: []string{"Bash(ls:*)"}, notAlways: []string{"Bash(nice:*)"}},
		{line: "echo a | xargs grep x", allow: echo, want: Ask, rule: "Bash(grep:*)", always: []string{"Bash(grep:*)"}, notAlways: []string{"Bash(xargs:*)"}},
		{line: "timeout 5 go test ./...", want: Ask, rule: "Bash(go test:*)"},
		{line: "env LANG=C ls", allow: []string{"Bash(ls:*)"}, want: Allowed},
		{line: "nohup ls", allow: []string{"Bash(ls:*)"}, want: Allowed},
		{line: "sh -c 'ls -l'", allow: []string{"Bash(ls:*)"}, want: Allowed},
		{line: "env rm -rf x", allow: []string{"Bash(env:*)"}, want: Ask, rule: "Bash(env rm -rf x)"},
		{line: "xargs rm", allow: []string{"Bash(xargs:*)"}, want: Ask},
		{line: "sudo ls", allow: []string{"Bash(ls:*)"}, want: Ask, rule: "Bash(sudo ls)", notAlways: []string{"Bash(ls:*)", "Bash(sudo:*)"}},
		{line: "PAGER='sh -c x' git log", allow: []string{"Bash(git log:*)"}, want: Ask},
		{line: "PATH=/tmp/evil:$PATH; ls", allow: []string{"Bash(ls:*)"}, want: Ask},
		{line: "LANG=C ls", allow: []string{"Bash(ls:*)"}, want: Allowed},
		// Risky parts ask under a prefix rule, and "always" is not offered.
		{line: "find victim -delete", allow: []string{"Bash(find:*)"}, want: Ask, rule: "Bash(find victim -delete)"},
		{line: "find . -name '*.go'", allow: []string{"Bash(find:*)"}, want: Allowed},
		{line: "find . -exec rm {} +", allow: []string{"Bash(find:*)"}, want: Ask},
		{line: "find . -exec grep x {} +", allow: []string{"Bash(find:*)"}, want: Ask, rule: "Bash(grep:*)"},
		{line: "find . -exec grep x {} +", allow: []string{"Bash(find:*)", "Bash(grep:*)"}, want: Allowed},
		{line: "echo x >> ~/.bashrc", allow: echo, want: Ask, rule: "Bash(echo x >> ~/.bashrc)", notAlways: echo},
		{line: "echo x > /tmp/outside-26", allow: echo, want: Ask, rule: "Bash(echo x > /tmp/outside-26)"},
		{line: "echo x > notes.txt", allow: echo, want: Allowed},
		{line: "echo x 2>&1 >/dev/null", allow: echo, want: Allowed},
		{line: "echo x >&2", allow: echo, want: Allowed},
		{line: "echo x > $F", allow: echo, want: Ask},
		{line: "cd ~ && echo x >> .bashrc", allow: []string{"Bash(cd:*)", "Bash(echo:*)"}, want: Ask},
		{line: "cd /tmp && echo x > notes", allow: []string{"Bash(cd:*)", "Bash(echo:*)"}, want: Ask},
		{line: "{ echo x; } > /tmp/outside-26", allow: echo, want: Ask},
		{line: "sed -i 's/a/b/' ~/.bashrc", allow: []string{"Bash(sed:*)"}, want: Ask},
		{line: "sed -i.bak 's/a/b/' notes.txt", allow: []string{"Bash(sed:*)"}, want: Ask},
		{line: "sed 's/a/b/' notes.txt", allow: []string{"Bash(sed:*)"}, want: Allowed},
		{line: "git log --output=/tmp/x", allow: []string{"Bash(git log:*)"}, want: Ask},
		{line: "git log --output /tmp/x", allow: []string{"Bash(git log:*)"}, want: Ask},
		{line: "git log --oneline", allow: []string{"Bash(git log:*)"}, want: Allowed},
		{line: "git push --force", allow: []string{"Bash(git push:*)"}, want: Ask},
		{line: "git push origin +main", allow: []string{"Bash(git push:*)"}, want: Ask},
		{line: "git push origin main", allow: []string{"Bash(git push:*)"}, want: Allowed},
		{line: "git reset --hard HEAD~1", allow: []string{"Bash(git reset:*)"}, want: Ask},
		{line: "git clean -fdx", allow: []string{"Bash(git clean:*)"}, want: Ask},
		{line: "git config core.hooksPath /tmp", allow: []string{"Bash(git config:*)"}, want: Ask},
		{line: "git config --get user.name", allow: []string{"Bash(git config:*)"}, want: Allowed},
		{line: "git -c core.pager='sh -c x' log", allow: []string{"Bash(git:*)"}, want: Ask},
		{line: "dd if=/dev/zero of=x", allow: []string{"Bash(dd:*)"}, want: Ask},
		{line: "chmod -R 777 .", allow: []string{"Bash(chmod:*)"}, want: Ask},
		{line: "chown -R me .", allow: []string{"Bash(chown:*)"}, want: Ask},
		{line: "truncate -s 0 notes.txt", allow: []string{"Bash(truncate:*)"}, want: Ask},
		{line: "rm -f notes.txt", allow: denyRm, want: Ask, rule: "Bash(rm -f notes.txt)"},
		{line: "rm -f notes.txt", allow: []string{"Bash(rm -f notes.txt)"}, want: Allowed, rule: "Bash(rm -f notes.txt)"},
		{line: "mv a /tmp/outside-26", allow: []string{"Bash(mv:*)"}, want: Ask},
		{line: "cp a ~/.ssh/authorized_keys", allow: []string{"Bash(cp:*)"}, want: Ask},
		{line: "cp a b", allow: []string{"Bash(cp:*)"}, want: Allowed},
		{line: "cp -t /tmp a", allow: []string{"Bash(cp:*)"}, want: Ask},
		{line: "ln -s ~/.bashrc notes", allow: []string{"Bash(ln:*)"}, want: Ask},
		{line: "echo x | tee -a ~/.zshrc", allow: []string{"Bash(echo:*)", "Bash(tee:*)"}, want: Ask},
		{line: "echo x | tee out.txt", allow: []string{"Bash(echo:*)", "Bash(tee:*)"}, want: Allowed},
		{line: "sort -o /tmp/outside-26 f", allow: []string{"Bash(sort:*)"}, want: Ask},
		{line: "curl -o x https://e.test", allow: []string{"Bash(curl:*)"}, want: Ask},
		{line: "echo x > /tmp/outside-26", allow: []string{"Bash(echo x > /tmp/outside-26)"}, want: Allowed},
		{line: "rm -rf build", allow: []string{"Bash"}, want: Allowed},
		// Protected paths ask in every mode but bypassPermissions.
		{line: "Write .todo-shell/settings.json", mode: edits, want: Ask, rule: "Write(.todo-shell/settings.json)"},
		{line: "Edit .todo-shell/settings.json", mode: edits, want: Ask, rule: "Edit(.todo-shell/settings.json)"},
		{line: "Write .todo-shell/settings.json", allow: []string{"Edit", "Write", "Edit(**)"}, want: Ask},
		{line: "Write .todo-shell/settings.json", allow: []string{"Write(.todo-shell/settings.json)"}, want: Allowed},
		{line: "Write .todo-shell/settings.json", mode: bypass, want: Allowed},
		{line: "Write .git/hooks/pre-commit", mode: edits, want: Ask, rule: "Write(.git/hooks/pre-commit)"},
		{line: "Edit .git/config", mode: edits, want: Ask},
		{line: "Write ~/.bashrc", mode: edits, allow: []string{"Write(~/**)"}, want: Ask, rule: "Write(~/.bashrc)"},
		{line: "Write ~/.ssh/authorized_keys", mode: edits, want: Ask},
		{line: "Write ~/xdg/todo-shell/settings.json", mode: edits, allow: []string{"Write(~/**)"}, want: Ask},
		{line: "Write sub/.todo-shell/settings.json", mode: edits, want: Ask},
		{line: "Write notes.txt", mode: edits, want: Allowed},
		{line: "Write .gitignore", mode: edits, want: Allowed},
		{line: "echo '{\"permissions\":{\"allow\":[\"Bash\"]}}' > .todo-shell/settings.json", mode: edits, allow: echo, want: Ask},
		{line: "echo x > .git/hooks/pre-commit", mode: edits, allow: []string{"Bash"}, want: Ask},
		{line: "cp hook .git/hooks/pre-commit", allow: []string{"Bash(cp:*)"}, want: Ask},
		{line: "echo x >> ~/.bashrc", mode: bypass, want: Allowed},
		{line: "echo x >> ~/.bashrc", mode: bypass, deny: []string{"Bash(echo:*)"}, want: Denied},
		// Rule syntax: prefix, space-star, wildcard, exact; ask rules.
		{line: "ls -la", allow: []string{"Bash(ls *)"}, want: Allowed},
		{line: "ls", allow: []string{"Bash(ls *)"}, want: Allowed},
		{line: "lsof", allow: []string{"Bash(ls *)"}, want: Ask},
		{line: "lsof", allow: []string{"Bash(ls:*)"}, want: Ask},
		{line: "git push origin main", allow: []string{"Bash(git * main)"}, want: Allowed},
		{line: "npm run test:unit", allow: []string{"Bash(npm run test:*)"}, want: Ask},
		{line: "npm run test --watch", allow: []string{"Bash(npm run test:*)"}, want: Allowed},
		{line: "git status", allow: []string{"Bash(git status)"}, want: Allowed},
		{line: "git status --short", allow: []string{"Bash(git status)"}, want: Ask},
		{line: "git 'status'", allow: []string{"Bash(git status)"}, want: Allowed},
		{line: "git push origin main", allow: []string{"Bash(git:*)"}, ask: []string{"Bash(git push:*)"}, want: Ask, rule: "Bash(git push:*)"},
		{line: "git push origin main", mode: bypass, ask: []string{"Bash(git push:*)"}, want: Ask},
		{line: "git push", deny: []string{"Bash(git push:*)"}, ask: []string{"Bash(git push:*)"}, want: Denied},
		{line: "Write notes.txt", mode: edits, ask: []string{"Write"}, want: Ask},
		{line: "ls", deny: []string{"Bash"}, want: Denied},
		{line: "# only a comment", want: Allowed},
		{line: "X=1", want: Allowed},
	}
	if len(tests) < 100 {
		t.Fatalf("%d cases; the issue asks for 100 or more", len(tests))
	}
	dir, home := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "s.sh"), []byte("ls\nrm -rf x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		name := tt.line
		if tt.mode != "" {
			name += " [" + string(tt.mode) + "]"
		}
		t.Run(name, func(t *testing.T) {
			p := New(Config{Allow: mustRules(t, tt.allow...), Ask: mustRules(t, tt.ask...), Deny: mustRules(t, tt.deny...),
				Mode: tt.mode, Dir: dir, Home: home, ConfigDir: filepath.Join(home, "xdg", "todo-shell")})
			tool, input := "Bash", bash(tt.line)
			for _, tl := range []string{"Write ", "Edit "} {
				if rest, ok := strings.CutPrefix(tt.line, tl); ok {
					if strings.HasPrefix(rest, "~/") {
						rest = filepath.Join(home, rest[2:])
					}
					tool = strings.TrimSpace(tl)
					input, _ = json.Marshal(map[string]string{"file_path": rest})
				}
			}
			d := p.Check(tool, input)
			var always []string
			for _, r := range d.Always {
				always = append(always, r.String())
			}
			if d.Verdict != tt.want || tt.rule != "" && d.Rule.String() != tt.rule {
				t.Fatalf("got %v %s (%s), want %v %s", d.Verdict, d.Rule, d.Why, tt.want, tt.rule)
			}
			for _, r := range tt.always {
				if !slices.Contains(always, r) {
					t.Errorf("always %q lacks %s", always, r)
				}
			}
			for _, r := range tt.notAlways {
				if slices.Contains(always, r) {
					t.Errorf("always %q offers %s", always, r)
				}
			}
		})
	}
}
