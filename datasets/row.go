// Package datasets stores self-play positions as Parquet and reads them back.
//
// # Layout
//
// A run directory holds Hive-style partitions and a manifest:
//
//	<out>/game=<game>/part-<shard>-<seq>.parquet
//	<out>/manifest.json                    (manifest-shard-<i>-of-<n>.json for a shard of a sharded run)
//
// Each file holds whole games in game-number order, one row per position
// (see Row), zstd-compressed, in row groups of at most RowGroupRows rows.
// Files are written under a ".tmp" name and renamed when complete, so a
// "*.parquet" file is always whole.
//
// # Columns
//
// The table below is generated from ColumnTable (go generate ./datasets),
// which also gives each column's encoding and leaf paths.
//
//	column           Parquet type (DuckDB)         meaning
//	run_id           BYTE_ARRAY string (VARCHAR)   the run's id, "<game>-<seed>" by default
//	game             BYTE_ARRAY string (VARCHAR)   rules.Game.Name: typhoon, samarkand, torishogi, nanashogi
//	rules_version    BYTE_ARRAY string (VARCHAR)   rules.Game.RulesVersion ("seed-000", ...)
//	game_number      INT64 (BIGINT)                the game's number in the run, 0-based
//	ply              INT32 (INTEGER)               moves made since the setup, 0-based
//	side_to_move     BYTE_ARRAY string (VARCHAR)   NOTATION.md side name ("blue", "tan", "white", "black")
//	position         BYTE_ARRAY string (VARCHAR)   the position in NOTATION.md text
//	board            BYTE_ARRAY (BLOB)             compact encoding, below
//	result           INT32 as INT(8) (TINYINT)     final result for the side to move: +1, 0, -1
//	termination      BYTE_ARRAY string (VARCHAR)   "rule:<reason>", "resignation", "adjudication"; "import[:<tag>]" (taifu import)
//	root_value       FLOAT (FLOAT)                 search value for the side to move, in [-1, 1]
//	move             BYTE_ARRAY string (VARCHAR)   the move played, NOTATION.md text
//	policy           LIST<STRUCT<index INT32, visits INT32>>  root children and their visits (formats 3, 4)
//	legal_moves      INT32 (INTEGER)               number of legal moves in the position
//	static_eval      FLOAT (FLOAT)                 evaluation of the weights used, pawn units
//	weights_version  BYTE_ARRAY string (VARCHAR)   version of the weights used by the search
//	full             BOOLEAN (BOOLEAN)             the search was a full one (format 4), below
//
// # Full and fast searches
//
// With playout cap randomization (package selfplay, Config.FullFraction)
// only a share of the moves get a full search, with root noise and
// temperature; the others get a fast one that only plays the game on. The
// value target (result) is good in every row; the policy column is a
// policy target only where full is true. Files without the column (formats 1 to
// 3, whose runs searched every move in full) read as full. A resumed run
// of an older format writes no full column, so that all files of a run
// have the same columns (WriterConfig.NoFull).
//
// # The policy column and older formats
//
// policy lists the root children the search visited, in move generation
// order, each with its visits. Format 3 and later (ManifestFormat) store each move as
// index, its 0-based place in the legal moves of the position (in the
// order rules.State.Legal generates them, after the game's moves from ply
// 0), which takes a fifth of the bytes of the move text. The text is
// restored by replaying the game: `taifu games --format json|pgn|html` show
// it, and `taifu games --data RUN --format parquet --out DIR` rewrites a run
// with the format 2 layout below, for queries that need it.
//
// Format 1 and 2 files (still read) store policy as LIST<STRUCT<move string,
// visits INT32>>, the move in NOTATION.md text (TextVisitLeaves); the other
// columns are the same in all formats.
//
// # Board encoding
//
// The board column is a compact binary form of the position (EncodeBoard):
//
//	bytes [0, W*H)   one byte per square in square order (a1 = 0, rank-major):
//	                 the rules.Piece, Kind<<1 | Side, 0 for empty
//	then, for games with hands only: for the first player then the second,
//	                 one byte per droppable kind in piece-table order: the count held
//	last byte        the side to move (0 first player, 1 second player)
//
// A Typhoon or Samarkand position is 144 + 1 = 145 bytes, Tori shogi
// 49 + 2*6 + 1 = 62 (six kinds can be held), Nana shogi 9 + 2*3 + 1 = 16 (K, R, B).
// DecodeBoard reverses it into a rules.Setup.
package datasets

