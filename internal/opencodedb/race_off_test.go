//go:build !race

package opencodedb

// raceOn is set when the race detector is on: SQLite (translated to Go)
// then runs tens of times slower, so the tests scale their work and times.
const raceOn = false
