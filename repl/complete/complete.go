// Package complete finds Tab completions for a line typed at the shell: the
// first word from builtins, agent commands and executables on PATH; later
// words from file paths and each agent command's flags; and, for
// `TodoWrite `, the current todo list as editable JSON.
package complete

import (
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/todo-shell/todo-shell/internal/bashline"
)

// Completer completes lines. Fields left nil or empty are not offered.
type Completer struct {
	Builtins []string            // "/help", "/exit", …
	Commands []string            // agent commands: "TodoWrite", "TodoRead"
	Flags    map[string][]string // flags of agent commands: "TodoRead": {"--json"}
	Path     string              // the PATH to search for executables
	Dir      func() string       // the working directory
	Home     string              // what ~ stands for
	// Arg returns a whole argument to offer after an agent command's name
	// (the current list after "TodoWrite ") and what the list calls it.
	Arg func(command string) (insert, display string, ok bool)

	once  sync.Once
	execs []string // names in PATH's directories, sorted, unique
}

// Result is what Tab does: replace Line[Start:End] with the chosen
// candidate's Insert. With one candidate it completes; with several, Insert
// of the common prefix (Common) goes in at once and the candidates are
// listed.
type Result struct {
	Start, End int
	Candidates []Candidate
	Common     string // the longest common prefix of the Inserts, quoted
}

// Candidate is one completion.
type Candidate struct {
	Display string // what the list shows ("src/", "TodoWrite")
	Insert  string // the text that replaces the word (quoted, with a trailing space when final)
	// Cursor is where the cursor goes in Insert, a byte offset; 0 is after
	// it.
	Cursor int
}

// Complete completes the word that ends at cursor (a byte offset in line).
func (c *Completer) Complete(line string, cursor int) Result {
	if cursor < 0 || cursor > len(line) {
		cursor = len(line)
	}
	before := line[:cursor]
	words, start, partial, quote := split(before)
	res := Result{Start: start, End: cursor}
	cmdPos := len(words) == 0 || isSeparator(words[len(words)-1])
	switch {
	case len(words) == 1 && partial == "" && strings.TrimSpace(line[cursor:]) == "" && c.arg(words[0]) != nil:
		res.Candidates = c.arg(words[0])
	case len(words) == 0 && strings.HasPrefix(partial, "/") && !strings.Contains(partial[1:], "/"):
		res.Candidates = words2cands(prefixed(c.Builtins, partial))
	case cmdPos && !strings.Contains(partial, "/") && !strings.HasPrefix(partial, "~"):
		res.Candidates = c.commandNames(len(words) == 0, partial, quote)
	case len(words) > 0 && strings.HasPrefix(partial, "-") && c.Flags[words[0]] != nil:
		res.Candidates = words2cands(prefixed(c.Flags[words[0]], partial))
	default:
		res.Candidates = c.paths(partial, quote)
	}
	res.Common = common(res.Candidates)
	return res
}

// commandNames are the candidates for a command name: the shell's own
// commands and the executables on the PATH, or, after a "!" that starts
// the line (first), the executables alone.
func (c *Completer) commandNames(first bool, partial string, quote byte) []Candidate {
	bang := ""
	if first && strings.HasPrefix(partial, "!") {
		bang, partial = "!", partial[1:]
	}
	var names []string
	if bang == "" {
		names = append(names, prefixed(c.Commands, partial)...)
	}
	names = append(names, c.executables(partial)...)
	slices.Sort(names)
	names = slices.Compact(names)
	var out []Candidate
	for _, n := range names {
		out = append(out, Candidate{Display: n, Insert: bang + quoteWord(n, quote) + " "})
	}
	return out
}

// arg is the argument offered after command, as the one candidate; nil
// when the command offers none.
func (c *Completer) arg(command string) []Candidate {
	if c.Arg == nil || !slices.Contains(c.Commands, command) {
		return nil
	}
	insert, display, ok := c.Arg(command)
	if !ok {
		return nil
	}
	return []Candidate{{Display: display, Insert: insert, Cursor: templateCursor(insert)}}
}

