package claims

import (
	"fmt"
	"math"
	"sort"

	"gonum.org/v1/gonum/stat"

	"taifu/rules"
)

// Engine is another program's piece values for the game (for Tori shogi,
// Fairy-Stockfish's), recorded as numbers with where they were read.
type Engine struct {
	Name   string        `json:"name"`
	Notes  []string      `json:"notes,omitempty"`
	Pieces []EnginePiece `json:"pieces"`
}

// Source names where a number was read.
type Source struct {
	Repository string `json:"repository"`
	Path       string `json:"path"`
	Commit     string `json:"commit,omitempty"`
	Detail     string `json:"detail,omitempty"`
}

// EnginePiece is the engine's middlegame and endgame value of one of our
// kinds, in the engine's own units.
type EnginePiece struct {
	Token      string  `json:"token"`
	EngineType string  `json:"engine_type"`
	Betza      string  `json:"betza,omitempty"`
	MG         float64 `json:"mg"`
	EG         float64 `json:"eg"`
	// MGBoard and EGBoard are the values after the engine's own
	// board-dependent adjustment (0 when not recorded).
	MGBoard float64  `json:"mg_board,omitempty"`
	EGBoard float64  `json:"eg_board,omitempty"`
	Origin  string   `json:"origin"`
	Sources []Source `json:"sources"`
}

func (e *Engine) validate(g *rules.Game, unit string) error {
	if e.Name == "" {
		return fmt.Errorf("no name")
	}
	seen := map[string]bool{}
	hasUnit := false
	for _, p := range e.Pieces {
		if _, ok := g.KindByToken(p.Token); !ok {
			return fmt.Errorf("unknown token %q", p.Token)
		}
		if seen[p.Token] {
			return fmt.Errorf("token %s listed twice", p.Token)
		}
		seen[p.Token] = true
		if !positive(p.MG) || !positive(p.EG) {
			return fmt.Errorf("%s: mg and eg must be positive numbers", p.Token)
		}
		if (p.MGBoard != 0 || p.EGBoard != 0) && (!positive(p.MGBoard) || !positive(p.EGBoard)) {
			return fmt.Errorf("%s: mg_board and eg_board must both be positive numbers when given", p.Token)
		}
		if (p.MGBoard != 0) != (e.Pieces[0].MGBoard != 0) {
			return fmt.Errorf("%s: mg_board given for some pieces only", p.Token)
		}
		if len(p.Sources) == 0 || p.Origin == "" {
			return fmt.Errorf("%s: no origin or source", p.Token)
		}
		hasUnit = hasUnit || p.Token == unit
	}
	if !hasUnit {
		return fmt.Errorf("no value for the unit piece %s", unit)
	}
	return nil
}

func positive(x float64) bool { return x > 0 && !math.IsInf(x, 0) }

// EngineRow is one line of the side-by-side table: our values and the
// engine's, each divided by the same side's unit-piece value.
type EngineRow struct {
	Token    string   `json:"token"`
	Name     string   `json:"name"`
	Ours     float64  `json:"ours"`
	OursHand *float64 `json:"ours_in_hand,omitempty"`
	EngineMG float64  `json:"engine_mg"`
	EngineEG float64  `json:"engine_eg"`
	// EngineMGBoard and EngineEGBoard are 0 when the file records none.
	EngineMGBoard float64 `json:"engine_mg_board,omitempty"`
	EngineEGBoard float64 `json:"engine_eg_board,omitempty"`
}

// Correlation is a rank correlation between two columns of the table.
type Correlation struct {
	Ours     string  `json:"ours"`
	Engine   string  `json:"engine"`
	N        int     `json:"n"`
	Spearman float64 `json:"spearman"`
	Kendall  float64 `json:"kendall"`
}

// EngineComparison is our values against the engine's.
type EngineComparison struct {
	Engine       string        `json:"engine"`
	Unit         string        `json:"unit"`
	Notes        []string      `json:"notes,omitempty"`
	Rows         []EngineRow   `json:"rows"`
	Correlations []Correlation `json:"correlations"`
}

