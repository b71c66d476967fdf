package main

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"taifu/arena/imbalance"
	"taifu/storage"
	"taifu/tuner/values"
)

// twoWayTable joins an imbalance results file (resName) with a
// whole-model export table (taifu export --method model --format json,
// tabName) of the same game: per imbalance row, the export's "removed, on
// board" value of the kind (a trade row has none), in the run's unit. When
// the run's unit is not the export's (taifu imbalance --unit), each export
// value and its interval's ends are divided by the export's value of the
// run's unit kind (the export keeps no bootstrap samples, so the unit's
// own spread is not in the interval).
func twoWayTable(res *imbalance.Result, tab *values.PieceTable, resName, tabName string) (*values.TwoWay, error) {
	if res.Settings.Run.Game != tab.Game {
		return nil, fmt.Errorf("the imbalance run is of %s, the export table of %s", res.Settings.Run.Game, tab.Game)
	}
	unit, per, ref, texelWhat, err := twoWayUnit(res, tab)
	if err != nil {
		return nil, err
	}
	player := "taifu's search, weights " + res.Settings.Run.Weights
	if e := res.Settings.Run.Engine; e != "" {
		player = "engine " + e
	}
	out := &values.TwoWay{Game: tab.Game, Unit: unit, Player: player, TexelWeights: tab.Version,
		Imbalance: fmt.Sprintf("%s (early stop: %s), the full side's logistic advantage over %s, 95%% interval by the delta method", resName, res.StopRule, ref),
		Texel:     fmt.Sprintf("%s (%s), %s; %s", tabName, tab.Method, texelWhat, tab.Bars)}
	for _, r := range res.Rows {
		if r.Unit {
			continue
		}
		t := values.TwoWayRow{Kind: r.Label, Games: r.Games, Worth: r.Worth, Low: r.WorthLow, High: r.WorthHigh, WorthOK: r.WorthDefined}
		for _, p := range tab.Pieces {
			if p.Kind == r.Label && !p.InHand {
				t.Name, t.Texel, t.TexelOK = p.Name, p.Value/per, true
				if p.Low != nil && p.High != nil {
					t.TexelLow, t.TexelHigh, t.TexelInterval = *p.Low/per, *p.High/per, true
				}
			}
		}
		why := ""
		switch {
		case t.Trade():
			t.Overlap = "–"
		case !t.TexelOK:
			t.Overlap, why = "–", "not in the export table"
		case r.Games == 0:
			t.Overlap, why = "–", "not played"
		case !t.WorthOK:
			t.Overlap = "–" // the row's flag says why
		case !t.TexelInterval:
			t.Overlap, why = "–", "the export table has no interval"
		case t.Low <= t.TexelHigh && t.TexelLow <= t.High:
			t.Overlap = "yes"
		default:
			t.Overlap = "no"
		}
		t.Note = strings.Trim(r.Flag+"; "+why, "; ")
		out.Rows = append(out.Rows, t)
	}
	return out, nil
}

// twoWayUnit returns the unit of res's worths, the divisor that puts
// tab's values in it (1, or the export's value of the run's unit kind),
// and the words the table's header uses for the imbalance reference and
// the Texel value.
func twoWayUnit(res *imbalance.Result, tab *values.PieceTable) (unit string, per float64, ref, texelWhat string, err error) {
	if len(res.Rows) == 0 || !res.Rows[0].Unit {
		return "", 0, "", "", fmt.Errorf("the imbalance run has no unit reference row")
	}
	unit, per = res.Rows[0].Label, 1.0
	ref, texelWhat = "the pawn-odds reference's", `the "removed, on board" value`
	if unit != tab.Unit {
		per = 0
		for _, p := range tab.Pieces {
			if p.Kind == unit && !p.InHand {
				per = p.Value
			}
		}
		if !(per > 0) {
			return "", 0, "", "", fmt.Errorf("the export table (unit %s) has no positive on-board value of %s, the imbalance run's unit", tab.Unit, unit)
		}
		ref = "the unit reference's (one " + unit + " taken" + rebased(res) + ")"
		texelWhat = fmt.Sprintf(`the "removed, on board" value over %s's (%.2f %s; the interval's ends divided by it: the export keeps no bootstrap samples, so %s's own spread is left out)`,
			unit, per, tab.Unit, unit)
	}
	return unit, per, ref, texelWhat, nil
}

// rebased says, after a unit's name, that the unit was chosen after the
// run (taifu imbalance --report --unit), and which the run played.
func rebased(res *imbalance.Result) string {
	if len(res.Rows) == 0 || res.Rows[0].Label == res.Settings.Run.Unit {
		return ""
	}
	return "; read after the run, whose reference was " + res.Settings.Run.Unit
}

