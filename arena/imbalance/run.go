package imbalance

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"taifu/arena"
	"taifu/internal/seal"
	"taifu/progress"
	"taifu/rules"
)

// Config is an imbalance run.
type Config struct {
	// Match is the template of every row's match: the game, pairs, seed,
	// opening plies, workers, adjudication and resignation; Handicap, Stop,
	// Resume, Progress and SPRT are set per row.
	Match arena.Config
	// Player plays both sides of every game: taifu's search, or an outside
	// engine (Player.Mover), which Engine then names.
	Player arena.Player
	// Engine names the outside engine and its settings (command, protocol,
	// search limit), "" for taifu's search; a run is resumed only with the
	// same.
	Engine string
	// Unit is the reference row, played first, whose logistic advantage
	// every worth is divided by (ParseUnit); zero: the game's unit piece
	// taken away (Unit).
	Unit Handicap
	// Rows are the handicaps measured besides the unit reference.
	Rows []Handicap
	// Places are --remove's choices (Builder.Places).
	Places map[rules.Kind][]Place
	// StopAt, when positive, stops a row early (StopRule).
	StopAt float64
	// Progress receives each row's match events, stage "imbalance <label>".
	Progress progress.Recorder
	// Resume is the saved result of an interrupted run of the same
	// settings: its rows' complete pairs are counted without being played
	// again, so that the result equals an uninterrupted run.
	Resume *Result
	// Save, when set, is called with the run so far after each counted
	// pair; an error stops the run with that error.
	Save func(*Result) error
}

// Settings is what decides an imbalance run's games: a run is resumed
// only with equal settings (arena.SameSetup, arena.SameSettings), but for
// Run.Pairs, which may grow.
type Settings struct {
	Match arena.Setup `json:"match"` // the rows' matches (side A and B search alike)
	Run   RunSettings `json:"run"`
}

// RunSettings are an imbalance run's own settings.
type RunSettings struct {
	Game    string  `json:"game"`
	Weights string  `json:"weights"`
	Engine  string  `json:"engine,omitempty"` // the outside engine playing both sides ("": taifu's search)
	Pairs   int     `json:"pairs" resume:"may-change"`
	Unit    string  `json:"unit"`   // the reference row's label, the worths' unit
	Rows    string  `json:"rows"`   // the rows' labels, unit first
	Remove  string  `json:"remove"` // the named places, "N=b1,..."
	StopAt  float64 `json:"stop_at"`
}

// Settings returns c's settings.
func (c *Config) Settings() Settings {
	g := c.Match.Game
	var labels []string
	unit := ""
	if u, err := c.unit(); err == nil {
		unit = u.Label
		labels = append(labels, u.Label)
	}
	for _, h := range c.Rows {
		labels = append(labels, h.Label)
	}
	var places []string
	for k, ps := range c.Places {
		var where []string
		for _, p := range ps {
			w := "hand"
			if !p.Hand {
				w = g.SquareName(p.Square)
			}
			where = append(where, w)
		}
		places = append(places, g.Kinds[k].Token+"="+strings.Join(where, "/"))
	}
	sort.Strings(places)
	weights := ""
	if c.Player.Weights != nil {
		weights = c.Player.Weights.Version
	}
	return Settings{Match: c.Match.Setup(c.Player, c.Player), Run: RunSettings{Game: g.Name, Weights: weights, Engine: c.Engine,
		Pairs: c.Match.Pairs, Unit: unit, Rows: strings.Join(labels, " "), Remove: strings.Join(places, ","), StopAt: c.StopAt}}
}

// unit is c's reference row: c.Unit, else the game's unit piece taken.
func (c *Config) unit() (Handicap, error) {
	if c.Unit.Label != "" {
		return c.Unit, nil
	}
	return Unit(c.Match.Game)
}

// Result is an imbalance run: its settings and rows, the unit first.
type Result struct {
	Settings Settings `json:"settings"`
	StopRule string   `json:"stop_rule"`
	Rows     []Row    `json:"rows"`
}