// templateCursor is where the cursor goes in an offered argument: inside
// its first empty string value (a template's "content": ""), to type it at
// once; 0 (after the argument) when it has none, as a real list has not.
func templateCursor(arg string) int {
	best := 0
	for _, field := range []string{`: ""`, `:""`} {
		if i := strings.Index(arg, field); i >= 0 && (best == 0 || i+len(field)-1 < best) {
			best = i + len(field) - 1
		}
	}
	return best
}

func words2cands(ws []string) []Candidate {
	var out []Candidate
	for _, w := range ws {
		out = append(out, Candidate{Display: w, Insert: w + " "})
	}
	return out
}

// prefixed returns the entries of list starting with p.
func prefixed(list []string, p string) []string {
	var out []string
	for _, s := range list {
		if strings.HasPrefix(s, p) {
			out = append(out, s)
		}
	}
	return out
}

// maxExecMatches bounds the executables checked for one Tab.
const maxExecMatches = 500

// executables returns the executables on PATH starting with p. The names
// are read once (without a stat each); only the matches are checked.
func (c *Completer) executables(p string) []string {
	c.once.Do(func() {
		for _, dir := range filepath.SplitList(c.Path) {
			f, err := os.Open(dir)
			if err != nil {
				continue
			}
			names, _ := f.Readdirnames(-1)
			_ = f.Close() // only read
			c.execs = append(c.execs, names...)
		}
		sort.Strings(c.execs)
		c.execs = slices.Compact(c.execs)
	})
	if p == "" {
		return nil // every program on the system is no help
	}
	i := sort.SearchStrings(c.execs, p)
	var out []string
	for ; i < len(c.execs) && strings.HasPrefix(c.execs[i], p) && len(out) < maxExecMatches; i++ {
		if c.isExec(c.execs[i]) {
			out = append(out, c.execs[i])
		}
	}
	return out
}

func (c *Completer) isExec(name string) bool {
	for _, dir := range filepath.SplitList(c.Path) {
		if info, err := os.Stat(filepath.Join(dir, name)); err == nil && !info.IsDir() && info.Mode()&0o111 != 0 {
			return true
		}
	}
	return false
}

