package todo

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// Blank text. Content and activeForm must show something: a string made only
// of characters that draw nothing is blank, as an empty one is. The blank
// characters are
//
//   - white space: unicode.IsSpace (Unicode White_Space), and
//   - default-ignorable code points (Unicode Default_Ignorable_Code_Point, as
//     DerivedCoreProperties derives it): format characters (Cf: U+200B zero
//     width space, U+200C/D joiners, U+2060 word joiner, U+FEFF byte order
//     mark, U+00AD soft hyphen, bidi controls, tag characters U+E0000…), the
//     variation selectors, Hangul fillers (U+115F, U+1160, U+3164, U+FFA0),
//     U+034F and the other Other_Default_Ignorable_Code_Point ranges — but
//     not the prepended concatenation marks (U+0600… Arabic number signs,
//     which are drawn), U+FFF9–U+FFFB and U+13430–U+1343F, which Unicode
//     leaves out of the derived property.
//
// Text that mixes them with anything else (“a\u200b”) is not blank. The
// published schema states the same set (blankClass), derived from the same
// function, so schema and validator agree rune for rune.

// isBlankRune reports whether r draws nothing on its own.
func isBlankRune(r rune) bool {
	return unicode.IsSpace(r) || isIgnorable(r)
}

// isIgnorable reports whether r is a Default_Ignorable_Code_Point.
func isIgnorable(r rune) bool {
	if r < 0xad {
		return false
	}
	if !unicode.In(r, unicode.Cf, unicode.Other_Default_Ignorable_Code_Point, unicode.Variation_Selector) {
		return false
	}
	switch {
	case unicode.IsSpace(r), unicode.Is(unicode.Prepended_Concatenation_Mark, r),
		r >= 0xfff9 && r <= 0xfffb, r >= 0x13430 && r <= 0x1343f:
		return false
	}
	return true
}

// isBlank reports whether s is empty or made only of blank characters
// (isBlankRune; the set spelled out in blankClass).
func isBlank(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			return strings.TrimFunc(s[i:], isBlankRune) == ""
		}
		if c != ' ' && (c < '\t' || c > '\r') {
			return false
		}
	}
	return true
}

// blankClass is the character class of the blank characters, written with
// literal characters and ranges so the same pattern means the same thing to
// ECMA-262 (in Unicode mode) and RE2 regular expressions.
var blankClass = buildBlankClass()

// blankCandidates holds every rune isBlankRune can accept: the tables it is
// built from. Iterating them is cheaper than iterating all of Unicode.
var blankCandidates = []*unicode.RangeTable{unicode.White_Space, unicode.Cf, unicode.Other_Default_Ignorable_Code_Point, unicode.Variation_Selector}

func buildBlankClass() string {
	var runes []rune
	for _, t := range blankCandidates {
		for _, r16 := range t.R16 {
			for r := rune(r16.Lo); r <= rune(r16.Hi); r += rune(r16.Stride) {
				runes = append(runes, r)
			}
		}
		for _, r32 := range t.R32 {
			for r := rune(r32.Lo); r <= rune(r32.Hi); r += rune(r32.Stride) {
				runes = append(runes, r)
			}
		}
	}
	set := make(map[rune]bool, len(runes))
	for _, r := range runes {
		if isBlankRune(r) {
			set[r] = true
		}
	}
	var b strings.Builder
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if !set[r] {
			continue
		}
		hi := r
		for set[hi+1] {
			hi++
		}
		writeClassRune(&b, r)
		if hi > r+1 {
			b.WriteByte('-')
		}
		if hi > r {
			writeClassRune(&b, hi)
		}
		r = hi
	}
	return b.String()
}

// writeClassRune writes r for a character class: literally, except the
// characters that mean something inside a class.
func writeClassRune(b *strings.Builder, r rune) {
	if r == '\\' || r == ']' || r == '^' || r == '-' {
		b.WriteByte('\\')
	}
	b.WriteRune(r)
}

// appendEscaped appends r as a JSON \u escape (a surrogate pair beyond the
// Basic Multilingual Plane).
func appendEscaped(out []byte, r rune) []byte {
	if r > 0xffff {
		r1, r2 := utf16.EncodeRune(r)
		return fmt.Appendf(out, "\\u%04x\\u%04x", r1, r2)
	}
	return fmt.Appendf(out, "\\u%04x", r)
}
