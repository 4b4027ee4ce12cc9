package permission

import (
	"testing"

	"github.com/todo-shell/todo-shell/internal/bashline"
)

// FuzzCheckBash: the policy never panics on a command a model sends, and
// deny wins: a line whose commands include rm (as the checker reads them)
// is never allowed under a deny rule Bash(rm:*), in any mode.
func FuzzCheckBash(f *testing.F) {
	for _, s := range []string{
		"echo $'\\'';touch PWN;#'", "echo a #'\ntouch PWN #'", "echo () { touch PWN; }; echo",
		"if true; then rm -rf x; fi", `\rm x`, "env -i rm x", "sh -c 'eval rm x'", "find . -exec rm {} +",
		"echo x >> ~/.bashrc", "cat <<EOF\n$(rm x)\nEOF", "source s.sh", "$X", "echo 'open",
	} {
		f.Add(s)
	}
	dir := f.TempDir()
	deny := []Rule{{Tool: "Bash", Specifier: "rm:*", HasSpec: true}}
	policies := []*Policy{
		New(Config{Dir: dir, Home: dir, Mode: ModeBypass, Deny: deny}),
		New(Config{Dir: dir, Home: dir, Allow: []Rule{{Tool: "Bash"}}, Deny: deny}),
		New(Config{Dir: dir, Home: dir, Allow: []Rule{{Tool: "Bash", Specifier: "echo:*", HasSpec: true}}}),
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 4096 {
			return
		}
		for i, p := range policies {
			d := p.Check("Bash", bash(s))
			if i < 2 && d.Verdict == Allowed {
				for _, pt := range p.parts(bashline.Commands(s, p.bashOptions), nil) {
					if len(pt.cmd.Words) > 0 && pt.cmd.Words[0] == "rm" {
						t.Fatalf("%q allowed under deny Bash(rm:*)", s)
					}
				}
			}
		}
	})
}
