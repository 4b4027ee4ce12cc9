package permission

import "strings"

// commands splits a shell command line into the simple commands it runs:
// the parts joined by &&, ||, ;, |, & or a newline, and the commands inside
// $(…), `…`, <(…) and >(…) (each checked on its own), with grouping
// parentheses and braces taken away. Quotes are respected. ok is false when
// the line cannot be split with confidence (an unclosed quote or
// substitution): such a line is never allowed by a rule.
func commands(line string) (parts []string, ok bool) {
	var cur strings.Builder
	flush := func() {
		s := strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(cur.String()), "({ \t"))
		// Closing group parentheses and braces, not those of $((…)).
		for s != "" && (s[len(s)-1] == ')' && strings.Count(s, ")") > strings.Count(s, "(") ||
			s[len(s)-1] == '}' && strings.Count(s, "}") > strings.Count(s, "{")) {
			s = strings.TrimSpace(s[:len(s)-1])
		}
		if s != "" && s != "!" {
			parts = append(parts, strings.TrimPrefix(s, "! "))
		}
		cur.Reset()
	}
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == '\\':
			cur.WriteByte(c)
			if i+1 < len(line) {
				i++
				cur.WriteByte(line[i])
			}
		case c == '\'':
			j := strings.IndexByte(line[i+1:], '\'')
			if j < 0 {
				return nil, false
			}
			cur.WriteString(line[i : i+j+2])
			i += j + 1
		case c == '"':
			end, inner, good := doubleQuoted(line, i)
			if !good {
				return nil, false
			}
			for _, sub := range inner {
				p, good := commands(sub)
				if !good {
					return nil, false
				}
				parts = append(parts, p...)
			}
			cur.WriteString(line[i : end+1])
			i = end
		case c == '`':
			j := strings.IndexByte(line[i+1:], '`')
			if j < 0 {
				return nil, false
			}
			p, good := commands(line[i+1 : i+1+j])
			if !good {
				return nil, false
			}
			parts = append(parts, p...)
			cur.WriteString("_")
			i += j + 1
		case (c == '$' || c == '<' || c == '>') && i+1 < len(line) && line[i+1] == '(':
			if c == '$' && i+2 < len(line) && line[i+2] == '(' { // $(( arithmetic ))
				cur.WriteByte(c)
				continue
			}
			end := closing(line, i+1)
			if end < 0 {
				return nil, false
			}
			p, good := commands(line[i+2 : end])
			if !good {
				return nil, false
			}
			parts = append(parts, p...)
			cur.WriteString("_")
			i = end
		case c == ';' || c == '\n' || c == '|' || c == '&':
			if c == '&' && i > 0 && (line[i-1] == '>' || line[i-1] == '<') { // 2>&1
				cur.WriteByte(c)
				continue
			}
			if c == '&' && i+1 < len(line) && line[i+1] == '>' { // &> file
				cur.WriteByte(c)
				continue
			}
			flush()
			if i+1 < len(line) && (line[i+1] == c || (c == '|' && line[i+1] == '&')) {
				i++
			}
		default:
			cur.WriteByte(c)
		}
	}
	flush()
	return parts, true
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
