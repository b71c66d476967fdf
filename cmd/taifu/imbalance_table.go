package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"taifu/arena/imbalance"
	"taifu/storage"
	"taifu/tuner/values"
)

// twoWayRow is one kind of the two-way table: its imbalance worth and its
// whole-model (Texel) worth, each with its interval.
type twoWayRow struct {
	label, name                 string
	games                       int
	worth, worthLow, worthHigh  float64
	worthOK                     bool
	texel, texelLow, texelHigh  float64
	texelOK, texelInterval      bool
	trade                       bool
	overlap, imbalanceFlag, why string
}

// twoWayTable joins an imbalance results file with a whole-model export
// table (taifu export --method model --format json) of the same game: per
// imbalance row, the export's "removed, on board" value of the kind (a
// trade row has none), in the run's unit. It returns the divisor that
// puts the export's values in that unit: 1 when the units agree, else the
// export's value of the run's unit kind (taifu imbalance --unit), by which
// each value and its interval's ends are divided (the export keeps no
// bootstrap samples, so the unit's own spread is not in the interval).
func twoWayTable(res *imbalance.Result, tab *values.PieceTable) ([]twoWayRow, float64, error) {
	if res.Settings.Run.Game != tab.Game {
		return nil, 0, fmt.Errorf("the imbalance run is of %s, the export table of %s", res.Settings.Run.Game, tab.Game)
	}
	if len(res.Rows) == 0 || !res.Rows[0].Unit {
		return nil, 0, fmt.Errorf("the imbalance run has no unit reference row")
	}
	unit, per := res.Rows[0].Label, 1.0
	if unit != tab.Unit {
		per = 0
		for _, p := range tab.Pieces {
			if p.Kind == unit && !p.InHand {
				per = p.Value
			}
		}
		if !(per > 0) {
			return nil, 0, fmt.Errorf("the export table (unit %s) has no positive on-board value of %s, the imbalance run's unit", tab.Unit, unit)
		}
	}
	var out []twoWayRow
	for _, r := range res.Rows {
		if r.Unit {
			continue
		}
		t := twoWayRow{label: r.Label, games: r.Games, worth: r.Worth, worthLow: r.WorthLow, worthHigh: r.WorthHigh,
			worthOK: r.WorthDefined, imbalanceFlag: r.Flag, trade: strings.Contains(r.Label, "=")}
		for _, p := range tab.Pieces {
			if p.Kind == r.Label && !p.InHand {
				t.name, t.texel, t.texelOK = p.Name, p.Value/per, true
				if p.Low != nil && p.High != nil {
					t.texelLow, t.texelHigh, t.texelInterval = *p.Low/per, *p.High/per, true
				}
			}
		}
		switch {
		case t.trade:
			t.overlap = "–"
		case !t.texelOK:
			t.overlap, t.why = "–", "not in the export table"
		case r.Games == 0:
			t.overlap, t.why = "–", "not played"
		case !t.worthOK:
			t.overlap = "–" // the row's flag says why
		case !t.texelInterval:
			t.overlap, t.why = "–", "the export table has no interval"
		case t.worthLow <= t.texelHigh && t.texelLow <= t.worthHigh:
			t.overlap = "yes"
		default:
			t.overlap = "no"
		}
		out = append(out, t)
	}
	return out, per, nil
}

