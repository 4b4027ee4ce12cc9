//go:build tearenderer

package cmd

// teaRenderer is true in a binary built with -tags tearenderer: the shell
// draws with Bubble Tea v2's own inline renderer, for the comparison in
// docs/BENCHMARKS.md ("The renderer").
const teaRenderer = true
