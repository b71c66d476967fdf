// Package importer turns games taifu did not play, read from PGN, into the
// rows of a run (package datasets), so that the value fit (taifu tune) can
// learn from them: Stockfish's or cutechess's chess games in SAN, Tori
// shogi games as XBoard writes Fairy-Stockfish's or Sjaak II's (XBoard's
// FEN and move text, or its SAN), and taifu's own PGN (`taifu games
// --format pgn` or `--format xboard`, NOTATION.md or XBoard text).
//
// Each game is replayed with taifu's rules. Its rows hold what the record
// gives: the positions, the moves, the number of legal moves and the
// result for the side to move. What only a search gives is left empty:
// the policy column has no entries, full is false (no row is a policy target),
// root_value and static_eval are 0 and weights_version is "".
//
// The move notation is found per game: taifu's NOTATION.md text, the
// game's XBoard move text (rules.XBoard; a trailing "=", XBoard's "does not
// promote", is accepted), then SAN, the first that reads the whole game.
// The game's start is its FEN tag (NOTATION.md text, the XBoard FEN, or for
// chess standard FEN) or else the game's start position.
//
// Games whose result is "*" (unfinished) carry no value target and are
// skipped, and so are games without moves; both are counted in the
// Summary. Anything else wrong is an error naming the game (its number in
// the file, from 1, and its White, Black and Round tags) and the ply.
package importer

import (
	"cmp"
	"errors"
	"fmt"
	"strings"

	"taifu/datasets"
	"taifu/records/pgn"
	"taifu/rules"
)

// TermImportPrefix starts the termination of an imported game that did not
// end by taifu's rules: "import", or "import:<the PGN's Termination tag>"
// ("import:adjudication", "import:time forfeit"). A taifu record's
// "resignation" and "adjudication" are kept as they are.
const TermImportPrefix = "import"

// Config says what to import.
type Config struct {
	Source string // the file's name, for errors
	// Game is the game's name or its XBoard variant name; "": the games'
	// Variant tags say, Default when none has one.
	Game string
	// Default is the game of games without a Variant tag, and of the
	// Variant "standard" (or "normal"): the standard game, as PGN has it.
	Default string
	RunID   string // the rows' run_id
}

// File is a parsed PGN file whose games are of one game.
type File struct {
	cfg   Config
	game  *rules.Game
	games []*pgn.Game
	plies int64
	// hint follows a replay error when the game is the default one, no
	// tag or flag having named it.
	hint string
}

// Summary counts what Rows did.
type Summary struct {
	Games      int64            // games in the file
	Imported   int64            // games written as rows
	Unfinished int64            // games with result "*", skipped
	Empty      int64            // finished games without a move, skipped
	Rows       int64            // rows written
	Notations  map[string]int64 // imported games by their move notation
}

// Parse reads a PGN text and finds its game (Config.Game and the Variant
// tags, which must agree).
func Parse(text string, cfg Config) (*File, error) {
	games, err := pgn.Parse(strings.TrimPrefix(text, "\ufeff")) // a byte order mark some writers put first
	if err != nil {
		if pe, ok := err.(*pgn.ParseError); ok {
			return nil, fmt.Errorf("%s: game %d%s: line %d: %s", cfg.Source, pe.Game, tagsText(pe.Tags), pe.Line, pe.Msg)
		}
		return nil, fmt.Errorf("%s: %v", cfg.Source, err)
	}
	if len(games) == 0 {
		return nil, fmt.Errorf("%s: no PGN game", cfg.Source)
	}
	f := &File{cfg: cfg, games: games}
	if cfg.Game != "" {
		if f.game, err = lookupGame(cfg.Game, cfg.Default); err != nil {
			return nil, fmt.Errorf("--game: %v", err)
		}
	}
	from := "--game " + cfg.Game
	for i, g := range games {
		f.plies += int64(len(g.Moves))
		v, ok := g.Tag("Variant")
		if !ok {
			continue
		}
		rg, err := lookupGame(v, cfg.Default)
		if err != nil {
			return nil, fmt.Errorf("%s: %s: Variant: %v", cfg.Source, f.where(i, g), err)
		}
		if f.game == nil {
			f.game, from = rg, fmt.Sprintf("the Variant of game %d", i+1)
		} else if rg != f.game {
			return nil, fmt.Errorf("%s: %s: Variant %q is %s, not %s as %s says (one run holds one game)", cfg.Source, f.where(i, g), rules.Clip(v), rg.Name, f.game.Name, from)
		}
	}
	if f.game == nil {
		if f.game, err = lookupGame(cmp.Or(cfg.Default, "standard"), cfg.Default); err != nil {
			return nil, fmt.Errorf("%s: no Variant tag says the game: give --game", cfg.Source)
		}
		f.hint = fmt.Sprintf(" (no Variant tag: read as %s; --game names another game)", f.game.Name)
	}
	return f, nil
}

