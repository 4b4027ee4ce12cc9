package permission

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestParseRule(t *testing.T) {
	for in, want := range map[string]Rule{
		"Bash":                 {Tool: "Bash"},
		"Bash(*)":              {Tool: "Bash"},
		"Bash(git status)":     {Tool: "Bash", Specifier: "git status", HasSpec: true},
		"Bash(npm run test:*)": {Tool: "Bash", Specifier: "npm run test:*", HasSpec: true},
		"Edit(src/**)":         {Tool: "Edit", Specifier: "src/**", HasSpec: true},
	} {
		got, err := ParseRule(in)
		if err != nil || got != want || got.String() != in && in != "Bash(*)" {
			t.Errorf("ParseRule(%q) = %+v, %v", in, got, err)
		}
	}
	for _, bad := range []string{"", "Bash(x", "(x)", "Bash x"} {
		if _, err := ParseRule(bad); err == nil {
			t.Errorf("ParseRule(%q) accepted", bad)
		}
	}
	rules, err := ParseRules([]string{"Bash(git log:*),Read Edit(src/a b.go)"})
	if err != nil || len(rules) != 3 || rules[2].Specifier != "src/a b.go" {
		t.Fatalf("%+v %v", rules, err)
	}
}

func mustRules(t *testing.T, s ...string) []Rule {
	t.Helper()
	r, err := ParseRules(s)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func bash(cmd string) json.RawMessage {
	b, _ := json.Marshal(map[string]string{"command": cmd})
	return b
}

func file(path string) json.RawMessage {
	b, _ := json.Marshal(map[string]string{"file_path": path})
	return b
}

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	home := t.TempDir()
	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	readOnly := func(name string) bool { return name == "TodoRead" || name == "TodoWrite" }
	tests := []struct {
		name        string
		allow, deny []string
		mode        Mode
		tool        string
		input       json.RawMessage
		want        Verdict
		rule        string // the deciding or suggested rule
	}{
		{"no rule asks", nil, nil, "", "Bash", bash("rm -rf ~/x"), Ask, "Bash(rm -rf ~/x)"},
		{"exact", []string{"Bash(git status)"}, nil, "", "Bash", bash("git status"), Allowed, "Bash(git status)"},
		{"exact is exact", []string{"Bash(git status)"}, nil, "", "Bash", bash("git status --short"), Ask, "Bash(git status:*)"},
		{"prefix", []string{"Bash(npm run test:*)"}, nil, "", "Bash", bash("npm run test:unit -- -x"), Ask, "Bash(npm run:*)"},
		{"prefix words", []string{"Bash(npm run test:*)"}, nil, "", "Bash", bash("npm run test --watch"), Allowed, "Bash(npm run test:*)"},
		{"compound all allowed", []string{"Bash(git status)", "Bash(ls:*)"}, nil, "", "Bash", bash("git status && ls -la"), Allowed, "Bash(ls:*)"},
		{"compound one not", []string{"Bash(git status)"}, nil, "", "Bash", bash("git status && rm -rf /"), Ask, "Bash(rm -rf /)"},
		{"substitution", []string{"Bash(echo:*)"}, nil, "", "Bash", bash("echo $(rm -rf ~/x)"), Ask, "Bash(rm -rf ~/x)"},
		{"pipe", []string{"Bash(cat:*)"}, nil, "", "Bash", bash("cat f | sh"), Ask, "Bash(cat f | sh)"},
		{"deny wins", []string{"Bash"}, []string{"Bash(rm:*)"}, "", "Bash", bash("ls; rm -rf x"), Denied, "Bash(rm:*)"},
		{"deny wins over bypass", nil, []string{"Bash(rm:*)"}, ModeBypass, "Bash", bash("rm x"), Denied, "Bash(rm:*)"},
		{"bypass", nil, nil, ModeBypass, "Bash", bash("rm -rf ~/x"), Allowed, "Bash"},
		{"whole tool", []string{"Bash"}, nil, "", "Bash", bash("anything at all"), Allowed, "Bash"},
		{"unclosed quote", []string{"Bash(echo:*)"}, nil, "", "Bash", bash("echo 'x; rm -rf /"), Ask, "Bash(echo 'x; rm -rf /)"},
		{"read-only", nil, nil, "", "TodoRead", json.RawMessage(`{}`), Allowed, "TodoRead"},
		{"unknown tool asks", nil, nil, "", "Mystery", json.RawMessage(`{}`), Ask, "Mystery"},
		{"read anywhere", nil, nil, "", "Read", file("/etc/hostname"), Allowed, "Read"},
		{"read denied", nil, []string{"Read(~/.ssh/**)"}, "", "Read", file(filepath.Join(home, ".ssh", "id_rsa")), Denied, "Read(~/.ssh/**)"},
		{"edit asks", nil, nil, "", "Edit", file(filepath.Join(dir, "src", "a.go")), Ask, "Edit(src/a.go)"},
		{"edit rule", []string{"Edit(src/**)"}, nil, "", "Edit", file(filepath.Join(dir, "src", "x", "a.go")), Allowed, "Edit(src/**)"},
		{"edit rule covers write", []string{"Edit(src/**)"}, nil, "", "Write", file(filepath.Join(dir, "src", "a.go")), Allowed, "Edit(src/**)"},
		{"write rule", []string{"Write(docs/**)"}, nil, "", "Write", file(filepath.Join(dir, "docs", "a.md")), Allowed, "Write(docs/**)"},
		{"write rule not edit", []string{"Write(docs/**)"}, nil, "", "Edit", file(filepath.Join(dir, "docs", "a.md")), Ask, "Edit(docs/a.md)"},
		{"acceptEdits inside", nil, nil, ModeAcceptEdits, "Write", file(filepath.Join(dir, "new.txt")), Allowed, "Write"},
		{"acceptEdits outside", nil, nil, ModeAcceptEdits, "Write", file(filepath.Join(outside, "new.txt")), Ask, "Write(/" + filepath.Join(outside, "new.txt") + ")"},
		{"whole-tool rule not outside", []string{"Edit", "Write"}, nil, "", "Write", file("/tmp/../" + outside + "/x"), Ask, "Write(/" + filepath.Join(outside, "x") + ")"},
		{"symlink out", []string{"Write"}, nil, ModeAcceptEdits, "Write", file(filepath.Join(dir, "link", "x")), Ask, "Write(/" + filepath.Join(outside, "x") + ")"},
		{"rule names outside path", []string{"Write(/" + outside + "/**)"}, nil, "", "Write", file(filepath.Join(outside, "x")), Allowed, "Write(/" + outside + "/**)"},
		{"home rule", []string{"Edit(~/notes/**)"}, nil, "", "Edit", file(filepath.Join(home, "notes", "a.md")), Allowed, "Edit(~/notes/**)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := New(Config{Allow: mustRules(t, tt.allow...), Deny: mustRules(t, tt.deny...), Mode: tt.mode, Dir: dir, Home: home, ReadOnly: readOnly})
			d := p.Check(tt.tool, tt.input)
			rule := d.Rule.String()
			if d.Rule.Tool == "" {
				rule = tt.tool
			}
			if d.Verdict != tt.want || rule != tt.rule {
				t.Fatalf("got %v %s (%s), want %v %s", d.Verdict, rule, d.Why, tt.want, tt.rule)
			}
		})
	}
}

