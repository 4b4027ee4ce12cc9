// Package markdown renders an agent's Markdown answers for the terminal:
// headings, lists, emphasis, code spans and blocks, quotes and links,
// wrapped to a width. It parses with goldmark (the parser glamour uses)
// and draws with lipgloss styles. glamour itself is not used: its packages
// (chroma's lexers and styles) cost 16–29 ms at init, which every start of
// the binary pays, `--help` included, and that alone exceeds its 15 ms
// bound; goldmark costs under 1 ms.
package markdown

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// Styles are the looks of Markdown elements.
type Styles struct {
	H1, Heading lipgloss.Style
	Strong      lipgloss.Style
	Emph        lipgloss.Style
	Code        lipgloss.Style // code spans
	CodeBlock   lipgloss.Style // fenced and indented code
	Link        lipgloss.Style
	Quote       lipgloss.Style // the bar before quoted lines
	Bullet      lipgloss.Style
	Rule        lipgloss.Style

	// Code tokens in code blocks.
	Keyword, String, Number, Comment lipgloss.Style
}

// DefaultStyles returns the styles for a dark background (dark) or a
// light one.
func DefaultStyles(dark bool) Styles {
	c := lipgloss.LightDark(dark)
	accent := c(lipgloss.Color("33"), lipgloss.Color("75"))
	gray := c(lipgloss.Color("245"), lipgloss.Color("243"))
	code := c(lipgloss.Color("161"), lipgloss.Color("209"))
	n := lipgloss.NewStyle
	return Styles{
		H1:        n().Bold(true).Underline(true).Foreground(accent),
		Heading:   n().Bold(true).Foreground(accent),
		Strong:    n().Bold(true),
		Emph:      n().Italic(true),
		Code:      n().Foreground(code),
		CodeBlock: n().Foreground(c(lipgloss.Color("238"), lipgloss.Color("252"))),
		Link:      n().Foreground(accent).Underline(true),
		Quote:     n().Foreground(gray),
		Bullet:    n().Foreground(accent),
		Rule:      n().Foreground(gray),
		Keyword:   n().Foreground(c(lipgloss.Color("127"), lipgloss.Color("176"))).Bold(true),
		String:    n().Foreground(c(lipgloss.Color("28"), lipgloss.Color("114"))),
		Number:    n().Foreground(c(lipgloss.Color("130"), lipgloss.Color("215"))),
		Comment:   n().Foreground(gray).Italic(true),
	}
}

// PlainStyles returns styles that draw no escape codes (--no-color).
func PlainStyles() Styles {
	n := lipgloss.NewStyle
	return Styles{
		H1: n(), Heading: n(), Strong: n(), Emph: n(), Code: n(), CodeBlock: n(), Link: n(),
		Quote: n(), Bullet: n(), Rule: n(), Keyword: n(), String: n(), Number: n(), Comment: n(),
	}
}

// StylesFor is PlainStyles without colour, else DefaultStyles(dark).
func StylesFor(noColor, dark bool) Styles {
	if noColor {
		return PlainStyles()
	}
	return DefaultStyles(dark)
}

// Renderer renders Markdown at a width.
type Renderer struct {
	Styles Styles
	Width  int // wrap width in cells; <= 0 means no wrapping
	md     goldmark.Markdown
}

// New returns a Renderer.
func New(st Styles, width int) *Renderer {
	return &Renderer{Styles: st, Width: width, md: goldmark.New()}
}

// Render renders src. The result has no trailing newline.
func (r *Renderer) Render(src string) string {
	source := []byte(src)
	doc := r.md.Parser().Parse(text.NewReader(source))
	w := &writer{r: r, src: source}
	w.blocks(doc, "", "")
	return strings.TrimRight(strings.Join(w.out, "\n"), "\n ")
}

type writer struct {
	r   *Renderer
	src []byte
	out []string
}

// blocks renders the block children of n. first prefixes the first line,
// rest the others (list bullets, quote bars, indentation).
func (w *writer) blocks(n ast.Node, first, rest string) {
	i := 0
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		p := rest
		if i == 0 {
			p = first
		}
		if i > 0 && !tight(n) {
			w.out = append(w.out, strings.TrimRight(rest, " "))
		}
		w.block(c, p, rest)
		i++
	}
}

// tight reports whether n's children are drawn without blank lines between
// them (the items of a tight list, the blocks of a tight item).
func tight(n ast.Node) bool {
	switch n := n.(type) {
	case *ast.List:
		return n.IsTight
	case *ast.ListItem:
		if l, ok := n.Parent().(*ast.List); ok {
			return l.IsTight
		}
	}
	return false
}

func (w *writer) block(n ast.Node, first, rest string) {
	st := w.r.Styles
	switch n := n.(type) {
	case *ast.Heading:
		style := st.Heading
		if n.Level == 1 {
			style = st.H1
		}
		marks := strings.Repeat("#", n.Level) + " "
		w.wrapped(style.Render(marks+ansi.Strip(w.inline(n))), first, rest)
	case *ast.Paragraph, *ast.TextBlock:
		w.wrapped(w.inline(n), first, rest)
	case *ast.ThematicBreak:
		width := w.r.Width - ansi.StringWidth(first)
		if width <= 0 || width > 80 {
			width = 40
		}
		w.out = append(w.out, first+st.Rule.Render(strings.Repeat("─", width)))
	case *ast.FencedCodeBlock, *ast.CodeBlock:
		w.codeBlock(n, first, rest)
	case *ast.Blockquote:
		bar := st.Quote.Render("│ ")
		w.blocks(n, first+bar, rest+bar)
	case *ast.List:
		w.list(n, first, rest)
	default:
		// An HTML block, or anything else (a table, say): its source as
		// it is.
		w.source(n, rest)
	}
}