import (
	"fmt"
	"strings"

	"taifu/rules"
)

//go:generate go test -run ^TestGeneratedColumns$ -update

// Visit is one root move of the search and how many playouts it got.
//
// Format 3 and 4 files store the move as Index, its place in the position's legal
// moves in generation order (rules.State.Legal of the position reached by
// the game's moves, history included), not as text: the reader returns
// entries with Index set and Move empty, and whoever replays the game (package
// records, `taifu games`) restores Move with FillVisitMoves. Format 1 and 2
// files store Move: the reader returns Index -1 for them. The writer needs
// Index (formats 3, 4) or Move (the format 2 layout, WriterConfig.MoveText).
type Visit struct {
	Move   string
	Visits int32
	Index  int32 `json:"-"`
}

// Row is one position of a self-play game, as the reader returns it and
// the writer takes it. Its fields are the columns of ColumnTable, in order.
type Row struct {
	RunID          string
	Game           string
	RulesVersion   string
	GameNumber     int64
	Ply            int32
	SideToMove     string
	Position       string
	Board          []byte
	Result         int8 // +1 win, 0 draw, -1 loss for the side to move
	Termination    string
	RootValue      float32 // search value for the side to move, [-1, 1]
	Move           string  // the move played, NOTATION.md text
	Visits         []Visit
	LegalMoves     int32
	StaticEval     float32 // evaluation at the root, pawn units
	WeightsVersion string
	// Full reports that the row's search was a full one: its Visits are a
	// policy target. Files without the full column read as true, but only
	// when the column is selected (Scan's columns); unselected, it is false
	// like every unread field.
	Full bool
}

// Clone returns a copy of r that shares no memory with it (Scan reuses
// its Row's Board and Visits between calls).
func (r *Row) Clone() Row {
	c := *r
	c.Board = append([]byte(nil), r.Board...)
	c.Visits = append([]Visit(nil), r.Visits...)
	return c
}

// layoutRow is a row as format 4 files hold it, P the policy entry's
// layout: the columns of formats 1 to 3 (baseRow) and full.
type layoutRow[P any] struct {
	baseRow[P]
	Full bool `parquet:"full"`
}

// baseRow is a row as the files of formats 1 to 3 hold it (no full
// column), P the policy entry's layout.
// The parquet tags name the columns; the options after the name only
// choose encodings, chosen by measurement (docs/benchmarks.md, "Bytes a
// position"): dictionaries for repeated strings (moves repeat within a row
// group), delta for slowly changing integers, byte-stream split for floats.
type baseRow[P any] struct {
	RunID          string  `parquet:"run_id,dict"`
	Game           string  `parquet:"game,dict"`
	RulesVersion   string  `parquet:"rules_version,dict"`
	GameNumber     int64   `parquet:"game_number,delta"`
	Ply            int32   `parquet:"ply,delta"`
	SideToMove     string  `parquet:"side_to_move,dict"`
	Position       string  `parquet:"position"`
	Board          []byte  `parquet:"board"`
	Result         int8    `parquet:"result"`
	Termination    string  `parquet:"termination,dict"`
	RootValue      float32 `parquet:"root_value,split"`
	Move           string  `parquet:"move,dict"`
	Policy         []P     `parquet:"policy,list"`
	LegalMoves     int32   `parquet:"legal_moves,delta"`
	StaticEval     float32 `parquet:"static_eval,split"`
	WeightsVersion string  `parquet:"weights_version,dict"`
}

