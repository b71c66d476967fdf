//go:build !race

// Package race says whether the race detector is on. Long single-goroutine
// tests (random playouts, reference comparisons of the rules) use it to run
// smaller sizes under `go test -race`, where they are 5-10 times slower and
// the race detector has nothing to watch in them; the full sizes run in a
// plain `go test`.
package race

// Enabled reports whether the binary was built with -race.
const Enabled = false
