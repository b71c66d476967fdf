package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"taifu/datasets"
	"taifu/features"
	"taifu/rules"
	"taifu/storage"
	"taifu/tuner"
)

func init() {
	register(&command{"export", "publish the piece values of a weights file (json, csv, md, svg, png)", runExport})
}

func runExport(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("export", stderr)
	path := fs.String("weights", "", "weights file")
	format := fs.String("format", "md", "json, csv, md, svg or png")
	out := fs.String("out", "", "output file (default standard output; required for png)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *path == "" {
		return errors.New("--weights is required")
	}
	switch *format {
	case "json", "csv", "md", "svg", "png":
	default:
		return fmt.Errorf("unknown --format %q (json, csv, md, svg or png)", *format)
	}
	if *format == "png" && *out == "" {
		return errors.New("--format png needs --out")
	}
	tab, err := exportTable(*path)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	switch *format {
	case "json":
		err = tab.WriteJSON(&b)
	case "csv":
		err = tab.WriteCSV(&b)
	case "md":
		err = tab.WriteMarkdown(&b)
	default:
		err = tab.WriteChart(&b, *format)
	}
	if err != nil {
		return err
	}
	if *out == "" {
		_, err = stdout.Write(b.Bytes())
		return err
	}
	return datasets.WriteFileAtomic(*out, b.Bytes())
}

// exportTable reads a weights file (of whichever game it names) and returns
// its piece values.
func exportTable(path string) (*tuner.PieceTable, error) {
	data, err := storage.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var head struct {
		Game string `json:"game"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, fmt.Errorf("weights file %s: bad JSON: %v", path, err)
	}
	g, err := rules.Lookup(head.Game)
	if err != nil {
		return nil, fmt.Errorf("weights file %s: %v", path, err)
	}
	w, err := features.ParseWeights(data, g)
	if err != nil {
		return nil, fmt.Errorf("weights file %s: %v", path, err)
	}
	tab, err := tuner.PieceValues(g, w.Version, w.Terms, w.Provenance)
	if err != nil {
		return nil, fmt.Errorf("weights file %s: %v", path, err)
	}
	return tab, nil
}
