// Package e2e holds todo-shell's end-to-end tests: they build the binary
// once (TestMain) and drive it as a person or a client would — in a
// pseudo-terminal, in a real tmux, over serve's and MCP's stdio, with
// signals — and read back what it shows. It has no code of its own.
//
// The tests wait on terminals and child processes, so they run in
// parallel (t.Parallel, 4 at a time unless -parallel says otherwise). A
// test in parallel shares nothing with another: its own temporary
// directories, tmux server (a socket in its directory), state directory
// (XDG_STATE_HOME) and ports, and the environment it needs given to the
// child process, never set in the test process. The few tests that stay
// serial bound a time or a load (the first prompt within a second, the
// hostile-input attacks' time and memory bounds, a signalled or killed
// shell's commands gone within seconds, eight MCP servers at once), which
// tests beside them would blur. Every wait is on the output
// asserted, through internal/testwait.
package e2e
