package bashline

import (
	"path"
	"regexp"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Command is one simple command bash could run, as the line says it.
type Command struct {
	// Words are the command's words after its assignments and the wrappers
	// it runs through: the name bash runs first, unquoted ("rm" for \rm,
	// 'rm' and r"m"). A word that is not static is kept as written.
	Words []string
	// Static says, word by word, whether the word is known before the
	// line runs (plain or quoted text, ~/ kept as written) or not ($X,
	// $(…), a glob).
	Static []bool
	// Chain is the command at each level of its wrappers, outermost
	// first and ending with Words: for `sudo env X=1 rm x`,
	// [sudo env X=1 rm x], [env X=1 rm x], [rm x].
	Chain [][]string
	// Wrappers are the commands it runs through, outermost first
	// ("sudo", "env", "sh -c", "find -exec", "eval"…).
	Wrappers []string
	// Assigns are the variables set for it: X=1 rm, env X=1 rm, sudo X=1 rm.
	Assigns []string
	// Writes are the files its output redirections write.
	Writes []Write
	// Text is the command as written, with its redirections.
	Text string
	// Opaque says why what runs cannot be known from the line: a name
	// that is not static ($X, $(…)), a string that is not static given to
	// eval or sh -c, a script read from a pipe. "" when it can.
	Opaque string
	// Runner is set for a command that only runs the commands of a string
	// or a file, each listed on its own (sh -c, eval, source, trap, alias):
	// it needs no rule of its own, but a deny rule still applies to it.
	Runner bool
	// Piped is set when the command's standard input is a pipe, a file or
	// a here-document (not the terminal).
	Piped bool
	// AsOther is set when it runs as another user (sudo, doas, su, pkexec,
	// runuser, chroot).
	AsOther bool
}

// Name is the command's name, "" for a line of assignments or redirections
// only.
func (c Command) Name() string {
	if len(c.Words) == 0 {
		return ""
	}
	return c.Words[0]
}

// Write is a file a redirection writes.
type Write struct {
	Path   string // the target, unquoted; "~/x" keeps its tilde
	Static bool   // the target is known before the line runs
	Text   string // the redirection as written
}

// Line is what a command line would run.
type Line struct {
	Commands []Command
	// Err is set when the line does not parse: what it runs is not known.
	Err error
	// Opaque says why the line may run commands it does not spell out
	// (a quoted $(…) where bash evaluates text as arithmetic); "" when
	// every command it runs is in Commands.
	Opaque string
	// Assigns are the variables the line sets for itself (X=1 alone,
	// export X=1, declare X=1).
	Assigns []string
	// ChangesDir is set when the line changes its directory (cd, pushd,
	// popd): a relative path after that is not under the directory it
	// started in.
	ChangesDir bool
}

// Options are what Commands may use beyond the line.
type Options struct {
	// ReadFile returns the text of a script the line runs (source FILE,
	// bash FILE): its commands are listed too. nil, or an error, makes such
	// a command opaque.
	ReadFile func(path string) (string, error)
}

// maxDepth bounds strings run as code inside strings run as code.
const maxDepth = 8

// Commands lists every simple command bash could run for src, wherever
// it stands: in pipelines and lists, in if/for/while/until/case bodies,
// { } and ( ), function bodies, command and process substitutions,
// arithmetic, here-documents and assignment values; and the commands run
// through wrappers (env, sudo, xargs, find -exec, sh -c, eval, source…).
func Commands(src string, opt Options) Line {
	w := &walker{opt: opt}
	w.line.Commands = make([]Command, 0, 16)
	w.code(src, nil, 0, "")
	if w.line.Opaque == "" && w.arith && (w.codeText || w.substitutes) {
		w.line.Opaque = "text it computes may be evaluated as arithmetic, which runs the $(…) in it"
	}
	return w.line
}

// walker collects a line's commands.
type walker struct {
	opt  Options
	line Line
	// What the line holds, for the arithmetic rule: a place where bash
	// evaluates text as arithmetic (where a[$(cmd)] runs cmd), a quoted
	// $(…), and a substitution or read whose text is not known.
	arith, codeText, substitutes bool
	seen                         map[string]bool // the commands added, while twice > 0
	twice                        int             // code being read in two languages
}

// context is where a string of code came from: the wrappers it runs
// through.
type context struct {
	wrappers []string
	asOther  bool
	// lang is the language of the shell that runs the code: sh and dash
	// read `$'…'` and `#` otherwise than bash, so their code is read both
	// ways and every command of either is listed.
	lang syntax.LangVariant
}

// code adds the commands of src, run through ctx's wrappers; via names
// what runs it ("" for the line itself).
func (w *walker) code(src string, ctx *context, depth int, via string) {
	if ctx == nil {
		ctx = &context{}
	}
	if ctx.lang != 0 && ctx.lang != syntax.LangBash {
		if _, err := syntax.NewParser(syntax.Variant(ctx.lang)).Parse(strings.NewReader(src), ""); err != nil {
			w.add(Command{Text: src, Wrappers: ctx.wrappers, AsOther: ctx.asOther, Opaque: "the text " + via + " runs is read otherwise by that shell"})
			return
		}
		w.twice++
		defer func() { w.twice-- }()
		w.file(src, ctx, depth, syntax.NewParser(syntax.Variant(ctx.lang)))
	}
	f, err := Parse(src)
	if err != nil {
		if via == "" {
			w.line.Err = err
			return
		}
		w.add(Command{Text: src, Wrappers: ctx.wrappers, AsOther: ctx.asOther, Opaque: "the text " + via + " runs does not parse"})
		return
	}
	w.walk(src, f, ctx, depth)
}

// file adds the commands of src as p parses it.
func (w *walker) file(src string, ctx *context, depth int, p *syntax.Parser) {
	if f, err := p.Parse(strings.NewReader(src), ""); err == nil {
		w.walk(src, f, ctx, depth)
	}
}

// walk adds the commands of a parsed file.
func (w *walker) walk(src string, f *syntax.File, ctx *context, depth int) {
	// input says, for each node being visited (a stack: Walk calls f(nil)
	// after a node's children), whether standard input there is a pipe,
	// a file or a here-document rather than the terminal.
	input := make([]bool, 1, 64)
	piped := map[*syntax.Stmt]bool{} // the right side of a pipe
	syntax.Walk(f, func(n syntax.Node) bool {
		if n == nil {
			input = input[:len(input)-1]
			return true
		}
		in := input[len(input)-1]
		switch x := n.(type) {
		case *syntax.Stmt:
			in = in || piped[x] || hasInput(x.Redirs)
			w.stmt(src, x, in, ctx, depth)
		case *syntax.BinaryCmd:
			if x.Op == syntax.Pipe || x.Op == syntax.PipeAll {
				piped[x.Y] = true
			}
		case *syntax.CmdSubst, *syntax.ProcSubst:
			in = false // their input is the line's
			w.substitutes = true
		case *syntax.DeclClause:
			w.decl(src, x, ctx)
		default:
			w.notice(n)
		}
		input = append(input, in)
		return true
	})
}

// notice notes the places where bash evaluates text as arithmetic (where
// a[$(cmd)] runs cmd) and quoted code, for the arithmetic rule.
func (w *walker) notice(n syntax.Node) {
	switch x := n.(type) {
	case *syntax.ArithmCmd, *syntax.ArithmExp, *syntax.LetClause, *syntax.CStyleLoop:
		w.arith = true
	case *syntax.ParamExp:
		if x.Index != nil || x.Exp != nil && x.Exp.Op == syntax.OtherParamOps {
			w.arith = true
		}
	case *syntax.Assign:
		if x.Index != nil || x.Array != nil {
			w.arith = true
		}
	case *syntax.BinaryTest:
		switch x.Op {
		case syntax.TsEql, syntax.TsNeq, syntax.TsLss, syntax.TsLeq, syntax.TsGtr, syntax.TsGeq:
			w.arith = true
		}
	case *syntax.UnaryTest:
		if x.Op == syntax.TsVarSet || x.Op == syntax.TsRefVar {
			w.arith = true
		}
	case *syntax.Word:
		if !w.codeText {
			for _, p := range x.Parts {
				w.look(p)
			}
		}
	}
}

// look notes a quoted $(…), `…` or $[…] in a part of a word: text that
// runs where bash evaluates it as arithmetic.
func (w *walker) look(p syntax.WordPart) {
	var v string
	switch x := p.(type) {
	case *syntax.Lit:
		v = unescape(x.Value, false)
	case *syntax.SglQuoted:
		v, _ = staticPart(x, false)
		if !x.Dollar {
			v = x.Value
		}
	case *syntax.DblQuoted:
		for _, in := range x.Parts {
			if lit, ok := in.(*syntax.Lit); ok {
				v += unescape(lit.Value, true)
			}
		}
	}
	if strings.Contains(v, "$(") || strings.Contains(v, "`") || strings.Contains(v, "$[") {
		w.codeText = true
	}
}

// hasInput reports whether redirections give a command its standard input.
func hasInput(rs []*syntax.Redirect) bool {
	for _, r := range rs {
		if (r.N == nil || r.N.Value == "0") && (r.Op == syntax.RdrIn || r.Op == syntax.RdrInOut || r.Op == syntax.DplIn ||
			r.Op == syntax.Hdoc || r.Op == syntax.DashHdoc || r.Op == syntax.WordHdoc) {
			return true
		}
	}
	return false
}

func (w *walker) add(c Command) {
	if w.twice > 0 { // sh's code read both ways gives most commands twice
		key := strings.Join(c.Wrappers, "\x00") + "\x01" + c.Text + "\x01" + strings.Join(c.Words, "\x00") + "\x01" + c.Opaque
		if w.seen == nil {
			w.seen = map[string]bool{}
		}
		if w.seen[key] {
			return
		}
		w.seen[key] = true
	}
	if c.Name() == "cd" || c.Name() == "pushd" || c.Name() == "popd" {
		w.line.ChangesDir = true
	}
	w.line.Commands = append(w.line.Commands, c)
}

// text is a node's source.
func text(src string, n syntax.Node) string {
	s, e := int(n.Pos().Offset()), int(n.End().Offset())
	if s < 0 || e > len(src) || s > e {
		return ""
	}
	return src[s:e]
}

// writes are the files redirections write.
func writes(src string, rs []*syntax.Redirect) []Write {
	var out []Write
	for _, r := range rs {
		switch r.Op {
		case syntax.RdrOut, syntax.AppOut, syntax.RdrAll, syntax.AppAll, syntax.RdrClob, syntax.RdrInOut:
		case syntax.DplOut:
			// >&2 and >&- copy or close a descriptor; >&word writes a file.
			if v, ok := Static(r.Word); ok && (v == "-" || isNumber(strings.TrimSuffix(v, "-"))) {
				continue
			}
		default:
			continue
		}
		p, ok := StaticPath(r.Word)
		if !ok {
			p = text(src, r.Word)
		}
		out = append(out, Write{Path: p, Static: ok, Text: text(src, r)})
	}
	return out
}

func isNumber(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// StaticPath is Static for a path: a leading ~ or ~/ stays, for the
// caller to expand.
func StaticPath(w *syntax.Word) (string, bool) {
	if w == nil || len(w.Parts) == 0 {
		return "", false
	}
	lit, ok := w.Parts[0].(*syntax.Lit)
	if !ok || !strings.HasPrefix(lit.Value, "~") {
		return Static(w)
	}
	head := lit.Value
	if i := strings.IndexByte(head, '/'); i >= 0 {
		head = head[:i]
	}
	if head != "~" || len(lit.Value) > 1 && lit.Value[1] != '/' {
		return "", false // ~user
	}
	rest := &syntax.Word{Parts: append([]syntax.WordPart{&syntax.Lit{Value: lit.Value[1:]}}, w.Parts[1:]...)}
	if lit.Value == "~" {
		rest.Parts = w.Parts[1:]
	}
	v, ok := Static(rest)
	if !ok && len(rest.Parts) > 0 {
		return "", false
	}
	return "~" + v, true
}

// stmt adds the command of a statement: its simple command with its
// redirections, or, for a compound command, what its redirections write.
func (w *walker) stmt(src string, s *syntax.Stmt, piped bool, ctx *context, depth int) {
	call, ok := s.Cmd.(*syntax.CallExpr)
	if !ok {
		if ws := writes(src, s.Redirs); len(ws) > 0 {
			var rt []string
			for _, x := range ws {
				rt = append(rt, x.Text)
			}
			w.add(Command{Text: strings.Join(rt, " "), Writes: ws, Wrappers: ctx.wrappers, AsOther: ctx.asOther})
		}
		return
	}
	var assigns []string
	for _, a := range call.Assigns {
		if a.Name != nil {
			assigns = append(assigns, a.Name.Value)
		}
	}
	ws := writes(src, s.Redirs)
	if len(call.Args) == 0 {
		w.line.Assigns = append(w.line.Assigns, assigns...)
		if len(ws) > 0 {
			w.add(Command{Text: stmtText(src, s), Writes: ws, Wrappers: ctx.wrappers, AsOther: ctx.asOther, Assigns: assigns})
		}
		return
	}
	words := make([]string, len(call.Args))
	static := make([]bool, len(call.Args))
	for i, a := range call.Args {
		words[i], static[i] = StaticPath(a) // ~/x stays ~/x: the home directory is known
		if !static[i] {
			words[i] = wordText(src, a)
		}
	}
	r := resolution{w: w, src: src, stmt: s, text: stmtText(src, s),
		depth: depth, piped: piped, writes: ws}
	r.resolve(words, static, assigns, ctx)
}

// stmtText is a statement as written, without the ; or & that ends it.
func stmtText(src string, s *syntax.Stmt) string {
	t := strings.TrimSpace(text(src, s))
	if strings.HasSuffix(t, ";") && !strings.HasSuffix(t, "\\;") || strings.HasSuffix(t, "&") && !strings.HasSuffix(t, "\\&") {
		t = strings.TrimSpace(t[:len(t)-1])
	}
	return t
}

// decl adds declare, export, local, readonly, typeset and nameref: commands
// that set variables.
func (w *walker) decl(src string, d *syntax.DeclClause, ctx *context) {
	words := []string{d.Variant.Value}
	for _, a := range d.Args {
		words = append(words, text(src, a))
		if a.Name != nil {
			w.line.Assigns = append(w.line.Assigns, a.Name.Value)
		}
	}
	static := make([]bool, len(words))
	static[0] = true
	w.arith = true // declare -i, declare 'a[$(…)]'
	w.add(Command{Words: words, Static: static, Chain: [][]string{words}, Text: text(src, d), Wrappers: ctx.wrappers, AsOther: ctx.asOther})
}

// resolution resolves one simple command through its wrappers.
type resolution struct {
	w      *walker
	src    string
	stmt   *syntax.Stmt
	text   string
	depth  int
	piped  bool
	writes []Write
}

// resolve adds the command of words (after assignments), looking through
// the wrappers it starts with.
func (r *resolution) resolve(words []string, static []bool, assigns []string, ctx *context) {
	c := Command{Text: r.text, Assigns: assigns, Writes: r.writes, Piped: r.piped, AsOther: ctx.asOther}
	if len(ctx.wrappers) > 0 {
		c.Wrappers = append([]string(nil), ctx.wrappers...)
	}
	for i := 0; ; {
		if i >= len(words) {
			// A wrapper with nothing to run (env alone prints the
			// environment): the command is the last wrapper.
			if len(c.Chain) > 0 {
				last := len(c.Chain) - 1
				c.Words, c.Static = c.Chain[last], static[len(words)-len(c.Chain[last]):]
				c.Wrappers = c.Wrappers[:len(c.Wrappers)-1]
			}
			r.w.add(c)
			return
		}
		c.Chain = append(c.Chain, words[i:])
		if !static[i] {
			c.Words, c.Static = words[i:], static[i:]
			c.Opaque = "the command's name is not known before it runs: " + words[i]
			r.w.add(c)
			return
		}
		name := path.Base(words[i])
		next, more := r.unwrap(name, words, static, i, &c)
		if next < 0 {
			c.Words, c.Static = words[i:], static[i:]
			r.w.add(c)
			for _, m := range more {
				m()
			}
			return
		}
		c.Wrappers = append(c.Wrappers, name)
		switch name {
		case "sudo", "doas", "pkexec", "runuser", "chroot":
			c.AsOther = true
		}
		i = next
	}
}

// shell is sh -c STRING, sh FILE, or sh reading its input (a
// here-document or here-string is the script; a pipe is not known).
func (r *resolution) shell(name string, args []string, static []bool, run func(string, string, bool) func()) []func() {
	cmd, j := shellOptions(args)
	if cmd {
		if j >= len(args) {
			return nil
		}
		return []func(){run(args[j], name+" -c", static[j])}
	}
	if j < len(args) {
		return []func(){r.script(args[j], static[j], name, run)}
	}
	// The script is the shell's input.
	for _, rd := range r.stmt.Redirs {
		if rd.N != nil && rd.N.Value != "0" {
			continue
		}
		switch rd.Op {
		case syntax.Hdoc, syntax.DashHdoc:
			v, ok := hdocText(rd)
			return []func(){run(v, name+" <<", ok)}
		case syntax.WordHdoc:
			v, ok := Static(rd.Word)
			return []func(){run(v, name+" <<<", ok)}
		case syntax.RdrIn:
			v, ok := StaticPath(rd.Word)
			return []func(){r.script(v, ok, name+" <", run)}
		}
	}
	if r.piped {
		return []func(){run("", name+" reading its input", false)}
	}
	return nil // an interactive shell: what a person types into it
}

// hdocText is the text a here-document gives, when it is known before the
// line runs: the body as written under a quoted delimiter (<<'EOF'), else
// the body with its escapes removed, if it has no expansion.
func hdocText(rd *syntax.Redirect) (string, bool) {
	if rd.Hdoc == nil {
		return "", true
	}
	quoted := false
	for _, p := range rd.Word.Parts {
		switch x := p.(type) {
		case *syntax.SglQuoted, *syntax.DblQuoted:
			quoted = true
		case *syntax.Lit:
			quoted = quoted || strings.Contains(x.Value, `\`)
		}
	}
	var b strings.Builder
	for _, p := range rd.Hdoc.Parts {
		lit, ok := p.(*syntax.Lit)
		if !ok {
			return "", false
		}
		if quoted {
			b.WriteString(lit.Value)
		} else {
			b.WriteString(unescape(lit.Value, true))
		}
	}
	return b.String(), true
}

// shellOptions reads a shell's options: whether -c is among them, and the
// index of the first operand.
func shellOptions(args []string) (cmd bool, j int) {
	for ; j < len(args); j++ {
		a := args[j]
		if a == "--" || a == "-" {
			return cmd, j + 1
		}
		if len(a) < 2 || (a[0] != '-' && a[0] != '+') {
			return cmd, j
		}
		switch a {
		case "-o", "+o", "-O", "+O", "--rcfile", "--init-file":
			j++
			continue
		}
		if a[0] == '-' && a[1] != '-' && strings.IndexByte(a, 'c') >= 0 {
			cmd = true
		}
	}
	return cmd, j
}

// script adds the commands of a script file the line runs.
func (r *resolution) script(file string, static bool, via string, run func(string, string, bool) func()) func() {
	via += " " + file
	if !static || r.w.opt.ReadFile == nil {
		return run("", via, false)
	}
	text, err := r.w.opt.ReadFile(file)
	if err != nil {
		return run("", via, false)
	}
	return run(text, via, true)
}

// find adds the commands find runs with -exec, -execdir, -ok and -okdir.
func (r *resolution) find(args []string, static []bool, c *Command) []func() {
	var more []func()
	for j := 0; j < len(args); j++ {
		switch args[j] {
		case "-exec", "-execdir", "-ok", "-okdir":
		default:
			continue
		}
		flag := args[j]
		k := j + 1
		for k < len(args) && (!static[k] || args[k] != ";" && args[k] != "+") {
			k++
		}
		words, st := args[j+1:k], static[j+1:k]
		if len(words) > 0 {
			ctx := &context{wrappers: append(append([]string(nil), c.Wrappers...), "find "+flag), asOther: c.AsOther}
			inner := &resolution{w: r.w, src: r.src, stmt: &syntax.Stmt{}, text: r.text, depth: r.depth}
			more = append(more, func() { inner.resolve(words, st, nil, ctx) })
		}
		j = k
	}
	return more
}

// options skips the options at the start of args: shortFlags take no
// value, shortValued take one (attached or the next word), long options
// (--name or --name=value) are listed in long (the valued ones take the
// next word when not given with =; a long option not listed is taken as
// a flag). It returns the index of the first word that is not an option,
// len(args) when there is none, -1 when args end inside an option.
func options(args []string, shortFlags, shortValued string, long ...string) int {
	valuedLong := map[string]bool{}
	for _, l := range long {
		valuedLong[l] = true
	}
	_ = valuedLong
	j := 0
	for j < len(args) {
		a := args[j]
		if a == "--" {
			return j + 1
		}
		if len(a) < 2 || a[0] != '-' {
			return j
		}
		if strings.HasPrefix(a, "--") {
			j++
			name := a[2:]
			if strings.Contains(name, "=") {
				continue
			}
			if longTakesValue(name) && valuedLong[name] {
				if j >= len(args) {
					return -1
				}
				j++
			}
			continue
		}
		j++
		for k := 1; k < len(a); k++ {
			if strings.IndexByte(shortValued, a[k]) >= 0 {
				if k == len(a)-1 {
					if j >= len(args) {
						return -1
					}
					j++
				}
				break
			}
		}
	}
	return j
}

// longTakesValue reports whether a long option of the wrappers takes a
// value in the next word (the others are flags).
func longTakesValue(name string) bool {
	switch name {
	case "user", "group", "chdir", "host", "prompt", "role", "type", "close-from", "other-user", "command-timeout",
		"signal", "kill-after", "input", "output", "error", "format", "class", "classdata", "userspec", "groups",
		"arg-file", "delimiter", "eof", "max-lines", "max-args", "max-procs", "max-chars", "process-slot-var",
		"interval", "adjustment", "unset":
		return true
	}
	return false
}

// hasFlag reports whether short option f is among opts.
func hasFlag(opts []string, f byte) bool {
	for _, o := range opts {
		if len(o) > 1 && o[0] == '-' && o[1] != '-' && strings.IndexByte(o[1:], f) >= 0 {
			return true
		}
	}
	return false
}

func containsWord(ws []string, w string) bool {
	for _, x := range ws {
		if x == w {
			return true
		}
	}
	return false
}

var assignment = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=`)

// isAssignment reports whether w is NAME=value.
func isAssignment(w string) bool { return assignment.MatchString(w) }

// isNiceNumber is nice's -N (-10, -+5).
func isNiceNumber(a string) bool {
	if len(a) < 2 || a[0] != '-' {
		return false
	}
	return isNumber(strings.TrimPrefix(a[1:], "+"))
}
