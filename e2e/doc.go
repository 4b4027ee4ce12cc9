// Package e2e holds todo-shell's end-to-end tests: they build the binary
// once (TestMain) and drive it as a person or a client would — in a
// pseudo-terminal, in a real tmux, over serve's and MCP's stdio, with
// signals — and read back what it shows. It has no code of its own.
// flow_test.go, the check that the module's packages depend one way
// (docs/architecture.md), is here too: a test of the whole module, it
// would otherwise cost a test binary of its own that links all of it.
//
// The tests wait on terminals and child processes, so they run in
// parallel (t.Parallel, 4 at a time unless -parallel says otherwise). A
// test in parallel shares nothing with another: its own temporary
// directories, tmux server (a socket in its directory), state directory
// (XDG_STATE_HOME) and ports, and the environment it needs given to the
// child process, never set in the test process (each agent CLI runs in a
// network namespace of its own). Every test runs in parallel, those that
// bound a time or a load too (the hostile-input attacks' time and memory,
// a signalled or killed shell's commands gone within seconds, eight MCP
// servers at once): their bounds are far above what they measure (10 s for
// an attack that ends in 0.1 s; memory is each process's own), so the
// tests beside them cannot blur them; the figures in BENCHMARKS.md are
// from runs alone (-run). Timing is left to the benchmarks and to such
// generous bounds, and no test waits for time: every wait is on the output
// asserted, through internal/testwait.
package e2e
