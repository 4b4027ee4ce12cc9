//go:build !tearenderer

package cmd

// teaRenderer is false: the shell draws through the painter (see
// docs/BENCHMARKS.md, "The renderer", for why; -tags tearenderer builds the
// alternative measured against it).
const teaRenderer = false