// Game returns the file's game.
func (f *File) Game() *rules.Game { return f.game }

// Plies returns the number of moves in the file.
func (f *File) Plies() int64 { return f.plies }

// Rows replays the file's finished games in order and calls write with
// each one's rows (game numbers from 0, in file order, skipped games left
// out), then progress with the plies of the file read so far (nil: none).
func (f *File) Rows(write func([]datasets.Row) error, progress func(done int64)) (*Summary, error) {
	s := &Summary{Games: int64(len(f.games)), Notations: map[string]int64{}}
	var done int64
	for i, g := range f.games {
		rows, notation, err := f.replay(i, g, s.Imported)
		if err != nil {
			return nil, err
		}
		switch {
		case g.Result == "*":
			s.Unfinished++
		case len(rows) == 0:
			s.Empty++
		default:
			if err := write(rows); err != nil {
				return nil, err
			}
			s.Imported++
			s.Rows += int64(len(rows))
			s.Notations[notation]++
		}
		done += int64(len(g.Moves))
		if progress != nil {
			progress(done)
		}
	}
	return s, nil
}

// where names game i of the file: its number and tags.
func (f *File) where(i int, g *pgn.Game) string {
	return fmt.Sprintf("game %d%s", i+1, tagsText(g.Tags))
}

// tagsText is ` (White "A", Black "B", Round "3")` with the tags present.
func tagsText(tags []pgn.Tag) string {
	var parts []string
	for _, name := range []string{"White", "Black", "Round"} {
		for _, t := range tags {
			if t.Name == name {
				parts = append(parts, fmt.Sprintf("%s %q", name, rules.Clip(t.Value)))
				break
			}
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

// lookupGame returns the game a Variant tag or --game names: its taifu
// name or XBoard variant name (any case), or the game std as "standard"
// or "normal".
func lookupGame(v, std string) (*rules.Game, error) {
	l := strings.ToLower(strings.TrimSpace(v))
	if (l == "standard" || l == "normal") && std != "" {
		l = std
	}
	var names []string
	for _, n := range rules.Names() {
		g, _ := rules.Lookup(n)
		if n == l {
			return g, nil
		}
		if d := rules.XBoard(g); d != nil && strings.ToLower(d.Variant) == l {
			return g, nil
		}
		names = append(names, n)
	}
	return nil, fmt.Errorf("%q is not a game taifu plays (%s)", rules.Clip(v), strings.Join(names, ", "))
}

// notation reads one move's text in position st with legal moves legal.
type notation struct {
	name  string
	parse func(st rules.State, legal []rules.Move, s string) (rules.Move, error)
}

// notations returns the move notations taifu reads for g, in the order
// they are tried.
func notations(g *rules.Game) []notation {
	ns := []notation{{"taifu", func(st rules.State, legal []rules.Move, s string) (rules.Move, error) {
		m, err := g.ParseMoveText(s)
		if err != nil {
			return m, syntaxError{err}
		}
		for _, lm := range legal {
			if lm.Equal(m) {
				return lm, nil
			}
		}
		return rules.Move{}, fmt.Errorf("move %q: not a legal move here", rules.Clip(s))
	}}}
	if d := rules.XBoard(g); d != nil {
		ns = append(ns, notation{"xboard", func(st rules.State, _ []rules.Move, s string) (rules.Move, error) {
			t, declined := strings.CutSuffix(s, "=")
			if !declined || t == "" {
				t = s
			}
			m, err := d.ParseMove(st, t)
			switch {
			case err != nil && !strings.Contains(err.Error(), "not a legal move"):
				return m, syntaxError{err}
			case err == nil && declined && m.Promotes():
				return rules.Move{}, fmt.Errorf("move %q: \"=\" says no promotion, the move promotes", rules.Clip(s))
			}
			return m, err
		}})
	}
	if t := sanTableOf(g); t != nil {
		ns = append(ns, notation{"san", t.parseSAN})
	}
	return ns
}

// start returns the position game g of the file starts from.
func (f *File) start(g *pgn.Game) (rules.State, error) {
	fen, ok := g.Tag("FEN")
	if !ok {
		return f.game.Start(), nil
	}
	type reader struct {
		name string
		read func(string) (rules.State, error)
	}
	readers := []reader{{"NOTATION.md", func(s string) (rules.State, error) { return rules.ParsePosition(f.game, s) }}}
	if d := rules.XBoard(f.game); d != nil {
		readers = append(readers, reader{"XBoard FEN", d.ParseFEN})
	}
	if len(f.game.ExtraFields) > 0 {
		readers = append(readers, reader{"FEN", f.fromFEN})
	}
	var errs []string
	for _, r := range readers {
		st, err := r.read(fen)
		if err == nil {
			return st, nil
		}
		errs = append(errs, r.name+": "+err.Error())
	}
	return nil, fmt.Errorf("FEN %q is not a %s position (%s)", rules.Clip(fen), f.game.Name, strings.Join(errs, "; "))
}

// fromFEN reads a standard FEN (chess's, for games with fields after the
// side to move) as NOTATION.md text: the board's ranks with their pieces
// comma-separated, "w" or "b" as the side's name, the game's extra fields
// (castling, en passant); the move counters are dropped, so a fifty-move
// count starts at the FEN.
func (f *File) fromFEN(fen string) (rules.State, error) {
	fields := strings.Fields(fen)
	n := 2 + len(f.game.ExtraFields)
	if len(fields) != n && len(fields) != n+2 {
		return nil, fmt.Errorf("want %d or %d fields, got %d", n, n+2, len(fields))
	}
	var b strings.Builder
	for i, rank := range strings.Split(fields[0], "/") {
		if i > 0 {
			b.WriteByte('/')
		}
		for j := 0; j < len(rank); j++ {
			if j > 0 {
				b.WriteByte(',')
			}
			b.WriteByte(rank[j])
			for rank[j] >= '0' && rank[j] <= '9' && j+1 < len(rank) && rank[j+1] >= '0' && rank[j+1] <= '9' {
				j++
				b.WriteByte(rank[j]) // a count of ten or more empty squares
			}
		}
	}
	side := map[string]string{"w": f.game.SideNames[0], "b": f.game.SideNames[1]}[fields[1]]
	if side == "" {
		return nil, fmt.Errorf("side to move %q is neither w nor b", rules.Clip(fields[1]))
	}
	b.WriteString(" " + side + " " + strings.Join(fields[2:n], " "))
	return rules.ParsePosition(f.game, b.String())
}

// replay turns game i of the file into rows numbered number, with the
// notation that read it; an unfinished game is checked but gives no rows.
func (f *File) replay(i int, g *pgn.Game, number int64) ([]datasets.Row, string, error) {
	where := f.cfg.Source + ": " + f.where(i, g)
	if tr, ok := g.Tag("Result"); ok && tr != g.Result {
		return nil, "", fmt.Errorf("%s: the Result tag says %q, the movetext ends with %q", where, rules.Clip(tr), g.Result)
	}
	st0, err := f.start(g)
	if err != nil {
		return nil, "", fmt.Errorf("%s: %v", where, err)
	}
	// The error reported is the one of the notation that read furthest,
	// and at the same ply one that read the move's text (an illegal or
	// ambiguous move) before one that could not.
	var (
		best    error
		bestPly = -1
		bestKey = -1
	)
	for _, n := range notations(f.game) {
		rows, final, ply, err := f.play(st0.Clone(), g, n, number)
		if err == nil {
			if err = f.finish(rows, final, g); err != nil {
				return nil, "", fmt.Errorf("%s: %v", where, err)
			}
			return rows, n.name, nil
		}
		key := 2 * ply
		var se syntaxError
		if errors.As(err, &se) {
			err = se.err
		} else {
			key++
		}
		if key > bestKey {
			best, bestPly, bestKey = err, ply, key
		}
	}
	if bestKey%2 == 0 { // no notation reads the move
		best = fmt.Errorf("move %q: not a move in any notation taifu reads (%s)", rules.Clip(g.Moves[bestPly].Text), notationNames(f.game))
	}
	return nil, "", fmt.Errorf("%s: ply %d: %v%s", where, bestPly, best, f.hint)
}

// syntaxError is a notation's error for text that is not a move in it
// (as opposed to a move that is not legal).
type syntaxError struct{ err error }

func (e syntaxError) Error() string { return e.err.Error() }

// play replays g's moves from st with notation n. On error it returns the
// ply that failed.
func (f *File) play(st rules.State, g *pgn.Game, n notation, number int64) ([]datasets.Row, rules.State, int, error) {
	rg := f.game
	rows := make([]datasets.Row, 0, len(g.Moves))
	var legal []rules.Move
	for i, pm := range g.Moves {
		if o := st.Ended(); o.Ended {
			return nil, nil, i, fmt.Errorf("move %q after the game ended (%s) under taifu's %s rules", rules.Clip(pm.Text), o.Reason, rg.Name)
		}
		legal = st.Legal(legal[:0])
		if len(legal) == 0 {
			return nil, nil, i, fmt.Errorf("move %q after the game ended (%s) under taifu's %s rules", rules.Clip(pm.Text), st.NoMoves().Reason, rg.Name)
		}
		m, err := n.parse(st, legal, pm.Text)
		if err != nil {
			return nil, nil, i, err
		}
		rows = append(rows, datasets.Row{
			RunID: f.cfg.RunID, Game: rg.Name, RulesVersion: rg.RulesVersion, GameNumber: number,
			Ply: int32(st.Ply()), SideToMove: rg.SideNames[st.SideToMove()], Position: st.String(),
			Board: datasets.EncodeBoard(nil, st), Move: rg.MoveString(m), LegalMoves: int32(len(legal)),
		})
		st.Make(m)
	}
	return rows, st, len(g.Moves), nil
}

// notationNames lists the notations taifu reads for g.
func notationNames(g *rules.Game) string {
	var names []string
	for _, n := range notations(g) {
		names = append(names, n.name)
	}
	return strings.Join(names, ", ")
}

// finish sets the rows' result and termination from g's result, which
// must agree with taifu's rules when the final position ends the game.
func (f *File) finish(rows []datasets.Row, final rules.State, g *pgn.Game) error {
	if g.Result == "*" {
		return nil
	}
	first := map[string]int8{"1-0": 1, "0-1": -1, "1/2-1/2": 0}[g.Result]
	term := TermImportPrefix
	if t, ok := g.Tag("Termination"); ok {
		switch t = strings.TrimSpace(t); t {
		case datasets.TermResignation, datasets.TermAdjudication:
			term = t
		case "":
		default:
			term += ":" + rules.Clip(strings.Map(func(r rune) rune {
				if r < 0x20 || r == 0x7f {
					return ' '
				}
				return r
			}, t))
		}
	}
	if o := rules.Status(final, nil); o.Ended {
		want, what := int8(0), "a draw"
		if !o.Draw {
			want, what = 1, "a win for "+f.game.SideNames[o.Winner]
			if o.Winner == rules.Second {
				want = -1
			}
		}
		if want != first {
			return fmt.Errorf("ply %d: the final position ends the game by %s under taifu's %s rules (%s), but the result is %s",
				final.Ply(), o.Reason, f.game.Name, what, g.Result)
		}
		term = datasets.TermRulePrefix + o.Reason
	}
	for i := range rows {
		r := &rows[i]
		r.Termination = term
		r.Result = first
		if r.SideToMove != f.game.SideNames[0] {
			r.Result = -first
		}
	}
	return nil
}
