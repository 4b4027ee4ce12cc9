package permission

import "strings"

// commands splits a shell command line into the simple commands it runs:
// the parts joined by &&, ||, ;, |, & or a newline, and the commands inside
// $(…), `…`, <(…) and >(…) (each checked on its own), with grouping
// parentheses and braces taken away. Quotes are respected. ok is false when
// the line cannot be split with confidence (an unclosed quote or
// substitution): such a line is never allowed by a rule.
func commands(line string) (parts []string, ok bool) {
	sp := &splitter{line: line}
	for i := 0; i < len(line); i++ {
		good := true
		switch c := line[i]; {
		case c == '\\':
			i = sp.escape(i)
		case c == '\'':
			i, good = sp.singleQuote(i)
		case c == '"':
			i, good = sp.doubleQuote(i)
		case c == '`':
			i, good = sp.backquote(i)
		case (c == '$' || c == '<' || c == '>') && i+1 < len(line) && line[i+1] == '(':
			i, good = sp.substitution(i)
		case c == ';' || c == '\n' || c == '|' || c == '&':
			i = sp.separator(i)
		default:
			sp.cur.WriteByte(c)
		}
		if !good {
			return nil, false
		}
	}
	sp.flush()
	return sp.parts, true
}

// splitter is the state of commands: the line, the simple command being
// read and those found so far. Each of its steps takes the index of the
// character that starts a token and returns the index of the token's last
// character (and false when the line cannot be split).
type splitter struct {
	line  string
	cur   strings.Builder
	parts []string
}

// flush ends the simple command being read.
func (sp *splitter) flush() {
	s := strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(sp.cur.String()), "({ \t"))
	// Closing group parentheses and braces, not those of $((…)).
	for s != "" && (s[len(s)-1] == ')' && strings.Count(s, ")") > strings.Count(s, "(") ||
		s[len(s)-1] == '}' && strings.Count(s, "}") > strings.Count(s, "{")) {
		s = strings.TrimSpace(s[:len(s)-1])
	}
	if s != "" && s != "!" {
		sp.parts = append(sp.parts, strings.TrimPrefix(s, "! "))
	}
	sp.cur.Reset()
}

// nested adds the simple commands of a substitution's text.
func (sp *splitter) nested(text string) bool {
	p, ok := commands(text)
	sp.parts = append(sp.parts, p...)
	return ok
}

// escape keeps a backslash and the character it escapes.
func (sp *splitter) escape(i int) int {
	sp.cur.WriteByte(sp.line[i])
	if i+1 < len(sp.line) {
		i++
		sp.cur.WriteByte(sp.line[i])
	}
	return i
}

// singleQuote keeps a single-quoted string.
func (sp *splitter) singleQuote(i int) (int, bool) {
	j := strings.IndexByte(sp.line[i+1:], '\'')
	if j < 0 {
		return i, false
	}
	sp.cur.WriteString(sp.line[i : i+j+2])
	return i + j + 1, true
}

// doubleQuote keeps a double-quoted string and adds the commands of the
// substitutions inside it.
func (sp *splitter) doubleQuote(i int) (int, bool) {
	end, inner, ok := doubleQuoted(sp.line, i)
	if !ok {
		return i, false
	}
	for _, sub := range inner {
		if !sp.nested(sub) {
			return i, false
		}
	}
	sp.cur.WriteString(sp.line[i : end+1])
	return end, true
}

// backquote adds the commands of a `…` substitution, which stands as "_"
// in the command around it.
func (sp *splitter) backquote(i int) (int, bool) {
	j := strings.IndexByte(sp.line[i+1:], '`')
	if j < 0 || !sp.nested(sp.line[i+1:i+1+j]) {
		return i, false
	}
	sp.cur.WriteString("_")
	return i + j + 1, true
}

// substitution adds the commands of a $(…), <(…) or >(…), which stands as
// "_" in the command around it; $(( arithmetic )) is kept as it is.
func (sp *splitter) substitution(i int) (int, bool) {
	line := sp.line
	if line[i] == '$' && i+2 < len(line) && line[i+2] == '(' { // $(( arithmetic ))
		sp.cur.WriteByte(line[i])
		return i, true
	}
	end := closing(line, i+1)
	if end < 0 || !sp.nested(line[i+2:end]) {
		return i, false
	}
	sp.cur.WriteString("_")
	return end, true
}

// separator ends the simple command at ;, a newline, |, ||, |&, & or &&;
// the & of a redirection (2>&1, &> file) is kept.
func (sp *splitter) separator(i int) int {
	line, c := sp.line, sp.line[i]
	if c == '&' && (i > 0 && (line[i-1] == '>' || line[i-1] == '<') || // 2>&1
		i+1 < len(line) && line[i+1] == '>') { // &> file
		sp.cur.WriteByte(c)
		return i
	}
	sp.flush()
	if i+1 < len(line) && (line[i+1] == c || (c == '|' && line[i+1] == '&')) {
		i++
	}
	return i
}

// doubleQuoted finds the end of the double-quoted string starting at
// line[start] and the command substitutions inside it.
func doubleQuoted(line string, start int) (end int, subs []string, ok bool) {
	for i := start + 1; i < len(line); i++ {
		switch line[i] {
		case '\\':
			i++
		case '"':
			return i, subs, true
		case '`':
			j := strings.IndexByte(line[i+1:], '`')
			if j < 0 {
				return 0, nil, false
			}
			subs = append(subs, line[i+1:i+1+j])
			i += j + 1
		case '$':
			if i+1 < len(line) && line[i+1] == '(' {
				e := closing(line, i+1)
				if e < 0 {
					return 0, nil, false
				}
				subs = append(subs, line[i+2:e])
				i = e
			}
		}
	}
	return 0, nil, false
}

// closing returns the index of the parenthesis closing the one at
// line[open], skipping quoted text, or -1.
func closing(line string, open int) int {
	depth := 0
	for i := open; i < len(line); i++ {
		switch line[i] {
		case '\\':
			i++
		case '\'':
			j := strings.IndexByte(line[i+1:], '\'')
			if j < 0 {
				return -1
			}
			i += j + 1
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}
