package bashline

import (
	"fmt"
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
//
// It makes a parser for each line; a caller that reads many lines keeps a
// Reader instead.
func Commands(src string, opt Options) Line {
	var r Reader
	return r.Commands(src, opt)
}

// A Reader lists the commands of lines, as Commands does, with what it
// keeps from one line to the next: a parser for each language (a
// parser's buffers are 2 KB), and the arrays of the lists it returns.
// The zero Reader is ready. A Reader is not safe for concurrent use.
type Reader struct {
	src     strings.Reader
	parsers []langParser
	w       walker
	cmds    []Command // the commands of the last line
	arena   arena     // their words
	// walkFile, when set, walks each parsed file in place of the
	// visitor (a test's reference walk with syntax.Walk).
	walkFile func(w *walker, src string, f *syntax.File, ctx *context, depth int)
}

// langParser is a parser of one language.
type langParser struct {
	lang syntax.LangVariant
	p    *syntax.Parser
}

// Commands lists every simple command bash could run for src (see the
// package's Commands). The lists of the Line it returns (its commands
// and their words) are the Reader's: they are valid until its next
// Commands, which reuses them. The strings in them are not.
func (r *Reader) Commands(src string, opt Options) Line {
	clear(r.cmds)
	r.arena.reset()
	if r.cmds == nil {
		r.cmds = make([]Command, 0, 16)
	}
	r.w = walker{r: r, opt: opt, line: Line{Commands: r.cmds[:0]}}
	w := &r.w
	w.code(src, &context{}, 0, "")
	if w.line.Opaque == "" && w.arith && (w.codeText || w.substitutes) {
		w.line.Opaque = "text it computes may be evaluated as arithmetic, which runs the $(…) in it"
	}
	line := w.line
	r.cmds = line.Commands
	r.w = walker{}
	return line
}

// Parse parses src as a bash script with the Reader's parser.
func (r *Reader) Parse(src string) (*syntax.File, error) {
	return r.parse(src, syntax.LangBash)
}

// parse parses src in lang with the Reader's parser of lang.
func (r *Reader) parse(src string, lang syntax.LangVariant) (*syntax.File, error) {
	var p *syntax.Parser
	for _, lp := range r.parsers {
		if lp.lang == lang {
			p = lp.p
		}
	}
	if p == nil {
		p = syntax.NewParser(syntax.Variant(lang))
		r.parsers = append(r.parsers, langParser{lang, p})
	}
	r.src.Reset(src)
	f, err := p.Parse(&r.src, "")
	r.src.Reset("")
	return f, err
}

// walker collects a line's commands.
type walker struct {
	r    *Reader
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
	if ctx.lang != 0 && ctx.lang != syntax.LangBash {
		f, err := w.r.parse(src, ctx.lang)
		if err != nil {
			w.add(&Command{Text: src, Wrappers: ctx.wrappers, AsOther: ctx.asOther, Opaque: "the text " + via + " runs is read otherwise by that shell"})
			return
		}
		// Both readings' commands are listed, each once.
		w.twice++
		defer func() { w.twice-- }()
		w.walk(src, f, ctx, depth)
	}
	f, err := w.r.parse(src, syntax.LangBash)
	if err != nil {
		if via == "" {
			w.line.Err = err
			return
		}
		w.add(&Command{Text: src, Wrappers: ctx.wrappers, AsOther: ctx.asOther, Opaque: "the text " + via + " runs does not parse"})
		return
	}
	w.walk(src, f, ctx, depth)
}

// walk adds the commands of a parsed file: it visits every node
// syntax.Walk visits, in the same order (TestVisitMatchesWalk), carrying
// down whether standard input there is a pipe, a file or a
// here-document rather than the terminal.
func (w *walker) walk(src string, f *syntax.File, ctx *context, depth int) {
	if w.r.walkFile != nil {
		w.r.walkFile(w, src, f, ctx, depth)
		return
	}
	v := visitor{w: w, src: src, ctx: ctx, depth: depth}
	v.stmts(f.Stmts, false)
}

// enter notes a node the walk reaches, where in says whether standard
// input is not the terminal (for a statement: its own input, the right
// side of a pipe included); it returns that for the node's children.
func (w *walker) enter(src string, n syntax.Node, in bool, ctx *context, depth int) bool {
	switch x := n.(type) {
	case *syntax.Stmt:
		in = in || hasInput(x.Redirs)
		w.stmt(src, x, in, ctx, depth)
	case *syntax.CmdSubst, *syntax.ProcSubst:
		in = false // their input is the line's
		w.substitutes = true
	case *syntax.DeclClause:
		w.decl(src, x, ctx)
	case *syntax.Word:
		w.noticeWord(x)
	default:
		w.notice(n)
	}
	return in
}

// visitor visits the nodes of a parsed file as syntax.Walk does, doing
// what enter does on each: a direct descent, where syntax.Walk makes two
// calls through a function value per node. Where enter does nothing (a
// CallExpr, a Redirect…), nothing is called; a Lit, a SglQuoted and a
// comment hold nothing to note and no node, and are not visited.
type visitor struct {
	w     *walker
	src   string
	ctx   *context
	depth int
}

func (v *visitor) stmts(list []*syntax.Stmt, in bool) {
	for _, s := range list {
		v.stmt(s, in)
	}
}

func (v *visitor) stmt(s *syntax.Stmt, in bool) {
	if s == nil {
		return
	}
	in = in || hasInput(s.Redirs)
	v.w.stmt(v.src, s, in, v.ctx, v.depth)
	if s.Cmd != nil {
		v.command(s.Cmd, in)
	}
	for _, r := range s.Redirs {
		v.word(r.Word, in)
		if r.Hdoc != nil {
			v.word(r.Hdoc, in)
		}
	}
}

func (v *visitor) command(c syntax.Command, in bool) {
	switch x := c.(type) {
	case *syntax.CallExpr:
		for _, a := range x.Assigns {
			v.assign(a, in)
		}
		v.words(x.Args, in)
	case *syntax.Subshell:
		v.stmts(x.Stmts, in)
	case *syntax.Block:
		v.stmts(x.Stmts, in)
	case *syntax.IfClause, *syntax.WhileClause, *syntax.ForClause, *syntax.CaseClause:
		v.clause(x, in)
	case *syntax.BinaryCmd:
		v.stmt(x.X, in)
		v.stmt(x.Y, in || x.Op == syntax.Pipe || x.Op == syntax.PipeAll)
	case *syntax.FuncDecl:
		v.stmt(x.Body, in)
	case *syntax.ArithmCmd:
		v.w.notice(x)
		v.arithm(x.X, in)
	case *syntax.TestClause:
		v.test(x.X, in)
	case *syntax.DeclClause:
		v.w.decl(v.src, x, v.ctx)
		for _, a := range x.Args {
			v.assign(a, in)
		}
	case *syntax.LetClause:
		v.w.notice(x)
		for _, e := range x.Exprs {
			v.arithm(e, in)
		}
	case *syntax.TimeClause:
		v.stmt(x.Stmt, in)
	case *syntax.CoprocClause:
		if x.Name != nil {
			v.word(x.Name, in)
		}
		v.stmt(x.Stmt, in)
	case *syntax.TestDecl:
		v.word(x.Description, in)
		v.stmt(x.Body, in)
	default:
		panic(fmt.Sprintf("bashline: unexpected command node %T", c))
	}
}

// clause visits an if, a while or until, a for and a case.
func (v *visitor) clause(c syntax.Command, in bool) {
	switch x := c.(type) {
	case *syntax.IfClause:
		for ; x != nil; x = x.Else {
			v.stmts(x.Cond, in)
			v.stmts(x.Then, in)
		}
	case *syntax.WhileClause:
		v.stmts(x.Cond, in)
		v.stmts(x.Do, in)
	case *syntax.ForClause:
		switch l := x.Loop.(type) {
		case *syntax.WordIter:
			v.words(l.Items, in)
		case *syntax.CStyleLoop:
			v.w.notice(l)
			v.arithm(l.Init, in)
			v.arithm(l.Cond, in)
			v.arithm(l.Post, in)
		}
		v.stmts(x.Do, in)
	case *syntax.CaseClause:
		v.word(x.Word, in)
		for _, item := range x.Items {
			v.words(item.Patterns, in)
			v.stmts(item.Stmts, in)
		}
	}
}

func (v *visitor) assign(a *syntax.Assign, in bool) {
	v.w.notice(a)
	if a.Value != nil {
		v.word(a.Value, in)
	}
	v.arithm(a.Index, in)
	if a.Array != nil {
		for _, e := range a.Array.Elems {
			v.arithm(e.Index, in)
			if e.Value != nil {
				v.word(e.Value, in)
			}
		}
	}
}

func (v *visitor) words(ws []*syntax.Word, in bool) {
	for _, w := range ws {
		v.word(w, in)
	}
}

func (v *visitor) word(w *syntax.Word, in bool) {
	v.w.noticeWord(w)
	for _, p := range w.Parts {
		v.part(p, in)
	}
}

func (v *visitor) part(p syntax.WordPart, in bool) {
	switch x := p.(type) {
	case *syntax.Lit, *syntax.SglQuoted:
	case *syntax.DblQuoted:
		for _, q := range x.Parts {
			v.part(q, in)
		}
	case *syntax.ParamExp:
		v.w.notice(x)
		if x.NestedParam != nil {
			v.part(x.NestedParam, in)
		}
		v.arithm(x.Index, in)
		if x.Slice != nil {
			v.arithm(x.Slice.Offset, in)
			v.arithm(x.Slice.Length, in)
		}
		if x.Repl != nil {
			if x.Repl.Orig != nil {
				v.word(x.Repl.Orig, in)
			}
			if x.Repl.With != nil {
				v.word(x.Repl.With, in)
			}
		}
		if x.Exp != nil && x.Exp.Word != nil {
			v.word(x.Exp.Word, in)
		}
	case *syntax.CmdSubst:
		v.w.substitutes = true
		v.stmts(x.Stmts, false) // its input is the line's
	case *syntax.ArithmExp:
		v.w.notice(x)
		v.arithm(x.X, in)
	case *syntax.ProcSubst:
		v.w.substitutes = true
		v.stmts(x.Stmts, false)
	case *syntax.ExtGlob: // its pattern is a Lit
	default:
		panic(fmt.Sprintf("bashline: unexpected word part %T", p))
	}
}

func (v *visitor) arithm(e syntax.ArithmExpr, in bool) {
	switch x := e.(type) {
	case nil:
	case *syntax.Word:
		v.word(x, in)
	case *syntax.BinaryArithm:
		v.arithm(x.X, in)
		v.arithm(x.Y, in)
	case *syntax.UnaryArithm:
		v.arithm(x.X, in)
	case *syntax.ParenArithm:
		v.arithm(x.X, in)
	case *syntax.FlagsArithm:
		v.arithm(x.X, in)
	default:
		panic(fmt.Sprintf("bashline: unexpected arithmetic node %T", e))
	}
}

func (v *visitor) test(e syntax.TestExpr, in bool) {
	switch x := e.(type) {
	case nil:
	case *syntax.Word:
		v.word(x, in)
	case *syntax.BinaryTest:
		v.w.notice(x)
		v.test(x.X, in)
		v.test(x.Y, in)
	case *syntax.UnaryTest:
		v.w.notice(x)
		v.test(x.X, in)
	case *syntax.ParenTest:
		v.test(x.X, in)
	default:
		panic(fmt.Sprintf("bashline: unexpected test node %T", e))
	}
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
		w.noticeWord(x)
	}
}