// filePolicy is a policy entry of format 3: the move's legal-move index
// (plain) and its visits (dictionary: a few hundred distinct counts). Both
// byte-stream split measured 7 bytes a position smaller, but DuckDB 1.5
// reads that encoding only for FLOAT and DOUBLE (docs/benchmarks.md, "Bytes a position").
type filePolicy struct {
	Index  int32 `parquet:"index"`
	Visits int32 `parquet:"visits,dict"`
}

// textPolicy is a policy entry of format 2's layout: the move's NOTATION.md
// text. The writer writes it with WriterConfig.MoveText (what `taifu games
// --format parquet` does to restore the text of a format 3 run).
type textPolicy struct {
	Move   string `parquet:"move"`
	Visits int32  `parquet:"visits"`
}

// fileRow is a row of format 4, textRow one with format 2's policy layout
// and the full column; fileRow3 and textRow2 are the rows of formats 3 and
// 2, without the full column (a resumed run of those formats). The writer
// names a file's schema after the row's Go type
// ("layoutRow[taifu/datasets.filePolicy]"): renaming these types or the
// policy entry types changes the bytes of every file written
// (records' TestGoldenFormats fails).
type (
	fileRow  = layoutRow[filePolicy]
	textRow  = layoutRow[textPolicy]
	fileRow3 = baseRow[filePolicy]
	textRow2 = baseRow[textPolicy]
)

// TextVisitLeaves are the policy column's leaves in format 1 and 2 files
// (and in files written with WriterConfig.MoveText).
var TextVisitLeaves = []string{"policy.list.element.move", "policy.list.element.visits"}

// FillVisitMoves sets the Move text of the entries of p that have an Index
// and no Move, from st's legal moves (st must be the row's position reached
// by the game's moves, so that its history is the game's). buf is scratch
// space for the legal moves, returned for reuse. An index outside the legal
// moves is an error.
func FillVisitMoves(st rules.State, p []Visit, buf []rules.Move) ([]rules.Move, error) {
	done := true
	for _, e := range p {
		if e.Move == "" {
			done = false
			break
		}
	}
	if done {
		return buf, nil
	}
	buf = st.Legal(buf[:0])
	g := st.Game()
	for i := range p {
		e := &p[i]
		if e.Move != "" {
			continue
		}
		if e.Index < 0 || int(e.Index) >= len(buf) {
			return buf, fmt.Errorf("policy entry %d: move index %d, the position has %d legal moves", i, e.Index, len(buf))
		}
		e.Move = g.MoveString(buf[e.Index])
	}
	return buf, nil
}

// Column describes one column of Row. ColumnTable is the one table of
// columns (format 4): the writer writes fileRow, whose parquet tags must
// agree with it (TestColumnTable), the reader finds each column's leaves and
// fills the Row field of its index, and the tuner's loader names columns by
// index.
type Column struct {
	Name     string   // column name (Row's parquet tag)
	Type     string   // Parquet type (DuckDB type)
	Encoding string   // the tag's encoding option ("": plain, "list" for the policy)
	Leaves   []string // leaf column paths in the file
	Meaning  string   // what it holds, for the package comment's table
}

