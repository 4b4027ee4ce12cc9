package repl

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// keyMap holds the shell's key bindings. They are consulted only through
// matches, never for typed text: a key that types text (a character, a
// space) is text, whatever its name.
type keyMap struct {
	Submit    key.Binding
	Newline   key.Binding
	Interrupt key.Binding
	EOF       key.Binding
	Clear     key.Binding
	Prev      key.Binding
	Next      key.Binding
}

// matches reports whether msg is a key press bound to b, not text.
func matches(msg tea.KeyPressMsg, b key.Binding) bool {
	return msg.Text == "" && key.Matches(msg, b)
}

// ShortHelp lists the most used keys.
func (k keyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Submit, k.Newline, k.Interrupt, k.EOF, k.Prev}
}

// FullHelp lists every key.
func (k keyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Submit, k.Newline, k.Prev, k.Next}, {k.Interrupt, k.EOF, k.Clear}}
}

// defaultKeyMap: Enter runs the line; Shift+Enter (where the terminal
// reports it: keyboard enhancements), Alt+Enter and Ctrl+J insert a new
// line, as in Claude Code.
func defaultKeyMap() keyMap {
	return keyMap{
		Submit:    key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "run (when quotes are closed)")),
		Newline:   key.NewBinding(key.WithKeys("shift+enter", "alt+enter", "ctrl+j"), key.WithHelp("shift+enter/alt+enter/ctrl+j", "new line")),
		Interrupt: key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "interrupt / clear / exit")),
		EOF:       key.NewBinding(key.WithKeys("ctrl+d"), key.WithHelp("ctrl+d", "exit on an empty line")),
		Clear:     key.NewBinding(key.WithKeys("ctrl+l"), key.WithHelp("ctrl+l", "clear screen")),
		Prev:      key.NewBinding(key.WithKeys("up"), key.WithHelp("↑/↓", "history")),
		Next:      key.NewBinding(key.WithKeys("down"), key.WithHelp("↓", "history")),
	}
}

// typedText is the text a key press types: a character or a space, alone
// or with Shift; "" for a key that types nothing (Enter, Ctrl+A, Alt+B…).
func typedText(msg tea.KeyPressMsg) string {
	if msg.Mod&^tea.ModShift != 0 {
		return ""
	}
	return msg.Text
}
