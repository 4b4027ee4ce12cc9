package repl

import "strings"

// history is the shell's list of entered commands, each kept verbatim
// (newlines included), with a browsing position. Browsing keeps the text
// being typed before it started, to come back to past the newest entry.
type history struct {
	entries []string
	pos     int    // len(entries) when not browsing
	draft   string // the input when browsing started
}

// add records a command, skipping blanks and repeats of the newest entry,
// and ends browsing.
func (h *history) add(text string) {
	if strings.TrimSpace(text) != "" && (len(h.entries) == 0 || h.entries[len(h.entries)-1] != text) {
		h.entries = append(h.entries, text)
	}
	h.reset()
}

// reset ends browsing.
func (h *history) reset() {
	h.pos = len(h.entries)
	h.draft = ""
}

// prev steps to the older entry; current is the input now shown. It reports
// false at the oldest entry or with no history.
func (h *history) prev(current string) (string, bool) {
	if h.pos == 0 || len(h.entries) == 0 {
		return "", false
	}
	if h.pos == len(h.entries) {
		h.draft = current
	}
	h.pos--
	return h.entries[h.pos], true
}

// next steps to the newer entry, past the newest back to the draft. It
// reports false when not browsing.
func (h *history) next() (string, bool) {
	if h.pos >= len(h.entries) {
		return "", false
	}
	h.pos++
	if h.pos == len(h.entries) {
		d := h.draft
		h.draft = ""
		return d, true
	}
	return h.entries[h.pos], true
}
