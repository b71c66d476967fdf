package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestClaimsCommand runs taifu claims on the shipped starting weights and
// claims files (paths from cmd/taifu to the repository root).
func TestClaimsCommand(t *testing.T) {
	t.Parallel() // heavy, touches no package state: runs beside the other heavy tests
	root := filepath.Join("..", "..")
	for _, game := range []string{"typhoon", "samarkand", "torishogi"} {
		weights := filepath.Join(root, "configs", "weights", game+".json")
		file := filepath.Join(root, "configs", "claims", game+".json")
		var out, errb bytes.Buffer
		if code := run([]string{"claims", "--weights", weights, "--claims", file}, &out, &errb); code != 0 {
			t.Fatalf("%s: exit %d: %s", game, code, errb.String())
		}
		if !strings.HasPrefix(out.String(), "# Piece-value claims, "+game) || !strings.Contains(out.String(), "| id | verdict |") {
			t.Errorf("%s: markdown output %q", game, out.String()[:min(200, out.Len())])
		}
		if game == "torishogi" && !strings.Contains(out.String(), "## Against Fairy-Stockfish") {
			t.Errorf("torishogi: no engine table")
		}
		out.Reset()
		if code := run([]string{"claims", "--weights", weights, "--claims", file, "--format", "json"}, &out, &errb); code != 0 {
			t.Fatalf("%s json: exit %d: %s", game, code, errb.String())
		}
		var rep struct {
			Game    string `json:"game"`
			Results []struct {
				ID      string `json:"id"`
				Verdict string `json:"verdict"`
			} `json:"results"`
		}
		if err := json.Unmarshal(out.Bytes(), &rep); err != nil || rep.Game != game || len(rep.Results) == 0 {
			t.Errorf("%s json: %v, %+v", game, err, rep)
		}
	}
}

// TestClaimsErrors: bad flags and files give one-line errors and exit 1.
func TestClaimsErrors(t *testing.T) {
	dir := t.TempDir()
	weights := filepath.Join("..", "..", "configs", "weights", "typhoon.json")
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"format": 1, "game": "typhoon", "unit": "P", "claims": [{"id": "TY-X", "quote": "q", "source": "s", "reading": "r", "kind": "less", "subject": ["ZZ"], "reference": ["P"]}]}`), 0o644)
	table := filepath.Join(dir, "bad.csv")
	os.WriteFile(table, []byte("# game: typhoon\n# unit: P\nkind,name,games,imbalance,imbalance_low,imbalance_high,texel,texel_low,texel_high,overlap,note\nN,Knight,200,3,4,2,,,,–,\n"), 0o644)
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"claims"}, "give --weights FILE or --game G"},
		{[]string{"claims", "--weights", weights, "--format", "xml"}, "unknown --format"},
		{[]string{"claims", "--weights", filepath.Join(dir, "none.json")}, "none.json"},
		{[]string{"claims", "--weights", weights, "--claims", bad}, "claim TY-X: unknown token \"ZZ\""},
		{[]string{"claims", "--weights", weights, "--game", "samarkand", "--claims", bad}, "weights"},
		{[]string{"claims", "--game", "chess"}, "chess"},
		{[]string{"claims", "--weights", weights, "--two-way", table}, "bad.csv:4: N: imbalance interval [4, 2] is reversed"},
		{[]string{"claims", "--weights", weights, "--two-way", filepath.Join("..", "..", "results", "torishogi-values.csv")}, "torishogi-values.csv is of torishogi, not typhoon"},
	}
	for _, tc := range cases {
		var out, errb bytes.Buffer
		code := run(tc.args, &out, &errb)
		msg := errb.String()
		if code != 1 || strings.Count(msg, "\n") != 1 || !strings.HasPrefix(msg, "taifu claims: ") || !strings.Contains(msg, tc.want) {
			t.Errorf("%v: exit %d, stderr %q (want one line containing %q)", tc.args, code, msg, tc.want)
		}
	}
}

// TestClaimsTwoWay: with --two-way each claim is also read on the table's
// imbalance games, in a column of its own after a summary line (Tori
// shogi's shipped weights and their two-way table in results/).
func TestClaimsTwoWay(t *testing.T) {
	root := filepath.Join("..", "..", "results")
	code, out, errs := runCLI("claims", "--weights", filepath.Join(root, "torishogi-shipped-weights.json"), "--two-way", filepath.Join(root, "torishogi-values.csv"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, w := range []string{"Imbalance games of two-way table ", "(taifu's search, weights torishogi-gen7-net16): ", "| id | verdict | claim | reading | observed | imbalance games |",
		"| TS-03 | confirmed (robust) |", "| agrees: confirmed (uncertain); CR = 4.20, PT = 0.31, ratio 13.73; the reference's interval reaches 0; intervals overlap |"} {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
	// Samarkand's table is in GE, its claims in P: the Giraffe against the
	// Elephant plus the Turtle is read on the worths in GE
	// (results/samarkand-values.csv: 0.633 over 0.242 + 0.242 = 0.484).
	code, out, errs = runCLI("claims", "--weights", filepath.Join(root, "samarkand-shipped-weights.json"), "--two-way", filepath.Join(root, "samarkand-values.csv"))
	if code != 0 {
		t.Fatalf("samarkand: exit %d: %s", code, errs)
	}
	for _, w := range []string{"The table's worths are in GE", "| agrees: contradicted (uncertain); G = 0.63, E + T = 0.48, ratio 1.31; interval 0.37..35.35; intervals overlap |"} {
		if !strings.Contains(out, w) {
			t.Errorf("samarkand: output lacks %q:\n%s", w, out)
		}
	}
}