// writeTwoWay writes the two-way table of res and tab as Markdown or CSV.
func writeTwoWay(w io.Writer, format, resName, tabName string, res *imbalance.Result, tab *values.PieceTable) error {
	rows, per, err := twoWayTable(res, tab)
	if err != nil {
		return err
	}
	unit, ref, texel := tab.Unit, "the pawn-odds reference's", "the \"removed, on board\" value"
	if res.Rows[0].Label != tab.Unit {
		unit, ref = res.Rows[0].Label, "the unit reference's (one "+res.Rows[0].Label+" taken)"
		texel = fmt.Sprintf("the \"removed, on board\" value over %s's (%.2f %s; the interval's ends divided by it: the export keeps no bootstrap samples, so %s's own spread is left out)",
			unit, per, tab.Unit, unit)
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
	player := "taifu's search, weights " + res.Settings.Run.Weights
	if e := res.Settings.Run.Engine; e != "" {
		player = "engine " + e
	}
	if format == "csv" {
		cw := csv.NewWriter(w)
		cw.Write([]string{"kind", "name", "games", "imbalance", "imbalance_low", "imbalance_high", "texel", "texel_low", "texel_high", "overlap", "note"})
		num := func(v float64, ok bool) string {
			if !ok {
				return ""
			}
			return strconv.FormatFloat(v, 'f', 3, 64)
		}
		for _, r := range rows {
			cw.Write([]string{r.label, r.name, strconv.Itoa(r.games), num(r.worth, r.worthOK), num(r.worthLow, r.worthOK), num(r.worthHigh, r.worthOK),
				num(r.texel, r.texelOK), num(r.texelLow, r.texelInterval), num(r.texelHigh, r.texelInterval), r.overlap, strings.Trim(r.imbalanceFlag+"; "+r.why, "; ")})
		}
		cw.Flush()
		return cw.Error()
	}
	fmt.Fprintf(w, "Piece values of %s in %s, two ways. Imbalance: %s (%s; %s), the full side's logistic advantage over %s, 95%% interval by the delta method. Texel, whole model: %s (%s), weights %s, %s; %s.\n\n",
		tab.Game, unit, resName, player, res.StopRule, ref, tabName, tab.Method, tab.Version, texel, tab.Bars)
	fmt.Fprintln(w, "| kind | piece | games | imbalance [95%] | Texel, whole model | overlap | note |")
	fmt.Fprintln(w, "|---|---|---:|---:|---:|---|---|")
	both, over := 0, 0
	for _, r := range rows {
		if r.overlap == "yes" || r.overlap == "no" {
			both++
			if r.overlap == "yes" {
				over++
			}
		}
		note := strings.Trim(r.imbalanceFlag+"; "+r.why, "; ")
		if r.trade {
			note = strings.Trim("a trade: the difference, in units; "+note, "; ")
		}
		fmt.Fprintf(w, "| %s | %s | %d | %s | %s | %s | %s |\n", r.label, r.name, r.games, ival(r.worth, r.worthLow, r.worthHigh, r.worthOK, true),
			ival(r.texel, r.texelLow, r.texelHigh, r.texelOK, r.texelInterval), r.overlap, note)
	}
	fmt.Fprintf(w, "\nThe intervals overlap for %d of the %d kinds with both.\n", over, both)
	return nil
}

// runImbalanceReport is taifu imbalance --report: the two-way table of an
// imbalance results file and a whole-model export table, to stdout or out.
func runImbalanceReport(report, texel, format, out string, stdout io.Writer) error {
	if format != "md" && format != "csv" {
		return usageErrorf("unknown --format %q (md or csv)", format)
	}
	if texel == "" {
		return usageErrorf("--report needs --texel, the export table (taifu export --method model --format json)")
	}
	data, err := storage.ReadFile(report)
	if err != nil {
		return err
	}
	res, err := imbalance.Parse(report, data)
	if err != nil {
		return err
	}
	if data, err = storage.ReadFile(texel); err != nil {
		return err
	}
	tab := new(values.PieceTable)
	if err := json.Unmarshal(data, tab); err != nil || tab.Method != values.MethodModel {
		return fmt.Errorf("%s: not a whole-model export table (taifu export --method model --format json)", texel)
	}
	var b bytes.Buffer
	if err := writeTwoWay(&b, format, report, texel, res, tab); err != nil {
		return fmt.Errorf("%s and %s: %v", report, texel, err)
	}
	if out == "" {
		_, err := stdout.Write(b.Bytes())
		return err
	}
	return storage.WriteFile(out, b.Bytes())
}
