package values

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"taifu/rules"
)

// TwoWay is a two-way table of one game's piece values (taifu imbalance
// --report): per row, the worth from imbalance games and the whole-model
// (Texel) value, each with its interval, in units of the game's unit piece.
type TwoWay struct {
	Game string // rules.Game.Name
	Unit string // the unit piece's token
	// Player is who played the imbalance games: "taifu's search, weights
	// V" or "engine CMD".
	Player string
	// TexelWeights is the version of the weights the whole model is of.
	TexelWeights string
	// Imbalance and Texel say where each column comes from and what its
	// intervals are (one line each).
	Imbalance, Texel string
	Rows             []TwoWayRow
}

// TwoWayRow is one row of a two-way table: a kind removed, or a trade
// ("Q=R+R", whose worth is a difference and which has no Texel value).
type TwoWayRow struct {
	Kind, Name string
	Games      int
	// Worth, Low and High are the imbalance worth and its 95% interval;
	// WorthOK is false when the row was not played or its worth is
	// undefined.
	Worth, Low, High float64
	WorthOK          bool
	// Texel is the whole model's "removed, on board" value; TexelOK is
	// false when the export table has no such row, TexelInterval when it
	// has no interval.
	Texel, TexelLow, TexelHigh float64
	TexelOK, TexelInterval     bool
	// Overlap is "yes" or "no" when both intervals exist, else "–".
	Overlap string
	// Note is the imbalance row's flag and why a column is missing.
	Note string
}

// Trade reports whether the row is a trade (A=B+C) rather than a kind.
func (r *TwoWayRow) Trade() bool { return strings.Contains(r.Kind, "=") }

// twoWayHeader is the header row of a two-way table's CSV.
var twoWayHeader = []string{"kind", "name", "games", "imbalance", "imbalance_low", "imbalance_high", "texel", "texel_low", "texel_high", "overlap", "note"}

// The keys of a two-way CSV's comment lines ("# key: value").
const (
	twoWayGame         = "game"
	twoWayUnit         = "unit"
	twoWayPlayer       = "player"
	twoWayTexelWeights = "texel weights"
	twoWayImbalance    = "imbalance"
	twoWayTexel        = "texel"
)

// WriteCSV writes t as CSV: comment lines ("# key: value", for a reader
// with Comment '#') naming the game, the unit, who played the games, the
// Texel weights and what each column's intervals are, then the header row
// kind,name,games,imbalance,imbalance_low,imbalance_high,texel,texel_low,texel_high,overlap,note
// and one row per imbalance row (empty cells for a missing worth, Texel
// value or interval). ParseTwoWay reads it back.
func (t *TwoWay) WriteCSV(w io.Writer) error {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# Piece values of %s in %s, two ways: imbalance games and the whole model (Texel)\n", t.Game, t.Unit)
	for _, kv := range [][2]string{{twoWayGame, t.Game}, {twoWayUnit, t.Unit}, {twoWayPlayer, t.Player},
		{twoWayTexelWeights, t.TexelWeights}, {twoWayImbalance, t.Imbalance}, {twoWayTexel, t.Texel}} {
		if kv[1] != "" {
			fmt.Fprintf(&b, "# %s: %s\n", kv[0], oneLine(kv[1]))
		}
	}
	cw := csv.NewWriter(&b)
	cw.Write(twoWayHeader)
	num := func(v float64, ok bool) string {
		if !ok {
			return ""
		}
		return strconv.FormatFloat(v, 'f', 3, 64)
	}
	for _, r := range t.Rows {
		cw.Write([]string{r.Kind, r.Name, strconv.Itoa(r.Games), num(r.Worth, r.WorthOK), num(r.Low, r.WorthOK), num(r.High, r.WorthOK),
			num(r.Texel, r.TexelOK), num(r.TexelLow, r.TexelInterval), num(r.TexelHigh, r.TexelInterval), r.Overlap, r.Note})
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return err
	}
	_, err := w.Write(b.Bytes())
	return err
}

