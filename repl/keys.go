package repl

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// keyMap holds the shell's key bindings. They are consulted only through
// matches, never for typed text: in Bubble Tea v1 a KeyRunes message's
// String() is its text, so key.Matches alone would take the word "up" or
// "enter" arriving in one read for the key.
type keyMap struct {
	Submit    key.Binding
	Newline   key.Binding
	Interrupt key.Binding
	EOF       key.Binding
	Clear     key.Binding
	Prev      key.Binding
	Next      key.Binding
}

// matches reports whether msg is a real key press bound to b.
func matches(msg tea.KeyMsg, b key.Binding) bool {
	return msg.Type != tea.KeyRunes && key.Matches(msg, b)
}

// ShortHelp lists the most used keys.
func (k keyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Submit, k.Newline, k.Interrupt, k.EOF, k.Prev}
}

// FullHelp lists every key.
func (k keyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Submit, k.Newline, k.Prev, k.Next}, {k.Interrupt, k.EOF, k.Clear}}
}

func defaultKeyMap() keyMap {
	return keyMap{
		Submit:    key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "run (when quotes are closed)")),
		Newline:   key.NewBinding(key.WithKeys("alt+enter", "ctrl+j"), key.WithHelp("alt+enter/ctrl+j", "new line")),
		Interrupt: key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "interrupt / clear / exit")),
		EOF:       key.NewBinding(key.WithKeys("ctrl+d"), key.WithHelp("ctrl+d", "exit on an empty line")),
		Clear:     key.NewBinding(key.WithKeys("ctrl+l"), key.WithHelp("ctrl+l", "clear screen")),
		Prev:      key.NewBinding(key.WithKeys("up"), key.WithHelp("↑/↓", "history")),
		Next:      key.NewBinding(key.WithKeys("down"), key.WithHelp("↓", "history")),
	}
}

// wordKey reports whether msg is Alt and one letter typed as a key (ESC b,
// ESC f, ESC d…: readline's word keys, bound in the textarea's KeyMap), not
// text: a paste is text whatever it holds.
func wordKey(msg tea.KeyMsg) bool {
	return msg.Type == tea.KeyRunes && msg.Alt && !msg.Paste && len(msg.Runes) == 1
}