// paths completes a file path. A leading ~ or ~/ stands for Home.
func (c *Completer) paths(partial string, quote byte) []Candidate {
	dirPart, base := "", partial
	if i := strings.LastIndexByte(partial, '/'); i >= 0 {
		dirPart, base = partial[:i+1], partial[i+1:]
	} else if partial == "~" {
		dirPart, base = "~/", ""
	}
	dir := dirPart
	if strings.HasPrefix(dir, "~/") && c.Home != "" {
		dir = filepath.Join(c.Home, dir[2:]) + "/"
	}
	if !filepath.IsAbs(dir) && c.Dir != nil {
		dir = filepath.Join(c.Dir(), dir)
	}
	if dir == "" {
		dir = "."
	}
	f, err := os.Open(dir)
	if err != nil {
		return nil
	}
	defer func() { _ = f.Close() }() // only read
	entries, _ := f.ReadDir(-1)
	var out []Candidate
	for _, e := range entries {
		name := e.Name()
		if !strings.HasPrefix(name, base) || (strings.HasPrefix(name, ".") && !strings.HasPrefix(base, ".")) {
			continue
		}
		isDir := e.IsDir()
		if e.Type()&os.ModeSymlink != 0 {
			if info, err := os.Stat(filepath.Join(dir, name)); err == nil && info.IsDir() {
				isDir = true
			}
		}
		display, insert := name, quoteWord(dirPart+name, quote)
		if isDir {
			display += "/"
			insert = quoteWord(dirPart+name+"/", quote)
			if q := insert[len(insert)-1]; (q == '\'' || q == '"') && !strings.HasSuffix(insert, `\`+string(q)) {
				insert = insert[:len(insert)-1] // keep typing inside the quotes
			}
		} else {
			insert += " "
		}
		out = append(out, Candidate{Display: display, Insert: insert})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Display < out[j].Display })
	return out
}

// quoteWord quotes s for the shell: inside the quote the word was begun
// with (closing it), else as bashline.Quote quotes a word (single quotes,
// or bash's $'...' for control bytes, which do not survive typing). A
// leading ~/ stays bare so the shell expands it.
func quoteWord(s string, quote byte) string {
	if quote == 0 || hasControl(s) {
		if rest, ok := strings.CutPrefix(s, "~/"); ok {
			if rest == "" {
				return "~/"
			}
			return "~/" + bashline.Quote(rest)
		}
		return bashline.Quote(s)
	}
	switch quote {
	case '\'':
		return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	default: // '"'
		r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "$", `\$`, "`", "\\`")
		return `"` + r.Replace(s) + `"`
	}
}

// common is the longest common prefix of the candidates' inserts, without a
// trailing space unless there is one candidate.
func common(cs []Candidate) string {
	if len(cs) == 0 {
		return ""
	}
	p := cs[0].Insert
	for _, c := range cs[1:] {
		n := 0
		for n < len(p) && n < len(c.Insert) && p[n] == c.Insert[n] {
			n++
		}
		p = p[:n]
	}
	if len(cs) > 1 {
		if _, err := bashline.Words(p); strings.HasSuffix(p, " ") && !strings.HasSuffix(p, `\ `) && err == nil {
			p = p[:len(p)-1] // a word's end, which the candidates do not share
		}
		if strings.HasSuffix(p, `\`) && !strings.HasSuffix(p, `\\`) {
			p = p[:len(p)-1] // never end inside an escape
		}
	}
	return p
}

// isSeparator reports whether a word ends a command, so the next word is a
// command again.
func isSeparator(w string) bool {
	switch w {
	case "|", "||", "&&", ";", "&", "(", "$(", "`":
		return true
	}
	return false
}

// split breaks the text before the cursor into finished words (unquoted),
// and the word being typed: its start offset, its text without quotes and
// escapes, and the quote it is open in (0 for none).
func split(s string) (words []string, start int, partial string, quote byte) {
	var w wordSplit
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case quote != 0:
			switch {
			case ch == quote:
				quote = 0
			case ch == '\\' && quote == '"' && i+1 < len(s):
				i++
				w.cur.WriteByte(s[i])
			default:
				w.cur.WriteByte(ch)
			}
		case ch == '\'' || ch == '"':
			w.begin(i)
			quote = ch
		case ch == '\\' && i+1 < len(s):
			w.begin(i)
			i++
			w.cur.WriteByte(s[i])
		case ch == ' ' || ch == '\t' || ch == '\n':
			w.end()
		case ch == ';' || ch == '|' || ch == '&':
			w.end()
			var op string
			op, i = operator(s, i)
			w.words = append(w.words, op)
		default:
			w.begin(i)
			w.cur.WriteByte(ch)
		}
	}
	if !w.inWord {
		w.start = len(s)
	}
	return w.words, w.start, w.cur.String(), quote
}

// wordSplit is the state of split: the finished words and the word being
// read, if any, with its start.
type wordSplit struct {
	words  []string
	cur    strings.Builder
	inWord bool
	start  int
}

// begin starts a word at offset i unless one is being read.
func (w *wordSplit) begin(i int) {
	if !w.inWord {
		w.inWord, w.start = true, i
	}
}

// end finishes the word being read, if any.
func (w *wordSplit) end() {
	if w.inWord {
		w.words = append(w.words, w.cur.String())
		w.cur.Reset()
		w.inWord = false
	}
}

// operator returns the control operator starting at s[i] (;, |, ||, |&, &,
// && or &|) and the index of its last byte.
func operator(s string, i int) (op string, last int) {
	ch := s[i]
	if i+1 < len(s) && (s[i+1] == '|' || s[i+1] == '&') && ch != ';' {
		return s[i : i+2], i + 1
	}
	return s[i : i+1], i
}

// hasControl reports whether s holds a control byte (a newline, a tab, ESC,
// DEL…).
func hasControl(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] == 0x7f {
			return true
		}
	}
	return false
}
