package markdown

import (
	"strings"

	"charm.land/lipgloss/v2"
)

// Highlighting: a small lexer for code blocks, enough to tell keywords,
// strings, numbers and comments apart in the languages an agent shows most
// (Go, Python, JavaScript/TypeScript, shell, Rust, C, JSON). It works line
// by line and knows no grammar: a block comment or string spanning lines
// is colored on its first line only.

// codeStyles are the colors of code tokens.
type codeStyles struct {
	keyword, str, number, comment lipgloss.Style
}

var keywords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`
		break case chan const continue default defer else fallthrough for func go goto if import
		interface map package range return select struct switch type var nil true false
		def class elif except finally from in is lambda not or and pass raise try while with yield
		async await None True False self let function new this typeof instanceof catch throw export
		extends static null undefined do done then fi esac echo local fn impl mut pub use mod enum
		trait match where int char void long unsigned sizeof`) {
		keywords[w] = true
	}
}

// commentStart returns the line comment marker of a language.
func commentStart(lang string) string {
	switch strings.ToLower(lang) {
	case "sh", "bash", "shell", "zsh", "console", "python", "py", "ruby", "rb", "yaml", "yml", "toml", "make", "makefile", "dockerfile":
		return "#"
	case "sql", "lua", "haskell":
		return "--"
	case "json", "text", "txt", "":
		return ""
	}
	return "//"
}

// highlight colors one line of code in lang.
func highlight(line, lang string, st codeStyles, base lipgloss.Style) string {
	cm := commentStart(lang)
	var b strings.Builder
	for i := 0; i < len(line); {
		kind, j := token(line, i, cm)
		style := base
		switch kind {
		case tokenComment:
			style = st.comment
		case tokenString:
			style = st.str
		case tokenNumber:
			style = st.number
		case tokenWord:
			if keywords[line[i:j]] {
				style = st.keyword
			}
		}
		b.WriteString(style.Render(line[i:j]))
		i = j
	}
	return b.String()
}

// tokenKind is what a token of a line of code is.
type tokenKind uint8

const (
	tokenPlain   tokenKind = iota // punctuation and space
	tokenComment                  // to the end of the line
	tokenString                   // quoted: "…", '…' or `…`
	tokenNumber
	tokenWord // a keyword or a name
)

// token returns the kind of the token that starts at line[i] and where it
// ends; cm is the language's line comment marker ("" for none).
func token(line string, i int, cm string) (tokenKind, int) {
	c := line[i]
	switch {
	case commentAt(line, i, cm):
		return tokenComment, len(line)
	case isQuote(c):
		return tokenString, quotedEnd(line, i)
	case isDigit(c) && (i == 0 || !isWord(line[i-1])):
		j := i
		for j < len(line) && (isWord(line[j]) || line[j] == '.') {
			j++
		}
		return tokenNumber, j
	case isWord(c):
		j := i
		for j < len(line) && isWord(line[j]) {
			j++
		}
		return tokenWord, j
	}
	j := i + 1
	for j < len(line) && !isWord(line[j]) && !isQuote(line[j]) && (cm == "" || !strings.HasPrefix(line[j:], cm)) {
		j++
	}
	return tokenPlain, j
}

// commentAt reports whether a line comment starts at line[i]: cm, and for
// "#" (shell, Python) at the start of a word only.
func commentAt(line string, i int, cm string) bool {
	if cm == "" || !strings.HasPrefix(line[i:], cm) {
		return false
	}
	return cm != "#" || i == 0 || line[i-1] == ' ' || line[i-1] == '\t'
}

// quotedEnd returns where the string quoted at line[i] ends: after its
// closing quote (a backslash escapes the next byte), or at the end of the
// line.
func quotedEnd(line string, i int) int {
	q := line[i]
	j := i + 1
	for j < len(line) && line[j] != q {
		if line[j] == '\\' {
			j++
		}
		j++
	}
	return min(j+1, len(line))
}

func isQuote(c byte) bool { return c == '"' || c == '\'' || c == '`' }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isWord(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}