// noticeWord notes a quoted $(…), `…` or $[…] in a word, for the
// arithmetic rule.
func (w *walker) noticeWord(x *syntax.Word) {
	if !w.codeText {
		for _, p := range x.Parts {
			w.look(p)
		}
	}
}

// look notes a quoted $(…), `…` or $[…] in a part of a word: text that
// runs where bash evaluates it as arithmetic.
func (w *walker) look(p syntax.WordPart) {
	var v string
	switch x := p.(type) {
	case *syntax.Lit:
		if !hasCode(x.Value) {
			return // removing backslashes makes neither
		}
		v = unescape(x.Value, false)
	case *syntax.SglQuoted:
		if !x.Dollar {
			v = x.Value
		} else {
			v, _ = staticPart(x, false)
		}
	case *syntax.DblQuoted:
		if !litsHaveCode(x.Parts) {
			return // removing backslashes makes neither
		}
		var b strings.Builder
		for _, in := range x.Parts {
			if lit, ok := in.(*syntax.Lit); ok {
				b.WriteString(unescape(lit.Value, true))
			}
		}
		v = b.String()
	}
	if strings.Contains(v, "$(") || strings.Contains(v, "`") || strings.Contains(v, "$[") {
		w.codeText = true
	}
}

// hasCode reports whether text holds a $ or a `, without which it
// holds no $(…), `…` or $[…] once its backslashes are removed.
func hasCode(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == '$' || s[i] == '`' {
			return true
		}
	}
	return false
}

