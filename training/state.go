package training

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"reflect"
	"strings"
	"unicode"

	"taifu/arena"
	"taifu/internal/seal"
	"taifu/storage"
)

// parseState reads the content of the train.json at path: its seal must
// match (a train.json without one, written by an older taifu, is read with
// a warning in st.warnings), its values pass Check, and every generation
// whose match was played must have its match.json beside it, sealed (or
// unsealed and old) and holding the match train.json records.
func parseState(path string, data []byte) (*State, error) {
	sealed, err := seal.Check(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var st State
	if err := json.Unmarshal(data, &st); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if err := st.Check(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if !sealed {
		st.warnings = append(st.warnings, seal.Unsealed(path))
	}
	for i := range st.Generations {
		w, err := checkMatchFile(storage.Dir(path), path, &st.Generations[i])
		if err != nil {
			return nil, err
		}
		if w != "" {
			st.warnings = append(st.warnings, w)
		}
	}
	return &st, nil
}

// checkMatchFile checks that the match.json of generation g of the run in
// dir (whose train.json is state) holds the match state records: a
// warning when it is unsealed (an older taifu's), an error naming it when
// it is missing, its seal does not match, or its report differs.
func checkMatchFile(dir, state string, g *Generation) (warning string, err error) {
	if g.Match == nil {
		return "", nil
	}
	path := storage.Join(dir, fmt.Sprintf("gen-%03d", g.Gen), "match.json")
	data, err := storage.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("%s: missing, but %s records generation %d's match (%s); restore it from a backup", path, state, g.Gen, g.Match)
	}
	if err != nil {
		return "", err
	}
	rep, unsealed, err := arena.ParseReport(path, data)
	if err != nil {
		return "", err
	}
	// train.json keeps the report without its records.
	kept, held := *g.Match, *rep
	kept.Records, held.Records = nil, nil
	if !reflect.DeepEqual(held, kept) {
		return "", fmt.Errorf("%s holds the match %s, but %s records generation %d's match as %s (edited or damaged; see docs/operations.md)", path, &held, state, g.Gen, g.Match)
	}
	if err := checkReport(rep); err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	if unsealed {
		return seal.Unsealed(path), nil
	}
	return "", nil
}

// Check reports the first value of a train.json that no run writes, so
// that LoadState refuses a damaged or hand-edited state file with one line
// instead of resuming from it: generations numbered 1, 2, ... in order;
// every path (current weights, a generation's weights, self-play and
// candidate) relative and inside the run (no "..", no absolute path or
// URL, no control character); counts not negative; losses, K and seconds
// finite; a match report whose counts add up and whose records are valid
// (arena.CheckRecords); ladder rows of known generations with finite Elo.
func (st *State) Check() error {
	if st.Game == "" {
		return fmt.Errorf("no game")
	}
	if err := runPath("current", st.Current); err != nil {
		return err
	}
	for i := range st.Generations {
		g := &st.Generations[i]
		if err := g.check(i); err != nil {
			return fmt.Errorf("generation %d: %w", i+1, err)
		}
	}
	for i, l := range st.Ladder {
		if l.Gen < 0 || l.Gen > len(st.Generations) || math.IsNaN(l.Elo) || math.IsInf(l.Elo, 0) {
			return fmt.Errorf("ladder row %d: gen %d, elo %v: want a generation from 0 to %d and a finite Elo", i, l.Gen, l.Elo, len(st.Generations))
		}
	}
	return nil
}

func (g *Generation) check(i int) error {
	if g.Gen != i+1 {
		return fmt.Errorf("numbered %d", g.Gen)
	}
	for _, p := range []struct{ name, path string }{{"weights", g.Weights}, {"selfplay", g.SelfPlay}, {"rescored", g.Rescored}, {"candidate", g.Candidate}} {
		if err := runPath(p.name, p.path); err != nil {
			return err
		}
	}
	if g.Positions < 0 || g.Games < 0 {
		return fmt.Errorf("positions %d, games %d: want 0 or more", g.Positions, g.Games)
	}
	for _, x := range []float64{g.TrainLoss[0], g.TrainLoss[1], g.ValidLoss[0], g.ValidLoss[1], g.K, g.Seconds} {
		if math.IsNaN(x) || math.IsInf(x, 0) || x < 0 {
			return fmt.Errorf("loss, k or seconds %v: want a finite number, 0 or more", x)
		}
	}
	if m := g.Match; m != nil {
		if err := checkReport(m); err != nil {
			return fmt.Errorf("match: %w", err)
		}
	}
	return nil
}

// checkReport checks a match report's counts and records.
func checkReport(m *arena.Report) error {
	if err := arena.CheckRecords(m.Records); err != nil {
		return err
	}
	switch {
	case m.Games < 0 || m.WinsA < 0 || m.Draws < 0 || m.WinsB < 0 || m.WinsA+m.Draws+m.WinsB != m.Games:
		return fmt.Errorf("games %d: +%d =%d -%d do not add up", m.Games, m.WinsA, m.Draws, m.WinsB)
	case !(m.Score >= 0 && m.Score <= 1):
		return fmt.Errorf("score %v: want 0 to 1", m.Score)
	}
	for _, c := range m.Penta {
		if c < 0 {
			return fmt.Errorf("pentanomial %v: negative count", m.Penta)
		}
	}
	for _, x := range []float64{m.Elo, m.EloLow, m.EloHigh, m.LLR} {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("elo or llr %v: want a finite number", x)
		}
	}
	return nil
}

// runPath checks that p, when set, names a file or directory inside the
// run: relative, with "/" separators, no ".." element, no URL scheme, no
// control character.
func runPath(name, p string) error {
	if p == "" {
		return nil
	}
	bad := strings.HasPrefix(p, "/") || strings.Contains(p, `\`) || strings.Contains(p, ":") ||
		strings.IndexFunc(p, unicode.IsControl) >= 0
	for _, e := range strings.Split(p, "/") {
		if e == ".." || e == "" {
			bad = true
		}
	}
	if bad {
		return fmt.Errorf("%s %q: want a path inside the run (relative, no \"..\")", name, p)
	}
	return nil
}
