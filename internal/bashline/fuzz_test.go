package bashline

import (
	"reflect"
	"strings"
	"testing"
)

// seeds are lines of every kind the package reads.
var seeds = []string{
	`TodoWrite '{"todos":[{"content":"a","status":"pending","activeForm":"b"}]}'`,
	"echo $'\\'';touch PWN;#'", "echo a #'\ntouch PWN #'", "echo () { touch PWN; }; echo",
	"if true; then rm -rf x; fi", "cat <<EOF\n$(rm x)\nEOF", "sh -c 'eval \"rm x\"'",
	"find . -exec sudo env X=1 rm {} +", "echo 'open", "echo a \\", "for x in", "x='a[$(id)]'; ((x))",
	"cat <<'E F'\nx", "bash <<< 'ls'", "echo ${a:-$(b)} `c` <(d) >(e)",
}

// wordsSeeds are agent arguments in single quotes, with the bytes the
// parser reads otherwise inside them.
var wordsSeeds = []string{
	"''", " \t'a b' ", "'a\\\nb'", "'a\\b'", "'a\r\nb'", "'a\x00b'", "'\xff'", "'é'", "'a'b'", "'a' 'b'",
	"'a'\n", "\n'a'", "'a' #c", "'a\nb'", "'$(x) `y` \"z\"'",
}

// FuzzCheck: Check and the Scanner never panic; the Scanner fed line by
// line agrees with Check on the text so far; a complete status has no
// problem and an incomplete one names a line within the text.
func FuzzCheck(f *testing.F) {
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 4096 {
			return
		}
		var sc Scanner
		defer sc.Close()
		lines := strings.Split(s, "\n")
		for i, l := range lines {
			inc := sc.Line(l)
			if inc && sc.Status() != status(sc.Text()) {
				t.Fatalf("%q after line %d: the scanner's status %+v, the text's %+v", s, i, sc.Status(), status(sc.Text()))
			}
			if i == len(lines)-1 {
				st := Check(s)
				if inc != (st.Wait != Complete) {
					t.Fatalf("%q: the scanner says incomplete=%v, Check %+v", s, inc, st)
				}
				if (st.Problem(1) == "") != (st.Wait == Complete) || st.Wait != Complete && (st.Line < 1 || st.Line > len(lines)) {
					t.Fatalf("%q: status %+v, problem %q", s, st, st.Problem(1))
				}
			}
		}
	})
}

// FuzzWords: Words never panics and gives what the parser gives (its
// fast path for one single-quoted word included); words quoted back with
// Quote and read again are the same words.
func FuzzWords(f *testing.F) {
	for _, s := range append(seeds, wordsSeeds...) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		words, err := Words(s)
		if pw, perr := parseWords(s); !reflect.DeepEqual(words, pw) || (err == nil) != (perr == nil) {
			t.Fatalf("%q: Words %q, %v; the parser %q, %v", s, words, err, pw, perr)
		}
		if err != nil {
			return
		}
		for _, w := range words {
			if strings.ContainsAny(w, "$`*?[{~") || strings.Contains(w, "\x00") {
				return // kept as written: not a plain value
			}
		}
		var quoted []string
		for _, w := range words {
			quoted = append(quoted, Quote(w))
		}
		again, err := Words(strings.Join(quoted, " "))
		if err != nil || !reflect.DeepEqual(again, words) && (len(again) != 0 || len(words) != 0) {
			t.Fatalf("%q: words %q, after quoting %q (%v)", s, words, again, err)
		}
	})
}

// FuzzCommands: Commands never panics, and every command it lists comes
// with the chain of wrappers it ends in.
func FuzzCommands(f *testing.F) {
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 4096 {
			return
		}
		l := Commands(s, Options{ReadFile: func(string) (string, error) { return "rm -rf x; sh -c 'id'", nil }})
		for _, c := range l.Commands {
			if len(c.Words) != len(c.Static) {
				t.Fatalf("%q: %d words, %d static flags", s, len(c.Words), len(c.Static))
			}
			if len(c.Words) > 0 && c.Opaque == "" && len(c.Chain) > 0 && !reflect.DeepEqual(c.Chain[len(c.Chain)-1], c.Words) && !c.Runner {
				last := c.Chain[len(c.Chain)-1]
				if len(last) < len(c.Words) {
					t.Fatalf("%q: chain %q does not end in words %q", s, c.Chain, c.Words)
				}
			}
		}
	})
}