// litsHaveCode reports whether a Lit among parts has a $ or a `.
func litsHaveCode(parts []syntax.WordPart) bool {
	for _, p := range parts {
		if lit, ok := p.(*syntax.Lit); ok && hasCode(lit.Value) {
			return true
		}
	}
	return false
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

// add adds a command (a copy of c) to the line's.
func (w *walker) add(c *Command) {
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
	w.line.Commands = append(w.line.Commands, *c)
}

// arena hands out the words of the commands of a line from a block made
// for many commands at once, kept for the next line. Each slice it gives
// has no spare capacity: an append to it copies, and never reaches a
// neighbour's words.
type arena struct {
	words  []string
	static []bool
	chains [][]string
}

// arenaBlock is the fewest words a block holds.
const arenaBlock = 128

// take returns n words and their static flags, zeroed.
func (a *arena) take(n int) ([]string, []bool) {
	if len(a.words)+n > cap(a.words) {
		// The words handed out stay in the old block; the next line
		// starts in this one, which fits more.
		size := max(n, 2*cap(a.words), arenaBlock)
		a.words, a.static = make([]string, 0, size), make([]bool, 0, size)
	}
	i := len(a.words)
	a.words, a.static = a.words[:i+n], a.static[:i+n]
	return a.words[i : i+n : i+n], a.static[i : i+n : i+n]
}

// chain returns a chain of one level holding words.
func (a *arena) chain(words []string) [][]string {
	if len(a.chains) == cap(a.chains) {
		a.chains = make([][]string, 0, max(2*cap(a.chains), arenaBlock/4))
	}
	a.chains = append(a.chains, words)
	i := len(a.chains)
	return a.chains[i-1 : i : i]
}

// reset makes the block ready for a new line, holding nothing of the last.
func (a *arena) reset() {
	clear(a.words)
	clear(a.chains)
	a.words, a.static, a.chains = a.words[:0], a.static[:0], a.chains[:0]
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
			w.add(&Command{Text: strings.Join(rt, " "), Writes: ws, Wrappers: ctx.wrappers, AsOther: ctx.asOther})
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
			w.add(&Command{Text: stmtText(src, s), Writes: ws, Wrappers: ctx.wrappers, AsOther: ctx.asOther, Assigns: assigns})
		}
		return
	}
	words, static := w.r.arena.take(len(call.Args))
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
	w.add(&Command{Words: words, Static: static, Chain: [][]string{words}, Text: text(src, d), Wrappers: ctx.wrappers, AsOther: ctx.asOther})
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
			r.w.add(&c)
			return
		}
		if c.Chain == nil {
			c.Chain = r.w.r.arena.chain(words[i:])
		} else {
			c.Chain = append(c.Chain, words[i:])
		}
		if !static[i] {
			c.Words, c.Static = words[i:], static[i:]
			c.Opaque = "the command's name is not known before it runs: " + words[i]
			r.w.add(&c)
			return
		}
		name := path.Base(words[i])
		next, more := r.unwrap(name, words, static, i, &c)
		if next < 0 {
			c.Words, c.Static = words[i:], static[i:]
			r.w.add(&c)
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
