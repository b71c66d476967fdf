// Package configs carries the shipped weights (configs/weights/<game>.json)
// and claims (configs/claims/<game>.json) inside the binary, so that taifu
// works outside the repository. Files on disk at the same relative paths
// take precedence where the commands look for them; these are the fallback.
package configs

import (
	"embed"
	"io/fs"
)

//go:embed weights/*.json claims/*.json
var files embed.FS

// Weights returns the shipped weights file of game, and whether there is one.
func Weights(game string) ([]byte, bool) { return read("weights/" + game + ".json") }

// Claims returns the shipped claims file of game, and whether there is one.
func Claims(game string) ([]byte, bool) { return read("claims/" + game + ".json") }

func read(name string) ([]byte, bool) {
	b, err := fs.ReadFile(files, name)
	return b, err == nil
}