// ParseTwoWay reads a two-way table written by WriteCSV; name is used in
// messages. Errors are one line, "name:LINE: what".
func ParseTwoWay(name string, data []byte) (*TwoWay, error) {
	fail := func(line int, format string, a ...any) error {
		return fmt.Errorf("two-way table %s:%d: %s", name, line, fmt.Sprintf(format, a...))
	}
	t := &TwoWay{}
	keys := map[string]*string{twoWayGame: &t.Game, twoWayUnit: &t.Unit, twoWayPlayer: &t.Player,
		twoWayTexelWeights: &t.TexelWeights, twoWayImbalance: &t.Imbalance, twoWayTexel: &t.Texel}
	// The comment lines before the header name the game and the unit.
	lines := strings.SplitAfter(string(data), "\n")
	line := 0
	for ; line < len(lines) && strings.HasPrefix(lines[line], "#"); line++ {
		text := strings.TrimSpace(strings.TrimPrefix(lines[line], "#"))
		k, v, ok := strings.Cut(text, ":")
		p := keys[k]
		if !ok || p == nil {
			continue // the title, or a comment for people
		}
		if *p != "" {
			return nil, fail(line+1, "a second %q line", k)
		}
		if *p = strings.TrimSpace(v); *p == "" {
			return nil, fail(line+1, "empty %q", k)
		}
	}
	if t.Game == "" || t.Unit == "" {
		return nil, fail(line+1, "no \"# game: G\" and \"# unit: U\" comment lines before the header (taifu imbalance --report --format csv writes them)")
	}
	g, err := rules.Lookup(t.Game)
	if err != nil {
		return nil, fail(1, "%v", oneLine(err.Error()))
	}
	if _, ok := g.KindByToken(t.Unit); !ok {
		return nil, fail(1, "unit %q is no kind of %s", t.Unit, g.Name)
	}
	r := csv.NewReader(bytes.NewReader(data))
	r.Comment = '#'
	r.FieldsPerRecord = len(twoWayHeader)
	seen := map[string]bool{}
	for header := true; ; header = false {
		rec, err := r.Read()
		if err == io.EOF {
			if header {
				return nil, fail(line+1, "no header row")
			}
			break
		}
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			return nil, fail(pe.Line, "%v", pe.Err)
		} else if err != nil {
			return nil, fail(line+1, "%v", err)
		}
		at, _ := r.FieldPos(0)
		if header {
			if strings.Join(rec, ",") != strings.Join(twoWayHeader, ",") {
				return nil, fail(at, "header %q, want %q", strings.Join(rec, ","), strings.Join(twoWayHeader, ","))
			}
			continue
		}
		row, err := parseTwoWayRow(g, rec)
		if err != nil {
			return nil, fail(at, "%v", err)
		}
		if seen[row.Kind] {
			return nil, fail(at, "a second row %s", row.Kind)
		}
		seen[row.Kind] = true
		t.Rows = append(t.Rows, row)
	}
	return t, nil
}

// parseTwoWayRow reads one data row of a two-way CSV (the header's
// columns).
func parseTwoWayRow(g *rules.Game, rec []string) (TwoWayRow, error) {
	row := TwoWayRow{Kind: rec[0], Name: rec[1], Overlap: rec[9], Note: rec[10]}
	if row.Kind == "" {
		return row, fmt.Errorf("empty kind")
	}
	tokens := []string{row.Kind}
	if row.Trade() {
		a, b, _ := strings.Cut(row.Kind, "=")
		tokens = append([]string{a}, strings.Split(b, "+")...)
	}
	for _, tok := range tokens {
		if _, ok := g.KindByToken(tok); !ok {
			return row, fmt.Errorf("kind %q: %q is no kind of %s", row.Kind, tok, g.Name)
		}
	}
	games, err := strconv.Atoi(rec[2])
	if err != nil || games < 0 {
		return row, fmt.Errorf("%s: games %q, want a count", row.Kind, rec[2])
	}
	row.Games = games
	// triple reads a value and its interval: all empty (ok false), the
	// value alone (interval false, when alone is allowed) or all three.
	triple := func(what string, cells []string, alone bool) (v, lo, hi float64, ok, interval bool, err error) {
		var x [3]float64
		set := 0
		for i, c := range cells {
			if c == "" {
				continue
			}
			set++
			f, perr := strconv.ParseFloat(c, 64)
			if perr != nil || math.IsNaN(f) || math.IsInf(f, 0) {
				return 0, 0, 0, false, false, fmt.Errorf("%s: %s %q is not a number", row.Kind, what, c)
			}
			x[i] = f
		}
		switch {
		case set == 0:
			return 0, 0, 0, false, false, nil
		case set == 3 && x[1] <= x[2]:
			return x[0], x[1], x[2], true, true, nil
		case set == 3:
			return 0, 0, 0, false, false, fmt.Errorf("%s: %s interval [%s, %s] is reversed", row.Kind, what, cells[1], cells[2])
		case alone && set == 1 && cells[0] != "":
			return x[0], 0, 0, true, false, nil
		}
		return 0, 0, 0, false, false, fmt.Errorf("%s: %s needs its value and both interval ends, or none", row.Kind, what)
	}
	if row.Worth, row.Low, row.High, row.WorthOK, _, err = triple("imbalance", rec[3:6], false); err != nil {
		return row, err
	}
	if row.WorthOK && games == 0 {
		return row, fmt.Errorf("%s: an imbalance worth of 0 games", row.Kind)
	}
	if row.Texel, row.TexelLow, row.TexelHigh, row.TexelOK, row.TexelInterval, err = triple("texel", rec[6:9], true); err != nil {
		return row, err
	}
	if row.Trade() && row.TexelOK {
		return row, fmt.Errorf("%s: a trade has no Texel value", row.Kind)
	}
	switch row.Overlap {
	case "yes", "no":
		if !row.WorthOK || !row.TexelInterval {
			return row, fmt.Errorf("%s: overlap %q without both intervals", row.Kind, row.Overlap)
		}
	case "–":
	default:
		return row, fmt.Errorf("%s: overlap %q, want yes, no or –", row.Kind, row.Overlap)
	}
	return row, nil
}
