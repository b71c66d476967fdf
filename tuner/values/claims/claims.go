// Package claims checks learned piece values against what is known about
// them: every statement the rules texts make about the value or relative
// strength of pieces (Typhoon, Samarkand, Tori shogi), encoded as data in
// configs/claims/<game>.json with a precise, testable reading, and, for Tori
// shogi, the piece values of the Fairy-Stockfish engine. EvaluateWithGames
// also reads every claim on the imbalance games of a two-way table
// (values.TwoWay, taifu imbalance --report --format csv).
//
// A claims file is JSON:
//
//	{"format": 1, "game": "typhoon", "unit": "P",
//	 "texts": ["seeds/000_...txt"], "conventions": ["..."],
//	 "claims": [{"id": "TY-08a", "quote": "...", "source": "...",
//	             "kind": "ratio", "subject": ["A"], "reference": ["P"],
//	             "low": 0.75, "high": 1.5, "reading": "..."}],
//	 "engine": {...}}
//
// Operands (subject, reference) are piece tokens of the game, optionally
// scaled ("0.5*N"), or the groups "@unpromoted", "@promoted" and "@pieces"
// (non-royal kinds only). How several operands combine is set by aggregate
// (subject) and ref_aggregate (reference): "sum" (default), "median", and for
// the subject also "each" (every member must satisfy the claim) and "most"
// (more than half must).
//
// Values are in units of the game's unit piece (rules.Game.Unit): the weight
// material/T divided by material/<unit>. With "phase": "eg" a claim is read
// on endgame values, (material/T + material_eg/T) / (material/<unit> +
// material_eg/<unit>), the value of a piece on a board emptied of material.
// The pool against which quantiles and ranks are taken is every non-royal
// kind of the game.
package claims

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"taifu/configs"
	"taifu/rules"
)

// Format is the version of the claims file layout this package reads.
const Format = 1

// Kinds of claim. Each names the test applied to the subject value s and,
// where the kind has one, the reference value r.
const (
	// Less: s < r, and s/r <= High when High is set.
	Less = "less"
	// Greater: s > r, and s/r >= Low when Low is set.
	Greater = "greater"
	// Ratio: Low <= s/r <= High (either bound may be absent).
	Ratio = "ratio"
	// About: |s/r - 1| <= Tolerance (default DefaultTolerance).
	About = "about"
	// Weak: s below the Quantile (default 0.5) of the pool.
	Weak = "weak"
	// Strong: s above the Quantile (default 0.5) of the pool.
	Strong = "strong"
	// Between: quantile Low <= s <= quantile High of the pool.
	Between = "between"
	// Rank: MinRank <= rank of s <= MaxRank, rank 1 the most valuable of the
	// pool (bounds 0 mean unbounded).
	Rank = "rank"
	// Declines: the endgame value is below the middlegame value (each in
	// its own phase's unit).
	Declines = "declines"
	// Untestable marks a claim that piece values cannot decide.
	Untestable = "untestable"
)

// DefaultTolerance is the relative tolerance of an "about" claim.
const DefaultTolerance = 0.25

// Aggregates of operands.
const (
	Sum    = "sum"
	Median = "median"
	Each   = "each"
	Most   = "most"
)

// Phases.
const (
	MG = "mg"
	EG = "eg"
)

var kinds = map[string]bool{Less: true, Greater: true, Ratio: true, About: true, Weak: true,
	Strong: true, Between: true, Rank: true, Declines: true, Untestable: true}

// relational kinds compare the subject with a reference.
func relational(kind string) bool {
	return kind == Less || kind == Greater || kind == Ratio || kind == About
}

// Claim is one statement of a rules text about piece values, with its
// testable reading.
type Claim struct {
	ID     string `json:"id"`
	Quote  string `json:"quote"`  // the sentence, exactly as in the text
	Source string `json:"source"` // text file and the entry it stands in
	Kind   string `json:"kind"`

	Subject      []string `json:"subject,omitempty"`
	Reference    []string `json:"reference,omitempty"`
	Aggregate    string   `json:"aggregate,omitempty"`
	RefAggregate string   `json:"ref_aggregate,omitempty"`
	Phase        string   `json:"phase,omitempty"`

	Low       *float64 `json:"low,omitempty"`
	High      *float64 `json:"high,omitempty"`
	Tolerance float64  `json:"tolerance,omitempty"`
	Quantile  float64  `json:"quantile,omitempty"`
	MinRank   int      `json:"min_rank,omitempty"`
	MaxRank   int      `json:"max_rank,omitempty"`

	// Reading states the test in words, with its tolerance.
	Reading string `json:"reading"`
	// Implied marks a claim the text implies rather than states.
	Implied bool `json:"implied,omitempty"`
	// Reason says why an untestable claim cannot be decided by piece values.
	Reason string `json:"reason,omitempty"`
}

