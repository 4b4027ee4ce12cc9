package repl

import "github.com/charmbracelet/bubbles/key"

// keyMap holds the shell's key bindings.
type keyMap struct {
	Submit    key.Binding
	Interrupt key.Binding
	EOF       key.Binding
	Clear     key.Binding
	Prev      key.Binding
	Next      key.Binding
}

// ShortHelp lists the most used keys.
func (k keyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Submit, k.Interrupt, k.EOF, k.Prev}
}

// FullHelp lists every key.
func (k keyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Submit, k.Prev, k.Next}, {k.Interrupt, k.EOF, k.Clear}}
}

func defaultKeyMap() keyMap {
	return keyMap{
		Submit:    key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "run")),
		Interrupt: key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "interrupt / clear / exit")),
		EOF:       key.NewBinding(key.WithKeys("ctrl+d"), key.WithHelp("ctrl+d", "exit on an empty line")),
		Clear:     key.NewBinding(key.WithKeys("ctrl+l"), key.WithHelp("ctrl+l", "clear screen")),
		Prev:      key.NewBinding(key.WithKeys("up"), key.WithHelp("↑/↓", "history")),
		Next:      key.NewBinding(key.WithKeys("down"), key.WithHelp("↓", "history")),
	}
}
