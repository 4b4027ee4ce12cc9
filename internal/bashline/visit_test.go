package bashline

import (
	"reflect"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// walkSyntax is the reference walk: syntax.Walk over every node, with
// the input of each statement on a stack and the right sides of pipes
// in a set, calling enter as the visitor does.
func walkSyntax(w *walker, src string, f *syntax.File, ctx *context, depth int) {
	input := []bool{false}
	piped := map[*syntax.Stmt]bool{}
	syntax.Walk(f, func(n syntax.Node) bool {
		if n == nil {
			input = input[:len(input)-1]
			return true
		}
		in := input[len(input)-1]
		switch x := n.(type) {
		case *syntax.Stmt:
			in = in || piped[x]
		case *syntax.BinaryCmd:
			if x.Op == syntax.Pipe || x.Op == syntax.PipeAll {
				piped[x.Y] = true
			}
		}
		input = append(input, w.enter(src, n, in, ctx, depth))
		return true
	})
}

// visitLines are lines of every construct the visitor descends into.
var visitLines = append([]string{
	"a | b |& c && d || e; f & g",
	"if a; then b; elif c; then d; else e; fi",
	"while a; do b; done; until c; do d; done",
	"for i in $(a) `b`; do c; done; for ((i=$(d); i<$(e); i++)); do f; done",
	"case $(a) in $(b)) c;; x|y) d;& *) e;;& esac",
	"{ a; } > x; ( b ) < y; f() { c; }; function g { d; }",
	"(( a[$(b)] + $(c) )); let 'x=$(d)' y=1; [[ $(e) == $(f) && -n ${g[$(h)]} ]]",
	"declare -a x=($(a) [1]=$(b)) y=$(c); export z=$(d); local -i n=1",
	"time a | b; coproc c; coproc n { d; }; ! e",
	"x=$(a) y[$(b)]=c d=( $(e) ) f",
	"echo ${a:-$(b)} ${c/$(d)/$(e)} ${f:$(g):$(h)} ${#i} ${!j} ${k[$(l)]} \"${m:+\"$(n)\"}\"",
	"echo $(( $(a) + b[$(c)] )) $[ $(d) ] <(e) >(f) +(g|h) @(i)",
	"cat <<EOF <<-'F' <<< $(c)\n$(a) `b`\nEOF\n\t$(x)\n\tF",
	"a 2>&1 >$(b) &>c >>d <>e >|f {fd}>g",
	"sh -c 'a; b' && bash -c \"$(c)\" && eval 'd | e' && dash -c 'f' && zsh -c 'g' && ksh -c 'h'",
	"env -S 'a b' c; sudo -u x env X=1 nice -n 1 timeout 5 xargs -0 find . -exec rm {} + -ok d \\;",
	"source s.sh; . ./t.sh; bash u.sh; sh < v.sh; bash <<'E'\na\nE",
	"trap 'a' EXIT; alias x='b' y='c'; watch -n 1 'd | e'; su -c 'f' root",
	"echo $'\\'';touch PWN;#'", "x='a[$(id)]'; ((x))", "echo \"\\$(a)\" '$(b)' \\`c\\`",
	"[[ -v a[$(b)] ]] && [[ $c -eq $(d) ]] && [ $(e) -gt 1 ]",
}, seeds...)

// TestVisitMatchesWalk: the visitor reaches every node syntax.Walk
// reaches, in the same order: the lists are the same. So does a Reader
// used for many lines, as one used once.
func TestVisitMatchesWalk(t *testing.T) {
	opt := Options{ReadFile: func(string) (string, error) { return "rm x; sh -c 'id'", nil }}
	var shared Reader
	for _, line := range visitLines {
		checkVisit(t, &shared, line, opt)
	}
}

func checkVisit(t *testing.T, shared *Reader, line string, opt Options) {
	t.Helper()
	ref := &Reader{walkFile: walkSyntax}
	want := ref.Commands(line, opt)
	if got := new(Reader).Commands(line, opt); !reflect.DeepEqual(got, want) {
		t.Fatalf("%q: the visitor lists\n%+v\nsyntax.Walk\n%+v", line, got, want)
	}
	if got := shared.Commands(line, opt); !reflect.DeepEqual(got, want) {
		t.Fatalf("%q: a Reader used before lists\n%+v\na new one\n%+v", line, got, want)
	}
}

// FuzzVisit: TestVisitMatchesWalk on any line.
func FuzzVisit(f *testing.F) {
	for _, s := range visitLines {
		f.Add(s)
	}
	opt := Options{ReadFile: func(string) (string, error) { return "rm x; sh -c 'id'", nil }}
	var shared Reader
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 4096 {
			return
		}
		checkVisit(t, &shared, s, opt)
	})
}
