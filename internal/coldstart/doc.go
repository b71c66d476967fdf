// Package coldstart holds only a test: it starts the real self-play and
// match workers of every game in a fresh process, before anything else has
// touched the game's shared data, so that `go test -race` sees any lazily
// filled shared state (see coldstart_test.go). It has no API.
package coldstart
