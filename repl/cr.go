package repl

import "strings"

// overwriteCR applies carriage returns as a terminal would: a '\r' inside a
// line moves back to its start, and what follows overwrites what was there
// ("10%\r20%" shows "20%"; "abc\rX" shows "Xbc"). A '\r' ending a line
// (CRLF) changes nothing. Progress output thus takes one line, not one per
// update.
//
// TODO(lead): helper `proc` writes the shared version of this for
// tools/bash or render; switch to it and remove this one when it lands.
func overwriteCR(s string) string {
	if !strings.Contains(s, "\r") {
		return s
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = overwriteLine(l)
	}
	return strings.Join(lines, "\n")
}

// overwriteLine applies the carriage returns of one line (no '\n').
func overwriteLine(l string) string {
	if !strings.Contains(l, "\r") {
		return l
	}
	var cells []rune
	for _, seg := range strings.Split(l, "\r") {
		rs := []rune(seg)
		if len(rs) >= len(cells) {
			cells = rs
		} else {
			copy(cells, rs)
		}
	}
	return string(cells)
}
