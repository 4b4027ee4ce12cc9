package repl

import histfile "github.com/todo-shell/todo-shell/repl/history"

// history is the shell's list of entered commands, each kept verbatim
// (newlines included), with a browsing position. Browsing keeps the text
// being typed before it started, to come back to past the newest entry.
// The entries live in a histfile.History, which keeps them in a file that
// lasts.
type history struct {
	store *histfile.History
	pos   int    // len(entries) when not browsing
	draft string // the input when browsing started
}

// entries are the commands, oldest first.
func (h *history) entries() []string { return h.store.Entries() }

// add records a command, skipping blanks, lines starting with a space and
// repeats of the newest entry, and ends browsing. An error writing the file
// is returned once; the history then stays in memory.
func (h *history) add(text string) error {
	err := h.store.Add(text)
	if err != nil {
		h.store.Path = ""
	}
	h.reset()
	return err
}

// reset ends browsing.
func (h *history) reset() {
	h.pos = len(h.entries())
	h.draft = ""
}

// prev steps to the older entry; current is the input now shown. It reports
// false at the oldest entry or with no history.
func (h *history) prev(current string) (string, bool) {
	entries := h.entries()
	if h.pos > len(entries) {
		h.pos = len(entries)
	}
	if h.pos == 0 || len(entries) == 0 {
		return "", false
	}
	if h.pos == len(entries) {
		h.draft = current
	}
	h.pos--
	return entries[h.pos], true
}

// next steps to the newer entry, past the newest back to the draft. It
// reports false when not browsing.
func (h *history) next() (string, bool) {
	entries := h.entries()
	if h.pos >= len(entries) {
		return "", false
	}
	h.pos++
	if h.pos == len(entries) {
		d := h.draft
		h.draft = ""
		return d, true
	}
	return entries[h.pos], true
}
