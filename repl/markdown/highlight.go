package markdown

import (
	"strings"

	"github.com/charmbracelet/lipgloss"
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
	plain := func(s string) {
		if s != "" {
			b.WriteString(base.Render(s))
		}
	}
	i := 0
	for i < len(line) {
		c := line[i]
		switch {
		case cm != "" && strings.HasPrefix(line[i:], cm) && (cm != "#" || i == 0 || line[i-1] == ' ' || line[i-1] == '\t'):
			b.WriteString(st.comment.Render(line[i:]))
			return b.String()
		case c == '"' || c == '\'' || c == '`':
			j := i + 1
			for j < len(line) && line[j] != c {
				if line[j] == '\\' {
					j++
				}
				j++
			}
			j = min(j+1, len(line))
			b.WriteString(st.str.Render(line[i:j]))
			i = j
		case c >= '0' && c <= '9' && (i == 0 || !isWord(line[i-1])):
			j := i
			for j < len(line) && (isWord(line[j]) || line[j] == '.') {
				j++
			}
			b.WriteString(st.number.Render(line[i:j]))
			i = j
		case isWord(c):
			j := i
			for j < len(line) && isWord(line[j]) {
				j++
			}
			if w := line[i:j]; keywords[w] {
				b.WriteString(st.keyword.Render(w))
			} else {
				plain(w)
			}
			i = j
		default:
			j := i + 1
			for j < len(line) && !isWord(line[j]) && line[j] != '"' && line[j] != '\'' && line[j] != '`' && (cm == "" || !strings.HasPrefix(line[j:], cm)) && (line[j] < '0' || line[j] > '9') {
				j++
			}
			plain(line[i:j])
			i = j
		}
	}
	return b.String()
}

func isWord(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}
