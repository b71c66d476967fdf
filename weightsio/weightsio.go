// Package weightsio finds, reads and writes weights files: the one place
// every command and the training loop turn a --weights value into
// features.Weights. Package features only parses, compiles and evaluates.
//
// A weights spec is one of
//
//	""          the game's shipped file: configs/weights/<game>.json relative
//	            to the working directory when it exists, else the copy built
//	            into the binary (package configs), else the starting estimate
//	start       the starting estimate (features.Starting)
//	builtin     the copy built into the binary, whatever is on disk
//	a path      a local weights file (file:// URLs too)
//	a URL       an object (s3://, gs://, azblob://: package storage)
//
// Files that are not weights (a self-play manifest, a Parquet part, a match
// report) give a one-line error saying what they are.
package weightsio

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"taifu/configs"
	"taifu/features"
	"taifu/rules"
	"taifu/storage"
)

// Spec values with a meaning of their own (besides "" and paths).
const (
	Start   = "start"   // the starting estimate, features.Starting
	Builtin = "builtin" // the shipped file as built into the binary
)

// DefaultPath is where the weights of game live: configs/weights/<game>.json,
// relative to the repository root.
func DefaultPath(game string) string { return filepath.Join("configs", "weights", game+".json") }

// Load returns the weights spec names for g (see the package comment) and
// where they came from: the file name, "built-in configs/weights/<game>.json"
// or "starting estimate". Weights of another game are an error.
func Load(g *rules.Game, spec string) (*features.Weights, string, error) {
	switch spec {
	case Start:
		return features.Starting(g), "starting estimate", nil
	case Builtin:
		return builtin(g)
	case "":
		p := DefaultPath(g.Name)
		if _, err := os.Stat(p); errors.Is(err, fs.ErrNotExist) {
			return builtin(g)
		}
		spec = p
	}
	data, err := read(spec)
	if err != nil {
		return nil, "", err
	}
	w, err := Parse(data, spec, g)
	return w, spec, err
}

// builtin returns g's weights built into the binary, else the starting
// estimate.
func builtin(g *rules.Game) (*features.Weights, string, error) {
	name := filepath.ToSlash(DefaultPath(g.Name))
	data, ok := configs.Weights(g.Name)
	if !ok {
		return features.Starting(g), "starting estimate", nil
	}
	w, err := Parse(data, "built-in "+name, g)
	return w, "built-in " + name, err
}

// LoadAny reads the weights file (or object) at path for whichever game it
// names.
func LoadAny(path string) (*rules.Game, *features.Weights, error) {
	data, err := read(path)
	if err != nil {
		return nil, nil, err
	}
	name, err := gameOf(data, path)
	if err != nil {
		return nil, nil, err
	}
	g, err := rules.Lookup(name)
	if err != nil {
		return nil, nil, fmt.Errorf("weights file %s: %v", path, err)
	}
	w, err := Parse(data, path, g)
	return g, w, err
}

// Game returns the game a weights file (or object) names.
func Game(path string) (string, error) {
	data, err := read(path)
	if err != nil {
		return "", err
	}
	return gameOf(data, path)
}

func gameOf(data []byte, path string) (string, error) {
	if err := notWeights(data, path); err != nil {
		return "", err
	}
	var head struct {
		Game string `json:"game"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return "", fmt.Errorf("weights file %s: bad JSON: %v", path, err)
	}
	if head.Game == "" {
		return "", fmt.Errorf("weights file %s names no game", path)
	}
	return head.Game, nil
}

func read(path string) ([]byte, error) {
	data, err := storage.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("weights: %w", err)
	}
	return data, nil
}

// Parse parses the weights file data read from name for g, with a one-line
// error naming name, which says what the data is when it is not weights.
func Parse(data []byte, name string, g *rules.Game) (*features.Weights, error) {
	if err := notWeights(data, name); err != nil {
		return nil, err
	}
	w, err := features.ParseWeights(data, g)
	if err != nil {
		return nil, fmt.Errorf("weights file %s: %v", name, err)
	}
	return w, nil
}

// want is what a weights file is, for errors about files that are not.
const want = "want a weights file: JSON with format, game, version and a model list (or format 1's terms), as taifu tune writes"

// notWeights returns an error saying what data is when it is plainly not a
// weights file (Parquet, not JSON, another JSON file of taifu's), else nil.
func notWeights(data []byte, name string) error {
	trimmed := bytes.TrimLeft(data, " \t\r\n")
	switch {
	case bytes.HasPrefix(data, []byte("PAR1")):
		return fmt.Errorf("%s is a Parquet file (self-play data?), not weights; %s", name, want)
	case len(trimmed) == 0:
		return fmt.Errorf("%s is empty; %s", name, want)
	case trimmed[0] != '{':
		return fmt.Errorf("%s is not JSON (it starts with %q); %s", name, firstBytes(trimmed), want)
	}
	var keys map[string]json.RawMessage
	if json.Unmarshal(data, &keys) != nil {
		return nil // ParseWeights says where the JSON is broken
	}
	if _, ok := keys["model"]; ok {
		return nil
	}
	if _, ok := keys["terms"]; ok {
		return nil // format 1: the three sections
	}
	has := func(k ...string) bool {
		for _, k := range k {
			if _, ok := keys[k]; !ok {
				return false
			}
		}
		return true
	}
	var what string
	switch {
	case has("run_id", "files"):
		what = "a self-play run manifest"
	case has("records", "a", "b"):
		what = "a match report"
	case has("generations"):
		what = "a training run's state"
	case has("claims"):
		what = "a claims file"
	default:
		names := make([]string, 0, len(keys))
		for k := range keys {
			names = append(names, k)
		}
		sort.Strings(names)
		if len(names) > 6 {
			names = append(names[:6], "...")
		}
		what = fmt.Sprintf("JSON without a model list or terms (keys: %s)", strings.Join(names, ", "))
	}
	return fmt.Errorf("%s is %s, not weights; %s", name, what, want)
}

func firstBytes(b []byte) string {
	if len(b) > 8 {
		b = b[:8]
	}
	return string(b)
}

// Save writes w to path (a file or an object store URL, package storage)
// as canonical JSON (features.Weights.Encode), atomically: internal/atomicfile
// locally, one upload to an object store. Local parent directories are
// created.
func Save(w *features.Weights, path string) error {
	b, err := w.Encode()
	if err != nil {
		return fmt.Errorf("weights %s: %v", path, err)
	}
	if dir := filepath.Dir(path); dir != "" && !storage.IsURL(path) {
		if err := storage.MkdirAll(dir); err != nil {
			return fmt.Errorf("weights: %v", err)
		}
	}
	if err := storage.WriteFile(path, b); err != nil {
		return fmt.Errorf("weights: %v", err)
	}
	return nil
}
