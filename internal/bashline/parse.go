// Package bashline reads bash command lines the way bash reads them, with
// the shell grammar of mvdan.cc/sh/v3/syntax: whether text is a complete
// command or waits for more lines (and for what), the words of an agent
// command's arguments, the commands of a pasted script, the simple
// commands a line would run (for the permission rules and the
// interactive-program detection), and quoting a word for a person to copy.
//
// Nothing here runs anything; every function is safe on hostile text.
package bashline

import (
	"errors"
	"strings"
	"unicode/utf8"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// newParser is a parser of bash, comments dropped.
func newParser() *syntax.Parser {
	return syntax.NewParser(syntax.Variant(syntax.LangBash))
}

// Parse parses src as a bash script.
func Parse(src string) (*syntax.File, error) {
	return newParser().Parse(strings.NewReader(src), "")
}

// Quote quotes s as one bash word for a person to copy: unchanged when it
// needs no quotes, in single quotes when it has no control characters, in
// $'…' otherwise. A NUL byte cannot be in a shell word: it is dropped.
func Quote(s string) string {
	s = strings.ReplaceAll(s, "\x00", "")
	q, err := syntax.Quote(s, syntax.LangBash)
	if err != nil { // not reached without NUL; keep a safe answer anyway
		return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	return q
}

// ErrIncomplete is returned by Words for text that ends inside a quote or
// after a backslash: a front end should ask for more lines.
var ErrIncomplete = errors.New("incomplete: unclosed quote or trailing backslash")

// Words splits the arguments of an agent command into words as bash
// would before running a command: quotes and backslashes removed
// (`'{"a":1}'` is one word), comments dropped, $'…' decoded. Expansions
// are not performed: a word holding $VAR, $(…) or a glob keeps that text
// as written. Text that is not a list of plain words (an operator such as
// ; or |, a redirection) is an error naming it.
func Words(text string) ([]string, error) {
	if w, ok := singleQuoted(text); ok {
		return []string{w}, nil
	}
	return parseWords(text)
}

// singleQuoted is the one word of text when text is a single-quoted
// string alone, blanks around it, holding no byte the parser reads
// otherwise than as itself: the usual TodoWrite '{…}'. It saves the
// parser's byte-by-byte read of a long JSON argument (5 KB: 70 µs → 1 µs,
// BenchmarkAgentArgs50 in router); FuzzWords checks that it gives what
// the parser gives.
func singleQuoted(text string) (string, bool) {
	s := strings.Trim(text, " \t")
	if len(s) < 2 || s[0] != '\'' || s[len(s)-1] != '\'' {
		return "", false
	}
	body := s[1 : len(s)-1]
	// A NUL byte and the \r of \r\n are dropped by the parser, a
	// backslash before a newline is read as a line continuation, and
	// invalid UTF-8 is an error.
	for _, c := range []byte{'\'', '\x00', '\r'} {
		if strings.IndexByte(body, c) >= 0 {
			return "", false
		}
	}
	if strings.Contains(body, "\\\n") || !utf8.ValidString(body) {
		return "", false
	}
	return body, true
}

// parseWords is Words with the parser.
func parseWords(text string) ([]string, error) {
	var out []string
	p := newParser()
	for w, err := range p.WordsSeq(strings.NewReader(text)) {
		if err != nil {
			if syntax.IsIncomplete(err) || trailingBackslash(text) {
				return nil, ErrIncomplete
			}
			return nil, err
		}
		out = append(out, wordText(text, w))
	}
	if trailingBackslash(text) {
		return nil, ErrIncomplete
	}
	return out, nil
}

// trailingBackslash reports whether text ends in a backslash that escapes
// nothing: bash would wait for the next line.
func trailingBackslash(text string) bool {
	n := 0
	for i := len(text) - 1; i >= 0 && text[i] == '\\'; i-- {
		n++
	}
	if n%2 == 0 {
		return false
	}
	// Inside single quotes a backslash is a plain byte.
	return Check(text).Wait == WaitBackslash
}

// wordText is a word with its quotes removed, the parts that are not
// plain text kept as written.
func wordText(src string, w *syntax.Word) string {
	var b strings.Builder
	for _, part := range w.Parts {
		if dq, ok := part.(*syntax.DblQuoted); ok && !dq.Dollar {
			for _, in := range dq.Parts {
				if lit, ok := in.(*syntax.Lit); ok {
					b.WriteString(unescape(lit.Value, true))
				} else {
					b.WriteString(src[in.Pos().Offset():in.End().Offset()])
				}
			}
			continue
		}
		if v, ok := staticPart(part, false); ok {
			b.WriteString(v)
			continue
		}
		b.WriteString(src[part.Pos().Offset():part.End().Offset()])
	}
	return b.String()
}

// Static is the value of a word that expands to itself whatever the
// environment: plain text, quoted text and $'…' escapes, with quotes and
// backslashes removed. ok is false for a word with an expansion
// ($VAR, $(…), $((…))), an unquoted glob or brace pattern, or a leading ~.
func Static(w *syntax.Word) (string, bool) {
	if w == nil {
		return "", false
	}
	if len(w.Parts) == 1 {
		return staticPart(w.Parts[0], true)
	}
	var b strings.Builder
	for i, part := range w.Parts {
		v, ok := staticPart(part, i == 0)
		if !ok {
			return "", false
		}
		b.WriteString(v)
	}
	return b.String(), true
}

// staticPart is the value of one part of a word, when it is static.
func staticPart(part syntax.WordPart, first bool) (string, bool) {
	switch x := part.(type) {
	case *syntax.Lit:
		if hasPattern(x.Value) || (first && strings.HasPrefix(x.Value, "~")) {
			return "", false
		}
		return unescape(x.Value, false), true
	case *syntax.SglQuoted:
		if !x.Dollar {
			return x.Value, true
		}
		v, err := expand.Literal(nil, &syntax.Word{Parts: []syntax.WordPart{x}})
		return v, err == nil
	case *syntax.DblQuoted:
		if x.Dollar { // $"…": a translated string
			return "", false
		}
		if len(x.Parts) == 1 { // the usual "text": no copy unless it has a backslash
			lit, ok := x.Parts[0].(*syntax.Lit)
			if !ok {
				return "", false
			}
			return unescape(lit.Value, true), true
		}
		var b strings.Builder
		for _, in := range x.Parts {
			lit, ok := in.(*syntax.Lit)
			if !ok {
				return "", false
			}
			b.WriteString(unescape(lit.Value, true))
		}
		return b.String(), true
	}
	return "", false
}

// hasPattern reports whether unquoted text holds a byte that makes a
// glob or a brace expansion: * ? [ {.
func hasPattern(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '*', '?', '[', '{':
			return true
		}
	}
	return false
}

// unescape removes the backslashes bash removes: outside quotes before any
// byte, inside double quotes before $ ` " \ and a newline; a
// backslash-newline is a line continuation and goes with its newline.
func unescape(s string, dquoted bool) string {
	if strings.IndexByte(s, '\\') < 0 {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 == len(s) {
			b.WriteByte(c)
			continue
		}
		n := s[i+1]
		switch {
		case n == '\n':
			i++
		case !dquoted || strings.IndexByte("$`\"\\", n) >= 0:
			b.WriteByte(n)
			i++
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