// Testable reports whether piece values can decide the claim.
func (c *Claim) Testable() bool { return c.Kind != Untestable }

// File is a claims file.
type File struct {
	Format      int      `json:"format"`
	Game        string   `json:"game"`
	Unit        string   `json:"unit"`
	Texts       []string `json:"texts,omitempty"`
	Conventions []string `json:"conventions,omitempty"`
	Claims      []Claim  `json:"claims"`
	Engine      *Engine  `json:"engine,omitempty"`

	// Path is where the file was read from (for messages).
	Path string `json:"-"`
}

// operand is one parsed term: a coefficient times a token, or a group.
type operand struct {
	coef  float64
	token string // empty for a group
	group string // "@unpromoted", "@promoted", "@pieces"
}

var groups = map[string]bool{"@unpromoted": true, "@promoted": true, "@pieces": true}

func parseOperand(s string, g *rules.Game) (operand, error) {
	s = strings.TrimSpace(s)
	if groups[s] {
		return operand{coef: 1, group: s}, nil
	}
	coef := 1.0
	if i := strings.IndexByte(s, '*'); i >= 0 {
		c, err := strconv.ParseFloat(strings.TrimSpace(s[:i]), 64)
		if err != nil || !(c > 0) || math.IsInf(c, 0) {
			return operand{}, fmt.Errorf("bad coefficient in %q", s)
		}
		coef, s = c, strings.TrimSpace(s[i+1:])
	}
	if _, ok := g.KindByToken(s); !ok {
		return operand{}, fmt.Errorf("unknown token %q for %s", s, g.Name)
	}
	return operand{coef: coef, token: s}, nil
}

// expand lists the tokens of the operands (groups expanded) with coefficients.
func expand(ops []operand, g *rules.Game) (tokens []string, coefs []float64) {
	for _, op := range ops {
		if op.group == "" {
			tokens, coefs = append(tokens, op.token), append(coefs, op.coef)
			continue
		}
		for k := 1; k < len(g.Kinds); k++ {
			info := g.Kinds[k]
			if info.Royal {
				continue
			}
			if (op.group == "@promoted" && !info.Promoted) || (op.group == "@unpromoted" && info.Promoted) {
				continue
			}
			tokens, coefs = append(tokens, info.Token), append(coefs, op.coef)
		}
	}
	return tokens, coefs
}

// Load reads and validates a claims file for game g (g may be nil: the
// file's game is looked up). Errors are one line naming the file and, where
// one is at fault, the claim id.
func Load(path string, g *rules.Game) (*File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("claims file %s: %v", path, err)
	}
	return Parse(data, path, g)
}

// LoadDefault reads the claims of game g from DefaultPath if that file
// exists, else from the copy built into the binary (package configs). It
// returns the file and where it came from.
func LoadDefault(g *rules.Game) (*File, string, error) {
	p := DefaultPath(g.Name)
	if _, err := os.Stat(p); err == nil {
		f, err := Load(p, g)
		return f, p, err
	}
	data, ok := configs.Claims(g.Name)
	if !ok {
		return nil, "", fmt.Errorf("no claims file for %s: %s does not exist and none is built in", g.Name, p)
	}
	src := "built-in " + filepath.ToSlash(p)
	f, err := Parse(data, src, g)
	return f, src, err
}

// Parse validates a claims file's bytes; name is used in messages.
func Parse(data []byte, name string, g *rules.Game) (*File, error) {
	var f File
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("claims file %s: %v", name, oneLine(err.Error()))
	}
	if dec.More() {
		return nil, fmt.Errorf("claims file %s: trailing data after the JSON object", name)
	}
	f.Path = name
	if err := f.validate(g); err != nil {
		return nil, err
	}
	return &f, nil
}

func oneLine(s string) string { return strings.ReplaceAll(strings.TrimSpace(s), "\n", "; ") }

func (f *File) validate(g *rules.Game) error {
	fail := func(format string, a ...any) error {
		return fmt.Errorf("claims file %s: %s", f.Path, fmt.Sprintf(format, a...))
	}
	if f.Format != Format {
		return fail("format %d, want %d", f.Format, Format)
	}
	if g == nil {
		var err error
		if g, err = rules.Lookup(f.Game); err != nil {
			return fail("%v", err)
		}
	} else if f.Game != g.Name {
		return fail("is for game %q, not %q", f.Game, g.Name)
	}
	uk, ok := g.Unit()
	if !ok {
		return fail("game %s has no unit piece", g.Name)
	}
	unit := g.Kinds[uk].Token
	if f.Unit != unit {
		return fail("unit %q, but %s values are in %s", f.Unit, g.Name, unit)
	}
	seen := map[string]bool{}
	for i := range f.Claims {
		c := &f.Claims[i]
		if c.ID == "" {
			return fail("claim #%d has no id", i+1)
		}
		if seen[c.ID] {
			return fail("claim %s: duplicate id", c.ID)
		}
		seen[c.ID] = true
		if err := c.validate(g); err != nil {
			return fail("claim %s: %v", c.ID, err)
		}
	}
	if f.Engine != nil {
		if err := f.Engine.validate(g, unit); err != nil {
			return fail("engine: %v", err)
		}
	}
	return nil
}

func (c *Claim) validate(g *rules.Game) error {
	if strings.TrimSpace(c.Quote) == "" {
		return fmt.Errorf("no quote")
	}
	if strings.TrimSpace(c.Source) == "" {
		return fmt.Errorf("no source")
	}
	if !kinds[c.Kind] {
		return fmt.Errorf("unknown kind %q", c.Kind)
	}
	if strings.TrimSpace(c.Reading) == "" && c.Kind != Untestable {
		return fmt.Errorf("no reading")
	}
	if c.Kind == Untestable {
		if strings.TrimSpace(c.Reason) == "" {
			return fmt.Errorf("untestable claim without a reason")
		}
		return nil
	}
	if len(c.Subject) == 0 {
		return fmt.Errorf("no subject")
	}
	for _, list := range [][]string{c.Subject, c.Reference} {
		ops := make([]operand, 0, len(list))
		for _, s := range list {
			op, err := parseOperand(s, g)
			if err != nil {
				return err
			}
			ops = append(ops, op)
		}
		if tokens, _ := expand(ops, g); len(tokens) == 0 && len(list) > 0 {
			return fmt.Errorf("%v names no piece of %s", list, g.Name)
		}
	}
	if c.Kind == Declines && (len(c.Subject) != 1 || groups[c.Subject[0]]) {
		return fmt.Errorf("declines takes a single piece as subject")
	}
	switch c.Aggregate {
	case "", Sum, Median, Each, Most:
	default:
		return fmt.Errorf("unknown aggregate %q", c.Aggregate)
	}
	switch c.RefAggregate {
	case "", Sum, Median:
	default:
		return fmt.Errorf("unknown ref_aggregate %q", c.RefAggregate)
	}
	switch c.Phase {
	case "", MG, EG:
	default:
		return fmt.Errorf("unknown phase %q", c.Phase)
	}
	if relational(c.Kind) != (len(c.Reference) > 0) {
		if relational(c.Kind) {
			return fmt.Errorf("kind %s needs a reference", c.Kind)
		}
		return fmt.Errorf("kind %s takes no reference", c.Kind)
	}
	for _, b := range []*float64{c.Low, c.High} {
		if b != nil && (math.IsNaN(*b) || math.IsInf(*b, 0) || *b < 0) {
			return fmt.Errorf("bound %v is not a non-negative number", *b)
		}
	}
	if c.Low != nil && c.High != nil && *c.Low > *c.High {
		return fmt.Errorf("low %v above high %v", *c.Low, *c.High)
	}
	if c.Tolerance < 0 || c.Tolerance >= 1 || math.IsNaN(c.Tolerance) {
		return fmt.Errorf("tolerance %v outside [0, 1)", c.Tolerance)
	}
	if c.Quantile < 0 || c.Quantile >= 1 || math.IsNaN(c.Quantile) {
		return fmt.Errorf("quantile %v outside [0, 1)", c.Quantile)
	}
	switch c.Kind {
	case Ratio:
		if c.Low == nil && c.High == nil {
			return fmt.Errorf("ratio claim needs low or high")
		}
	case Between:
		if c.Low == nil || c.High == nil || *c.High >= 1 {
			return fmt.Errorf("between claim needs quantiles low and high in [0, 1)")
		}
	case Rank:
		if c.MinRank < 0 || c.MaxRank < 0 || (c.MinRank == 0 && c.MaxRank == 0) || (c.MaxRank > 0 && c.MinRank > c.MaxRank) {
			return fmt.Errorf("rank claim needs 1 <= min_rank <= max_rank (one may be 0: unbounded)")
		}
	case Declines:
		if c.Phase != "" {
			return fmt.Errorf("declines compares both phases; phase must be empty")
		}
	}
	return nil
}

// DefaultPath is where the claims file of a game is kept:
// configs/claims/<game>.json.
func DefaultPath(game string) string { return filepath.Join("configs", "claims", game+".json") }
