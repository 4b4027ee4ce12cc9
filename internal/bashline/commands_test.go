package bashline

import (
	"fmt"
	"strings"
	"testing"
)

// names is every command of a line: its wrappers and words, one string
// each; opaque ones end in "?".
func names(l Line) []string {
	var out []string
	for _, c := range l.Commands {
		s := strings.Join(c.Words, " ")
		if len(c.Words) == 0 {
			s = c.Text
		}
		if len(c.Wrappers) > 0 {
			s = strings.Join(c.Wrappers, ">") + ">" + s
		}
		if c.Runner {
			s += "!"
		}
		if c.Opaque != "" {
			s += "?"
		}
		out = append(out, s)
	}
	if l.Opaque != "" {
		out = append(out, "OPAQUE")
	}
	if l.Err != nil {
		out = append(out, "ERR")
	}
	return out
}

func TestCommands(t *testing.T) {
	read := func(p string) (string, error) {
		if p == "s.sh" {
			return "rm from-file", nil
		}
		return "", fmt.Errorf("no")
	}
	tests := []struct {
		line string
		want string
	}{
		{"echo $'\\'';touch PWN;#'", "echo ' | touch PWN"},
		{"echo a #'\ntouch PWN #'", "echo a | touch PWN"},
		{"echo () { touch PWN; }; echo", "touch PWN | echo"},
		{"if true; then rm -rf x; fi", "true | rm -rf x"},
		{"for f in a; do rm -rf $f; done", "rm -rf $f"},
		{"case a in a) rm -rf x;; esac", "rm -rf x"},
		{"X=1 rm -rf x", "rm -rf x"},
		{"command rm -rf x", "command>rm -rf x"},
		{"time rm -rf x", "rm -rf x"},
		{"\\rm -rf x", "rm -rf x"},
		{"'rm' -rf x", "rm -rf x"},
		{"r\"m\" -rf x", "rm -rf x"},
		{"env LANG=C ls", "env>ls"},
		{"env -i -u X A=1 rm x", "env>rm x"},
		{"nice -n 5 ls", "nice>ls"},
		{"xargs grep x", "xargs>grep x"},
		{"timeout -s KILL 5 rm x", "timeout>rm x"},
		{"stdbuf -o0 rm x", "stdbuf>rm x"},
		{"setsid -f rm x", "setsid>rm x"},
		{"sudo -u root rm x", "sudo>rm x"},
		{"doas rm x", "doas>rm x"},
		{"nohup rm x", "nohup>rm x"},
		{"exec rm x", "exec>rm x"},
		{"builtin echo x", "builtin>echo x"},
		{"find . -name x -exec rm {} \\;", "find . -name x -exec rm {} ; | find -exec>rm {}"},
		{"sh -c 'rm x'", "sh -c rm x! | sh -c>rm x"},
		{"bash -ec \"rm x\"", "bash -ec rm x! | bash -c>rm x"},
		{"eval 'rm x'", "eval rm x! | eval>rm x"},
		{"eval $X", "eval $X! | eval>eval $X?"},
		{"source s.sh", "source s.sh! | source s.sh>rm from-file"},
		{". ./other.sh", ". ./other.sh! | . ./other.sh>. ./other.sh?"},
		{"$X rm", "$X rm?"},
		{"$(echo rm) x", "$(echo rm) x? | echo rm"},
		{"echo $(rm x) `ls` <(cat a) >(wc)", "echo $(rm x) `ls` <(cat a) >(wc) | rm x | ls | cat a | wc"},
		{"echo $(( $(rm x) + 1 ))", "echo $(( $(rm x) + 1 )) | rm x | OPAQUE"},
		{"cat <<EOF\n$(rm x)\nEOF", "cat | rm x"},
		{"cat <<'EOF'\n$(rm x)\nEOF", "cat"},
		{"X=$(rm x)", "rm x"},
		{"sh <<EOF\nrm x\nEOF", "sh! | sh <<>rm x"},
		{"echo rm x | sh", "echo rm x | sh! | sh reading its input>sh?"},
		{"trap 'rm x' EXIT", "trap rm x EXIT! | trap>rm x"},
		{"x='a[$(rm y)]'; (( x ))", "OPAQUE"},
		{"(( 1 + 2 )); echo '$(x)'", "echo $(x) | OPAQUE"},
		{"echo 'a", "ERR"},
		{"command -v rm", "command -v rm"},
		{"env", "env"},
		{"sudo env rm x", "sudo>env>rm x"},
		{"echo x > f", "echo x"},
		{"{ rm x; } > f", "> f | rm x"},
		{"a | b && c || d & e; f", "a | b | c | d | e | f"},
		{"coproc rm x", "rm x"},
		{"[[ $(rm x) ]]", "rm x"},
		{"watch -n1 'rm x'", "watch -n1 rm x! | watch>rm x"},
	}
	for _, tt := range tests {
		l := Commands(tt.line, Options{ReadFile: read})
		if got := strings.Join(names(l), " | "); got != tt.want {
			t.Errorf("Commands(%q) = %s\n want %s", tt.line, got, tt.want)
		}
	}
}