// Row is one handicap's match and figures. Worth figures are in unit
// pieces; WorthDefined is false when they cannot be computed (a score of 0
// or 1, the unit's advantage 0 or unknown), and they are then 0.
type Row struct {
	Label        string        `json:"label"`
	Unit         bool          `json:"unit,omitempty"` // the unit reference (Config.Unit)
	Games        int           `json:"games"`
	Score        float64       `json:"score"` // the full side's mean score
	Elo          float64       `json:"elo"`
	EloLow       float64       `json:"elo_low"`
	EloHigh      float64       `json:"elo_high"`
	Worth        float64       `json:"worth"`
	WorthLow     float64       `json:"worth_low"`
	WorthHigh    float64       `json:"worth_high"`
	WorthDefined bool          `json:"worth_defined"`
	Flag         string        `json:"flag,omitempty"`    // "negative worth", "interval holds 0", "worth undefined: ..."
	Stopped      string        `json:"stopped,omitempty"` // "stop-at" when the early stop ended the row
	Report       *arena.Report `json:"report"`
}

// Run plays the unit reference, then every row, in order, and returns the
// result. Cancelling ctx stops it after the games in flight; the result
// then holds the complete pairs played, and ctx's error.
func Run(ctx context.Context, c Config) (*Result, error) {
	g := c.Match.Game
	unit, err := c.unit()
	if err != nil {
		return nil, err
	}
	rows := append([]Handicap{unit}, c.Rows...)
	res := &Result{Settings: c.Settings(), StopRule: StopRule(c.StopAt)}
	if c.Resume != nil {
		now, old := res.Settings, c.Resume.Settings
		err := arena.SameSettings(now.Run, old.Run)
		if err == nil {
			err = arena.SameSetup(now.Match, old.Match)
		}
		if err != nil {
			return nil, fmt.Errorf("cannot resume: %v", err)
		}
	}
	b := Builder{Game: g, Places: c.Places}
	start := g.Start()
	for _, h := range rows {
		if err := b.Check(start, h); err != nil {
			return nil, fmt.Errorf("row %s: %v", h.Label, err)
		}
	}
	for i, h := range rows {
		res.Rows = append(res.Rows, Row{Label: h.Label, Unit: i == 0})
	}
	for i, h := range rows {
		row := &res.Rows[i]
		m := c.Match
		m.SPRT = nil
		m.Resume = nil
		if c.Resume != nil && i < len(c.Resume.Rows) && c.Resume.Rows[i].Report != nil {
			m.Resume = c.Resume.Rows[i].Report.Records
		}
		m.Handicap = func(pair int, setup rules.State, side rules.Side) (rules.State, error) {
			return b.ForPair(pair).Apply(setup, h, side)
		}
		var unitD, unitSE float64
		var unitOK bool
		if i > 0 {
			unitD, unitSE, unitOK = Advantage(res.Rows[0].Report)
		}
		if c.StopAt > 0 {
			m.Stop = func(r *arena.Report) bool {
				if r.Penta.Pairs() < minStopPairs {
					return false
				}
				d, se, ok := Advantage(r)
				if !ok {
					return false
				}
				if i == 0 {
					return d != 0 && z95*se/math.Abs(d) < c.StopAt
				}
				if !unitOK {
					return false
				}
				_, wse, ok := Worth(d, se, unitD, unitSE)
				return ok && z95*wse < c.StopAt
			}
		}
		var saveErr error
		stage := "imbalance " + h.Label
		rowCtx, cancel := context.WithCancel(ctx)
		m.Progress = func(e progress.Event) {
			e.Stage = stage
			c.Progress.Record(e)
			if r, ok := e.State.(*arena.Report); ok && !e.Start && !e.End && c.Save != nil && saveErr == nil {
				row.Report = r
				res.update()
				if saveErr = c.Save(res); saveErr != nil {
					cancel()
				}
			}
		}
		a, bb := c.Player, c.Player
		a.Name, bb.Name = "with "+h.Label, "without "+h.Label
		if len(h.Trade) > 0 {
			a.Name, bb.Name = "keeping "+strings.Split(h.Label, "=")[0], "keeping "+strings.Split(h.Label, "=")[1]
		}
		r, err := arena.Play(rowCtx, m, a, bb)
		cancel()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", h.Label, err)
		}
		row.Report = r
		res.update()
		if saveErr != nil {
			return res, saveErr
		}
		if m.Stop != nil && r.Games > 0 && m.Stop(r) {
			row.Stopped = "stop-at"
		}
		if err := ctx.Err(); err != nil {
			return res, err
		}
	}
	return res, nil
}