// codeBlock appends a code block, highlighted, under its language's name
// when a fenced block names one.
func (w *writer) codeBlock(n ast.Node, first, rest string) {
	st := w.r.Styles
	lines := n.Lines()
	var code []string
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		code = append(code, strings.TrimRight(string(seg.Value(w.src)), "\n"))
	}
	lang := ""
	if fc, ok := n.(*ast.FencedCodeBlock); ok {
		if lang = string(fc.Language(w.src)); lang != "" {
			first += st.Rule.Render(lang) + "\n" + rest
		}
	}
	cs := codeStyles{keyword: st.Keyword, str: st.String, number: st.Number, comment: st.Comment}
	for i, l := range code {
		p := rest
		if i == 0 {
			p = first
		}
		w.out = append(w.out, p+"  "+highlight(expandTabs(l), lang, cs, st.CodeBlock))
	}
	if len(code) == 0 {
		w.out = append(w.out, first)
	}
}

// list appends a list, its items marked with bullets or numbers, a blank
// row between the items of a loose one.
func (w *writer) list(n *ast.List, first, rest string) {
	num := n.Start
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		mark := "• "
		if n.IsOrdered() {
			mark = fmt.Sprintf("%d. ", num)
			num++
		}
		pad := strings.Repeat(" ", ansi.StringWidth(mark))
		if c != n.FirstChild() && !n.IsTight {
			w.out = append(w.out, strings.TrimRight(rest, " "))
		}
		p := rest
		if c == n.FirstChild() {
			p = first
		}
		w.blocks(c, p+w.r.Styles.Bullet.Render(mark), rest+pad)
	}
}

// source appends the source lines of a block as they are.
func (w *writer) source(n ast.Node, rest string) {
	lines := n.Lines()
	if lines == nil {
		return
	}
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		w.out = append(w.out, rest+strings.TrimRight(string(seg.Value(w.src)), "\n"))
	}
}

// wrapped appends styled text wrapped to the width left after the prefix.
func (w *writer) wrapped(s, first, rest string) {
	width := w.r.Width - ansi.StringWidth(rest)
	if w.r.Width > 0 && width >= 10 {
		s = ansi.Wrap(s, width, "")
	}
	for i, l := range strings.Split(s, "\n") {
		p := rest
		if i == 0 {
			p = first
		}
		w.out = append(w.out, p+l)
	}
}

// inline renders n's inline children into one styled string.
func (w *writer) inline(n ast.Node) string {
	var b strings.Builder
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		w.inlineNode(&b, c)
	}
	return b.String()
}

func (w *writer) inlineNode(b *strings.Builder, n ast.Node) {
	st := w.r.Styles
	switch n := n.(type) {
	case *ast.Text:
		b.Write(n.Segment.Value(w.src))
		if n.HardLineBreak() {
			b.WriteByte('\n')
		} else if n.SoftLineBreak() {
			b.WriteByte(' ')
		}
	case *ast.String:
		b.Write(n.Value)
	case *ast.CodeSpan:
		var code strings.Builder
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			if t, ok := c.(*ast.Text); ok {
				code.Write(t.Segment.Value(w.src))
			}
		}
		b.WriteString(st.Code.Render(code.String()))
	case *ast.Emphasis:
		inner := w.inline(n)
		if n.Level >= 2 {
			b.WriteString(st.Strong.Render(inner))
		} else {
			b.WriteString(st.Emph.Render(inner))
		}
	case *ast.Link:
		label := w.inline(n)
		b.WriteString(st.Link.Render(label))
		if dest := string(n.Destination); dest != "" && dest != ansi.Strip(label) {
			b.WriteString(" (" + dest + ")")
		}
	case *ast.AutoLink:
		b.WriteString(st.Link.Render(string(n.URL(w.src))))
	case *ast.Image:
		b.WriteString("[image: " + w.inline(n) + "] (" + string(n.Destination) + ")")
	case *ast.RawHTML:
		segs := n.Segments
		for i := 0; i < segs.Len(); i++ {
			seg := segs.At(i)
			b.Write(seg.Value(w.src))
		}
	default:
		b.WriteString(w.inline(n))
	}
}

func expandTabs(s string) string { return strings.ReplaceAll(s, "\t", "    ") }

// SplitDone splits streamed Markdown into the blocks that are finished and
// the rest: text up to the last blank line that is outside a fenced code
// block. A finished block can be rendered and printed while the rest
// streams in.
func SplitDone(s string) (done, rest string) {
	cut := -1
	inFence := false
	fence := ""
	pos := 0
	for pos < len(s) {
		end := strings.IndexByte(s[pos:], '\n')
		if end < 0 {
			break // the last line is not finished
		}
		line := s[pos : pos+end]
		trim := strings.TrimLeft(line, " ")
		switch {
		case inFence:
			if strings.HasPrefix(trim, fence) && strings.TrimSpace(strings.TrimLeft(trim, fence[:1])) == "" {
				inFence = false
				cut = pos + end + 1 // a closed fence ends a block
			}
		case strings.HasPrefix(trim, "```") || strings.HasPrefix(trim, "~~~"):
			inFence = true
			fence = trim[:3]
		case strings.TrimSpace(line) == "":
			cut = pos + end + 1
		}
		pos += end + 1
	}
	if cut < 0 {
		return "", s
	}
	return s[:cut], s[cut:]
}
