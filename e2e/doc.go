// Package e2e holds todo-shell's end-to-end tests: they build the binary
// once (TestMain) and drive it as a person or a client would — in a
// pseudo-terminal, in a real tmux, over serve's and MCP's stdio, with
// signals — and read back what it shows. It has no code of its own.
package e2e