// update recomputes every row's figures from its report.
func (res *Result) update() {
	var dU, seU float64
	var uOK bool
	for i := range res.Rows {
		row := &res.Rows[i]
		r := row.Report
		if r == nil {
			continue
		}
		row.Games, row.Score, row.Elo, row.EloLow, row.EloHigh = r.Games, r.Score, r.Elo, r.EloLow, r.EloHigh
		d, se, ok := Advantage(r)
		if i == 0 {
			dU, seU, uOK = d, se, ok
		}
		row.Worth, row.WorthLow, row.WorthHigh, row.WorthDefined, row.Flag = 0, 0, 0, false, ""
		var w, wse float64
		switch {
		case !ok:
			row.Flag = "worth undefined: the score is 0 or 1, or too few games"
		case !uOK:
			row.Flag = "worth undefined: the unit reference's score is 0 or 1, or too few games"
		default:
			if w, wse, ok = Worth(d, se, dU, seU); !ok {
				row.Flag = "worth undefined: the unit reference scored exactly 50%"
				break
			}
			row.Worth, row.WorthLow, row.WorthHigh, row.WorthDefined = w, w-z95*wse, w+z95*wse, true
			switch {
			case w < 0:
				row.Flag = "negative worth"
			case row.WorthLow <= 0:
				row.Flag = "interval holds 0"
			}
		}
	}
}

// Rebase puts res's worths in another unit, read after the run: the
// played row label (one kind taken, not a trade) becomes the unit
// reference, first, and every worth is recomputed over its logistic
// advantage; the row the run played as its unit becomes an ordinary row.
// The games are the same; Settings still name the unit the run played.
// Rebase is for a run whose unit measured too weak a handicap to divide
// by (a pawn that scores about 50% with the weights of the day).
func (res *Result) Rebase(label string) error {
	at := -1
	var labels []string
	for i, r := range res.Rows {
		labels = append(labels, r.Label)
		if r.Label == label {
			at = i
		}
	}
	switch {
	case at < 0:
		return fmt.Errorf("--unit %s: no such row (the rows: %s)", label, strings.Join(labels, " "))
	case strings.Contains(label, "="):
		return fmt.Errorf("--unit %s: a trade measures a difference of pieces, not a unit; give one kind", label)
	case res.Rows[at].Report == nil || res.Rows[at].Games == 0:
		return fmt.Errorf("--unit %s: the row was not played", label)
	}
	row := res.Rows[at]
	res.Rows = append(res.Rows[:at], res.Rows[at+1:]...)
	res.Rows = append([]Row{row}, res.Rows...)
	for i := range res.Rows {
		res.Rows[i].Unit = i == 0
	}
	res.update()
	return nil
}

// Marshal returns res as a results file: indented JSON sealed as match
// reports are (internal/seal).
func Marshal(res *Result) ([]byte, error) {
	data, err := seal.Marshal(res)
	if err != nil {
		return nil, fmt.Errorf("imbalance: %w", err)
	}
	return data, nil
}

// Parse reads the results file name's content (name for messages): the
// seal must match and every row's records be valid.
func Parse(name string, data []byte) (*Result, error) {
	sealed, err := seal.Check(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if !sealed {
		return nil, fmt.Errorf("%s has no seal: not a results file of taifu imbalance", name)
	}
	res := new(Result)
	if err := json.Unmarshal(data, res); err != nil {
		return nil, fmt.Errorf("%s: not an imbalance results file: %v", name, err)
	}
	if res.Settings.Run.Unit == "" { // a file from before --unit: its unit is its first row
		res.Settings.Run.Unit, _, _ = strings.Cut(res.Settings.Run.Rows, " ")
	}
	for _, row := range res.Rows {
		if row.Report == nil {
			continue
		}
		if err := arena.CheckRecords(row.Report.Records); err != nil {
			return nil, fmt.Errorf("%s: row %s: %w", name, row.Label, err)
		}
	}
	return res, nil
}

// trimFloat writes x without trailing zeros.
func trimFloat(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }
