// Command todo-shell is an interactive terminal shell in which agent
// commands (TodoWrite, TodoRead) and ordinary shell commands run as
// Anthropic-format tool calls, under a live task panel.
package main

import (
	"os"

	"github.com/todo-shell/todo-shell/cmd"
)

func main() {
	os.Exit(cmd.Main(os.Args[1:], cmd.StdStreams()))
}
