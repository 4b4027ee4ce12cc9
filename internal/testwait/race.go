//go:build race

package testwait

// Race reports whether the tests were built with -race, where the CPU a
// test spends costs some 5–20 times as much. A test that measures a size
// (a ratio of two times, a bound on a large input) runs smaller under
// -race, where races, not sizes, are looked for; the pass without -race
// runs it at full size.
const Race = true