// ColumnTable lists Row's columns in schema order. It is the one table of
// columns: `go generate ./datasets` derives from it (and from Row's field
// of the same index) the Col* indices, the reader's switch (scanRowGroup,
// in columns_gen.go) and the package comment's table; TestGeneratedColumns
// fails while a generated copy disagrees with it, and TestColumnTable while
// Row or the writer's tags (baseRow, layoutRow) do. Adding a column: a Row
// field, its tagged field in baseRow or layoutRow, its entry here, then go
// generate.
var ColumnTable = [...]Column{
	{"run_id", "BYTE_ARRAY string (VARCHAR)", "dict", []string{"run_id"}, `the run's id, "<game>-<seed>" by default`},
	{"game", "BYTE_ARRAY string (VARCHAR)", "dict", []string{"game"}, "rules.Game.Name: typhoon, samarkand, torishogi, nanashogi"},
	{"rules_version", "BYTE_ARRAY string (VARCHAR)", "dict", []string{"rules_version"}, `rules.Game.RulesVersion ("seed-000", ...)`},
	{"game_number", "INT64 (BIGINT)", "delta", []string{"game_number"}, "the game's number in the run, 0-based"},
	{"ply", "INT32 (INTEGER)", "delta", []string{"ply"}, "moves made since the setup, 0-based"},
	{"side_to_move", "BYTE_ARRAY string (VARCHAR)", "dict", []string{"side_to_move"}, `NOTATION.md side name ("blue", "tan", "white", "black")`},
	{"position", "BYTE_ARRAY string (VARCHAR)", "", []string{"position"}, "the position in NOTATION.md text"},
	{"board", "BYTE_ARRAY (BLOB)", "", []string{"board"}, "compact encoding, below"},
	{"result", "INT32 as INT(8) (TINYINT)", "", []string{"result"}, "final result for the side to move: +1, 0, -1"},
	{"termination", "BYTE_ARRAY string (VARCHAR)", "dict", []string{"termination"}, `"rule:<reason>", "resignation", "adjudication"; "import[:<tag>]" (taifu import)`},
	{"root_value", "FLOAT (FLOAT)", "split", []string{"root_value"}, "search value for the side to move, in [-1, 1]"},
	{"move", "BYTE_ARRAY string (VARCHAR)", "dict", []string{"move"}, "the move played, NOTATION.md text"},
	{"policy", "LIST<STRUCT<index INT32, visits INT32>>", "list",
		[]string{"policy.list.element.index", "policy.list.element.visits"}, "root children and their visits (formats 3, 4)"},
	{"legal_moves", "INT32 (INTEGER)", "delta", []string{"legal_moves"}, "number of legal moves in the position"},
	{"static_eval", "FLOAT (FLOAT)", "split", []string{"static_eval"}, "evaluation of the weights used, pawn units"},
	{"weights_version", "BYTE_ARRAY string (VARCHAR)", "dict", []string{"weights_version"}, "version of the weights used by the search"},
	{"full", "BOOLEAN (BOOLEAN)", "", []string{"full"}, "the search was a full one (format 4), below"},
}

// NumColumns is the number of columns.
const NumColumns = len(ColumnTable)

// Columns lists the column names of Row in schema order.
var Columns = func() []string {
	out := make([]string, NumColumns)
	for i, c := range ColumnTable {
		out[i] = c.Name
	}
	return out
}()

// Termination values other than "rule:<reason>".
const (
	TermResignation  = "resignation"
	TermAdjudication = "adjudication"
	TermRulePrefix   = "rule:"
)

// BoardLen returns the length of g's board encoding. A game with
// ExtraFields (chess's castling rights and en passant square) appends them
// after the side byte as their position text, space-separated, so its
// encodings are longer than BoardLen by that text.
func BoardLen(g *rules.Game) int {
	n := g.Squares() + 1
	if g.HasHand {
		for k := 1; k < len(g.Kinds); k++ {
			if g.Kinds[k].Droppable {
				n += 2
			}
		}
	}
	return n
}

// EncodeBoard appends the board encoding of st (see the package comment) to dst.
func EncodeBoard(dst []byte, st rules.State) []byte {
	g := st.Game()
	for sq := 0; sq < g.Squares(); sq++ {
		dst = append(dst, byte(st.At(sq)))
	}
	if g.HasHand {
		for s := rules.First; s <= rules.Second; s++ {
			for k := 1; k < len(g.Kinds); k++ {
				if g.Kinds[k].Droppable {
					dst = append(dst, byte(st.InHand(s, rules.Kind(k))))
				}
			}
		}
	}
	dst = append(dst, byte(st.SideToMove()))
	if n := len(g.ExtraFields); n > 0 {
		f := strings.Fields(st.String())
		dst = append(dst, strings.Join(f[len(f)-n:], " ")...)
	}
	return dst
}