// writeTwoWay writes the two-way table t (of res and tab) as Markdown,
// CSV, or a chart (svg, png).
func writeTwoWay(w io.Writer, format, resName, tabName string, res *imbalance.Result, tab *values.PieceTable) error {
	t, err := twoWayTable(res, tab, resName, tabName)
	if err != nil {
		return err
	}
	_, _, ref, texelWhat, _ := twoWayUnit(res, tab) // checked by twoWayTable
	switch format {
	case "csv":
		return t.WriteCSV(w)
	case "svg", "png":
		return t.WriteChart(w, format)
	}
	ival := func(v, lo, hi float64, ok, interval bool) string {
		switch {
		case !ok:
			return "–"
		case !interval:
			return fmt.Sprintf("%.2f", v)
		}
		return fmt.Sprintf("%.2f [%.2f, %.2f]", v, lo, hi)
	}
	fmt.Fprintf(w, "Piece values of %s in %s, two ways. Imbalance: %s (%s; %s), the full side's logistic advantage over %s, 95%% interval by the delta method. Texel, whole model: %s (%s), weights %s, %s; %s.\n\n",
		tab.Game, t.Unit, resName, t.Player, res.StopRule, ref, tabName, tab.Method, tab.Version, texelWhat, tab.Bars)
	fmt.Fprintln(w, "| kind | piece | games | imbalance [95%] | Texel, whole model | overlap | note |")
	fmt.Fprintln(w, "|---|---|---:|---:|---:|---|---|")
	both, over := 0, 0
	for _, r := range t.Rows {
		if r.Overlap == "yes" || r.Overlap == "no" {
			both++
			if r.Overlap == "yes" {
				over++
			}
		}
		note := r.Note
		if r.Trade() {
			note = strings.Trim("a trade: the difference, in units; "+note, "; ")
		}
		fmt.Fprintf(w, "| %s | %s | %d | %s | %s | %s | %s |\n", r.Kind, r.Name, r.Games, ival(r.Worth, r.Low, r.High, r.WorthOK, true),
			ival(r.Texel, r.TexelLow, r.TexelHigh, r.TexelOK, r.TexelInterval), r.Overlap, note)
	}
	fmt.Fprintf(w, "\nThe intervals overlap for %d of the %d kinds with both.\n", over, both)
	return nil
}

// twoWayUsage starts the usage of --two-way in every command that reads
// a two-way table.
const twoWayUsage = "two-way table `FILE.csv` (taifu imbalance --report --format csv)"

// readTwoWay reads the two-way table CSV at path (--two-way).
func readTwoWay(path string) (*values.TwoWay, error) {
	data, err := storage.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return values.ParseTwoWay(path, data)
}

// runImbalanceReport is taifu imbalance --report and --two-way: the
// two-way table of an imbalance results file and a whole-model export
// table, or the chart of a two-way table's CSV, to stdout or --out.
func runImbalanceReport(f *imbalanceFlags, stdout io.Writer) error {
	var b bytes.Buffer
	if f.twoWay != "" {
		if f.report != "" || f.texel != "" || f.unit != "" {
			return usageErrorf("--two-way reads a table made from --report and --texel (and --unit): give one or the others")
		}
		format := cmp.Or(f.format, "svg")
		if format != "svg" && format != "png" {
			return usageErrorf("--two-way draws the table's chart: --format svg or png, not %q", format)
		}
		t, err := readTwoWay(f.twoWay)
		if err != nil {
			return err
		}
		if err := t.WriteChart(&b, format); err != nil {
			return fmt.Errorf("%s: %v", f.twoWay, err)
		}
	} else {
		format := cmp.Or(f.format, "md")
		switch format {
		case "md", "csv", "svg", "png":
		default:
			return usageErrorf("unknown --format %q (md, csv, svg or png)", format)
		}
		if f.texel == "" && f.format != "" {
			return usageErrorf("--format %s is the two-way table's: give --texel, the export table (taifu export --method model --format json)", format)
		}
		data, err := storage.ReadFile(f.report)
		if err != nil {
			return err
		}
		res, err := imbalance.Parse(f.report, data)
		if err != nil {
			return err
		}
		if f.unit != "" {
			if err := res.Rebase(f.unit); err != nil {
				return fmt.Errorf("%s: %v", f.report, err)
			}
		}
		if f.texel == "" { // the run's own table, as the run printed it (rebased with --unit)
			printImbalance(&b, res, 2*res.Settings.Run.Pairs)
			return toOutOrStdout(f.out, b.Bytes(), stdout)
		}
		if data, err = storage.ReadFile(f.texel); err != nil {
			return err
		}
		tab := new(values.PieceTable)
		if err := json.Unmarshal(data, tab); err != nil || tab.Method != values.MethodModel {
			return fmt.Errorf("%s: not a whole-model export table (taifu export --method model --format json)", f.texel)
		}
		if err := writeTwoWay(&b, format, f.report, f.texel, res, tab); err != nil {
			return fmt.Errorf("%s and %s: %v", f.report, f.texel, err)
		}
	}
	return toOutOrStdout(f.out, b.Bytes(), stdout)
}