func (e *Engine) compare(g *rules.Game, unit string, v *valueSet) *EngineComparison {
	var u EnginePiece
	for _, p := range e.Pieces {
		if p.Token == unit {
			u = p
		}
	}
	board := e.Pieces[0].MGBoard != 0
	cmp := &EngineComparison{Engine: e.Name, Unit: unit, Notes: e.Notes}
	for _, p := range e.Pieces {
		k, _ := g.KindByToken(p.Token)
		row := EngineRow{Token: p.Token, Name: g.Kinds[k].Name, Ours: v.mg[p.Token],
			EngineMG: p.MG / u.MG, EngineEG: p.EG / u.EG}
		if board {
			row.EngineMGBoard, row.EngineEGBoard = p.MGBoard/u.MGBoard, p.EGBoard/u.EGBoard
		}
		if h, ok := v.hand[p.Token]; ok {
			row.OursHand = &h
		}
		cmp.Rows = append(cmp.Rows, row)
	}
	sort.SliceStable(cmp.Rows, func(i, j int) bool { return cmp.Rows[i].EngineMG > cmp.Rows[j].EngineMG })
	col := func(f func(EngineRow) (float64, bool)) (x []float64, ok []bool) {
		for _, r := range cmp.Rows {
			a, b := f(r)
			x, ok = append(x, a), append(ok, b)
		}
		return x, ok
	}
	ours, all := col(func(r EngineRow) (float64, bool) { return r.Ours, true })
	hand, inHand := col(func(r EngineRow) (float64, bool) {
		if r.OursHand == nil {
			return 0, false
		}
		return *r.OursHand, true
	})
	mg, _ := col(func(r EngineRow) (float64, bool) { return r.EngineMG, true })
	eg, _ := col(func(r EngineRow) (float64, bool) { return r.EngineEG, true })
	mgb, _ := col(func(r EngineRow) (float64, bool) { return r.EngineMGBoard, true })
	egb, _ := col(func(r EngineRow) (float64, bool) { return r.EngineEGBoard, true })
	add := func(which, engine string, x, y []float64, use []bool) {
		var a, b []float64
		for i := range x {
			if use[i] {
				a, b = append(a, x[i]), append(b, y[i])
			}
		}
		if len(a) < 3 {
			return
		}
		cmp.Correlations = append(cmp.Correlations, Correlation{Ours: which, Engine: engine, N: len(a),
			Spearman: Spearman(a, b), Kendall: stat.Kendall(a, b, nil)})
	}
	add("on board", "mg", ours, mg, all)
	add("on board", "eg", ours, eg, all)
	add("in hand", "mg", hand, mg, inHand)
	add("in hand", "eg", hand, eg, inHand)
	if board {
		add("on board", "mg_board", ours, mgb, all)
		add("on board", "eg_board", ours, egb, all)
		add("in hand", "mg_board", hand, mgb, inHand)
	}
	return cmp
}

// Spearman is Spearman's rank correlation of x and y: Pearson's correlation
// (gonum stat.Correlation) of their ranks, tied values sharing the mean of
// their ranks. NaN when the lengths differ or either has fewer than two
// distinct values.
func Spearman(x, y []float64) float64 {
	if len(x) != len(y) {
		return math.NaN()
	}
	return stat.Correlation(ranks(x), ranks(y), nil)
}

// ranks returns the 1-based ranks of x (ascending), ties averaged.
func ranks(x []float64) []float64 {
	idx := make([]int, len(x))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return x[idx[a]] < x[idx[b]] })
	r := make([]float64, len(x))
	for i := 0; i < len(idx); {
		j := i
		for j+1 < len(idx) && x[idx[j+1]] == x[idx[i]] {
			j++
		}
		mean := float64(i+j)/2 + 1
		for k := i; k <= j; k++ {
			r[idx[k]] = mean
		}
		i = j + 1
	}
	return r
}