// DecodeBoard reads a board encoding of game g back into a Setup. It checks
// the length, piece codes and side byte, not the game's own constraints
// (g.New does that).
func DecodeBoard(g *rules.Game, b []byte) (*rules.Setup, error) {
	su := &rules.Setup{}
	if err := DecodeBoardInto(g, b, su); err != nil {
		return nil, err
	}
	return su, nil
}

// DecodeBoardInto is DecodeBoard into su, whose hands' storage it reuses.
func DecodeBoardInto(g *rules.Game, b []byte, su *rules.Setup) error {
	if want := BoardLen(g); len(b) != want && (len(g.ExtraFields) == 0 || len(b) < want) {
		return fmt.Errorf("board encoding: %d bytes, %s needs %d", len(b), g.Name, want)
	}
	*su = rules.Setup{Game: g, Hand: su.Hand}
	n := g.Squares()
	for sq := 0; sq < n; sq++ {
		p := rules.Piece(b[sq])
		if k := int(p.Kind()); p != rules.NoPiece && (k == 0 || k >= len(g.Kinds)) {
			return fmt.Errorf("board encoding: byte %d: piece code %d is not a %s piece", sq, b[sq], g.Name)
		}
		su.Board[sq] = p
	}
	i := n
	if !g.HasHand {
		su.Hand = [2][]int{}
	} else {
		for s := range su.Hand {
			if cap(su.Hand[s]) >= len(g.Kinds) {
				su.Hand[s] = su.Hand[s][:len(g.Kinds)]
				clear(su.Hand[s])
			} else {
				su.Hand[s] = make([]int, len(g.Kinds))
			}
			for k := 1; k < len(g.Kinds); k++ {
				if g.Kinds[k].Droppable {
					su.Hand[s][k] = int(b[i])
					i++
				}
			}
		}
	}
	switch b[i] {
	case 0:
		su.Side = rules.First
	case 1:
		su.Side = rules.Second
	default:
		return fmt.Errorf("board encoding: byte %d: side to move %d is neither 0 nor 1", i, b[i])
	}
	if n := len(g.ExtraFields); n > 0 {
		su.Extra = strings.Fields(string(b[i+1:]))
		if len(su.Extra) != n {
			return fmt.Errorf("board encoding: %d extra fields after the side byte, %s needs %d (%s)", len(su.Extra), g.Name, n, strings.Join(g.ExtraFields, ", "))
		}
	}
	return nil
}

// State builds the row's position as a State of game g from the board
// column, without parsing the position text. The State has no history
// before the position (repetition counts start afresh).
func (r *Row) State(g *rules.Game) (rules.State, error) {
	return r.StateReusing(g, &rules.Setup{}, nil)
}

// StateReusing is State with scratch: the board column is decoded into su,
// and prev, when it is a rules.Resetter of game g, is set up again in place
// (keeping its storage) instead of allocating a new State. prev may be nil.
// After an error prev must not be used.
func (r *Row) StateReusing(g *rules.Game, su *rules.Setup, prev rules.State) (rules.State, error) {
	if err := DecodeBoardInto(g, r.Board, su); err != nil {
		return nil, fmt.Errorf("game %d ply %d: %w", r.GameNumber, r.Ply, err)
	}
	if rs, ok := prev.(rules.Resetter); ok && prev.Game() == g {
		if err := rs.Reset(su); err != nil {
			return nil, fmt.Errorf("game %d ply %d: board: %w", r.GameNumber, r.Ply, err)
		}
		return prev, nil
	}
	st, err := g.New(su)
	if err != nil {
		return nil, fmt.Errorf("game %d ply %d: board: %w", r.GameNumber, r.Ply, err)
	}
	return st, nil
}
