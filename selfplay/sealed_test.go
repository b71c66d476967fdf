package selfplay

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"taifu/datasets"
)

// TestResumeRefusesUnsealedManifest (issue 60): a run's manifest with its
// config.playouts edited and its checksum removed is not resumed (with the
// edited playouts) and resealed: a format 5 manifest must carry its
// checksum.
func TestResumeRefusesUnsealedManifest(t *testing.T) {
	cfg := small(t, 1)
	cfg.Games = 2
	run(t, cfg, Options{CommitGames: 1, CommitEvery: -1})
	mpath := filepath.Join(cfg.Out, datasets.ManifestName(0, 1))
	data, _ := os.ReadFile(mpath)
	var v map[string]any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	conf := v["config"].(map[string]any)
	if _, ok := conf["playouts"]; !ok {
		t.Fatalf("no config.playouts in %s", data)
	}
	conf["playouts"] = 48.0
	delete(v, "checksum")
	data, _ = json.MarshalIndent(v, "", "  ")
	os.WriteFile(mpath, data, 0o644)
	more := cfg
	more.Games, more.Config.Playouts = 4, 48
	_, err := Run(context.Background(), more, Options{Resume: true})
	if err == nil || !strings.Contains(err.Error(), "manifest.json") || !strings.Contains(err.Error(), `no "checksum" key`) {
		t.Errorf("resume of an edited manifest without its checksum: %v", err)
	}
	if after, _ := os.ReadFile(mpath); string(after) != string(data) {
		t.Errorf("the manifest was rewritten")
	}
}