func TestSettings(t *testing.T) {
	allow, ask, deny, err := ParseSettings([]byte(`{"permissions":{"allow":["Bash(git diff:*)"],"ask":["Bash(git push:*)"],"deny":["Read(~/.ssh/**)"]},"other":1}`))
	if err != nil || len(allow) != 1 || len(ask) != 1 || len(deny) != 1 || allow[0].String() != "Bash(git diff:*)" {
		t.Fatalf("%v %v %v %v", allow, ask, deny, err)
	}
	env := map[string]string{"HOME": "/h"}
	if got := SettingsPaths("/p", func(k string) string { return env[k] }); !reflect.DeepEqual(got, []string{"/h/.config/todo-shell/settings.json", "/p/.todo-shell/settings.json"}) {
		t.Fatalf("%q", got)
	}
}

// TestCheckCompoundNamesEveryPart: a compound command asks about every part
// no rule allows — named in Why, each with its rule — and "always" offers
// the rules of the parts that are not risky (a risky part asks each time).
func TestCheckCompoundNamesEveryPart(t *testing.T) {
	tests := []struct {
		name    string
		allow   []string
		command string
		why     string
		rules   []string // every rule the call needs
		always  []string // the rules "always" may add
		risky   []string
	}{
		{"both parts", nil, "cat hello.py && head -n 3 notes.txt", `"cat hello.py" and "head -n 3 notes.txt" are not allowed`, []string{"Bash(cat:*)", "Bash(head:*)"}, []string{"Bash(cat:*)", "Bash(head:*)"}, nil},
		{"trial: cat then rm", nil, "cat hello.py && rm -f notes.txt", `"cat hello.py" and "rm -f notes.txt" are not allowed`, []string{"Bash(cat:*)", "Bash(rm -f notes.txt)"}, []string{"Bash(cat:*)"}, []string{"rm -f notes.txt"}},
		{"one part allowed", []string{"Bash(cat:*)"}, "cat hello.py && rm -f notes.txt", `"rm -f notes.txt" is not allowed`, []string{"Bash(rm -f notes.txt)"}, nil, []string{"rm -f notes.txt"}},
		{"three parts", nil, "ls; wc -l a | sort", `"ls", "wc -l a" and "sort" are not allowed`, []string{"Bash(ls:*)", "Bash(wc:*)", "Bash(sort:*)"}, []string{"Bash(ls:*)", "Bash(wc:*)", "Bash(sort:*)"}, nil},
		{"same rule twice", nil, "git status && git status --short", `"git status" and "git status --short" are not allowed`, []string{"Bash(git status:*)"}, []string{"Bash(git status:*)"}, nil},
		{"a risky part asks alone", nil, "echo a; echo b > /dev/full/x", `"echo a" and "echo b > /dev/full/x" are not allowed: writes outside the working directory: /dev/full/x`, []string{"Bash(echo:*)", "Bash(echo b > /dev/full/x)"}, []string{"Bash(echo:*)"}, []string{"echo b > /dev/full/x"}},
		{"single command", nil, "go test ./...", "", []string{"Bash(go test:*)"}, []string{"Bash(go test:*)"}, nil},
		{"single risky command", nil, "sudo apt install x", "", []string{"Bash(sudo apt install x)"}, nil, []string{"sudo apt install x"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := New(Config{Allow: mustRules(t, tt.allow...), Dir: t.TempDir()})
			d := p.Check("Bash", bash(tt.command))
			str := func(rs []Rule) []string {
				var out []string
				for _, r := range rs {
					out = append(out, r.String())
				}
				return out
			}
			if d.Verdict != Ask || d.Why != tt.why || !reflect.DeepEqual(str(d.Rules), tt.rules) ||
				!reflect.DeepEqual(str(d.Always), tt.always) || !reflect.DeepEqual(d.Risky, tt.risky) || d.Rule.String() != tt.rules[0] {
				t.Fatalf("got %v why %q rules %q always %q risky %q; want why %q rules %q always %q risky %q",
					d.Verdict, d.Why, str(d.Rules), str(d.Always), d.Risky, tt.why, tt.rules, tt.always, tt.risky)
			}
		})
	}
}
