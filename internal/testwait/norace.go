//go:build !race

package testwait

// Race reports whether the tests were built with -race (see race.go).
const Race = false
