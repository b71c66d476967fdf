package solve

import (
	"bufio"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"

	"taifu/internal/atomicfile"
	"taifu/rules"
	"taifu/rules/nanashogi"
)

// File layout: a 32-byte header, then one code byte per table index.
//
//	0  8  magic "TAIFUNS1"
//	8  16 rules version, NUL-padded ("seed-002")
//	24 8  N, little-endian
const (
	magic      = "TAIFUNS1"
	headerSize = 32
)

// source reads table codes.
type source interface {
	code(i int64) (uint8, error)
}

type memSource []uint8

func (m memSource) code(i int64) (uint8, error) { return m[i], nil }

type fileSource struct{ f *os.File }

func (s fileSource) code(i int64) (uint8, error) {
	var b [1]byte
	if _, err := s.f.ReadAt(b[:], headerSize+i); err != nil {
		return 0, fmt.Errorf("reading table entry %d: %w", i, err)
	}
	return b[0], nil
}

// Table is a solved table, in memory or read from a file entry by entry.
type Table struct {
	src  source
	file *os.File
}

// Code returns the code of table index i.
func (t *Table) Code(i int64) (uint8, error) {
	if i < 0 || i >= N {
		return 0, fmt.Errorf("table index %d out of range [0,%d)", i, N)
	}
	return t.src.code(i)
}

// Close releases the file behind a table opened with Open.
func (t *Table) Close() error {
	if t.file != nil {
		return t.file.Close()
	}
	return nil
}

// Write stores an in-memory table at path atomically (package atomicfile:
// temporary file, fsync, rename, directory fsync).
func (t *Table) Write(path string) error {
	m, ok := t.src.(memSource)
	if !ok {
		return errors.New("only a table solved in memory can be written")
	}
	tmp, err := atomicfile.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(tmp, 1<<20)
	h := header()
	w.Write(h[:])
	w.Write(m)
	if err := w.Flush(); err != nil {
		tmp.Abort()
		return fmt.Errorf("writing %s: %w", tmp.TempName(), err)
	}
	return tmp.Commit()
}

// header returns the header Write puts before the codes.
func header() [headerSize]byte {
	var h [headerSize]byte
	copy(h[:8], magic)
	copy(h[8:24], nanashogi.Game.RulesVersion)
	binary.LittleEndian.PutUint64(h[24:], uint64(N))
	return h
}

// Sum256 returns the SHA-256 of the file Write makes of an in-memory
// table (Load's, or one solved in memory): the file's hash, without
// reading the file again.
func (t *Table) Sum256() ([sha256.Size]byte, error) {
	m, ok := t.src.(memSource)
	if !ok {
		return [sha256.Size]byte{}, errors.New("only a table in memory can be summed")
	}
	d := sha256.New()
	h := header()
	d.Write(h[:])
	d.Write(m)
	var sum [sha256.Size]byte
	d.Sum(sum[:0])
	return sum, nil
}

// Load reads a whole table file written by Write into memory.
func Load(path string) (*Table, error) {
	t, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer t.Close()
	m := make(memSource, N)
	if _, err := t.file.ReadAt(m, headerSize); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &Table{src: m}, nil
}

// Open opens a table file written by Write; entries are read on demand.
func Open(path string) (*Table, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	var h [headerSize]byte
	if _, err := io.ReadFull(f, h[:]); err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: reading header: %w", path, err)
	}
	ver := string(h[8:24])
	for len(ver) > 0 && ver[len(ver)-1] == 0 {
		ver = ver[:len(ver)-1]
	}
	switch {
	case string(h[:8]) != magic:
		err = fmt.Errorf("%s: not a Nana shogi table (bad magic)", path)
	case ver != nanashogi.Game.RulesVersion:
		err = fmt.Errorf("%s: table is for rules %q, want %q", path, ver, nanashogi.Game.RulesVersion)
	case int64(binary.LittleEndian.Uint64(h[24:])) != N:
		err = fmt.Errorf("%s: table has %d entries, want %d", path, binary.LittleEndian.Uint64(h[24:]), N)
	}
	if err == nil {
		var fi os.FileInfo
		if fi, err = f.Stat(); err == nil && fi.Size() != headerSize+N {
			err = fmt.Errorf("%s: file is %d bytes, want %d", path, fi.Size(), headerSize+N)
		}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return &Table{src: fileSource{f}, file: f}, nil
}

// Value is a game-theoretic value for the side to move.
type Value int8

// Values.
const (
	Draw Value = iota
	Win
	Loss
)

func (v Value) String() string {
	switch v {
	case Win:
		return "win"
	case Loss:
		return "loss"
	}
	return "draw"
}

// Result is the solved value of a position for the side to move, and the
// number of plies to the end of the game under optimal play (0 for draws).
type Result struct {
	Value Value
	Dist  int
}

// Score is r's value for the side to move as a game score: +1 for a win,
// -1 for a loss, 0 for a draw.
func (r Result) Score() float64 {
	switch r.Value {
	case Win:
		return 1
	case Loss:
		return -1
	}
	return 0
}

func (r Result) String() string {
	if r.Value == Draw {
		return "draw"
	}
	return fmt.Sprintf("%s in %d", r.Value, r.Dist)
}

// ResultOf returns the Result a table code stands for (Invalid reads as a
// draw: check for it first).
func ResultOf(c uint8) Result { return decodeResult(c) }

func decodeResult(c uint8) Result {
	if c == Unknown {
		return Result{Draw, 0}
	}
	d := int(c) - 1
	if d%2 == 0 {
		return Result{Loss, d}
	}
	return Result{Win, d}
}

// better reports whether, for the side choosing, a child result a (for the
// opponent) is preferable to b: a win for the chooser (opponent loses) over a
// draw over a loss; the fastest win, the slowest loss.
func better(a, b Result) bool {
	rank := func(r Result) int {
		switch r.Value {
		case Loss: // the chooser wins: sooner is better
			return 1000 - r.Dist
		case Draw:
			return 0
		}
		return -1000 + r.Dist
	}
	return rank(a) > rank(b)
}

// negate turns the best child's result (for the opponent) into the parent's.
func negate(r Result) Result {
	switch r.Value {
	case Loss:
		return Result{Win, r.Dist + 1}
	case Win:
		return Result{Loss, r.Dist + 1}
	}
	return r
}

// Probe returns the solved value of p: from the table when both kings are on
// the board, otherwise by a search over the king drops down to the table.
// Invalid positions (the side not to move in check) are an error.
func (t *Table) Probe(p *nanashogi.Pos) (Result, error) {
	if p.KingSq(rules.First) >= 0 && p.KingSq(rules.Second) >= 0 {
		c, err := t.Code(Index(p))
		if err != nil {
			return Result{}, err
		}
		if c == Invalid {
			return Result{}, fmt.Errorf("not a legal position: %s is in check with %s to move",
				nanashogi.Game.SideNames[p.Side.Other()], nanashogi.Game.SideNames[p.Side])
		}
		return decodeResult(c), nil
	}
	var buf [nanashogi.MaxMoves]rules.Move
	ms := p.Legal(buf[:0])
	if len(ms) == 0 {
		return Result{Loss, 0}, nil
	}
	var best Result
	for i, m := range ms {
		q := p.Apply(m)
		r, err := t.Probe(&q)
		if err != nil {
			return Result{}, err
		}
		if i == 0 || better(r, best) {
			best = r
		}
	}
	return negate(best), nil
}

// eachMove calls f for each move legal[i] of p (p's legal moves) with p's
// solved result and the result the move leaves p's side to move with.
func (t *Table) eachMove(p *nanashogi.Pos, legal []rules.Move, f func(i int, want, got Result)) error {
	want, err := t.Probe(p)
	if err != nil {
		return err
	}
	for i, m := range legal {
		q := p.Apply(m)
		r, err := t.Probe(&q)
		if err != nil {
			return err
		}
		f(i, want, negate(r))
	}
	return nil
}

// Keeping sets keep[i] when the move legal[i] of p keeps p's solved value
// (win, draw or loss, whatever the distance): the moves a player who knows
// the solution may play. legal are p's legal moves, keep as long.
func (t *Table) Keeping(p *nanashogi.Pos, legal []rules.Move, keep []bool) error {
	return t.eachMove(p, legal, func(i int, want, got Result) { keep[i] = got.Value == want.Value })
}

// Graded sets w[i] to move legal[i]'s weight in a policy target graded by
// the solved distance, with the best moves (those BestMoves returns)
// weighing 1: 0 for a move that gives up p's value; for one that keeps a
// win, 2^(-e/halfLife) where e is how many plies later than the fastest it
// wins; for one that keeps a loss, the same with e how many plies sooner
// than the slowest it loses; 1 for each move that keeps a draw. halfLife
// must be positive (+Inf weighs every value-keeping move 1, as Keeping
// marks them). legal are p's legal moves, w as long.
func (t *Table) Graded(p *nanashogi.Pos, legal []rules.Move, halfLife float64, w []float64) error {
	if !(halfLife > 0) {
		return fmt.Errorf("graded policy target: half-life %v plies: want a positive number", halfLife)
	}
	return t.eachMove(p, legal, func(i int, want, got Result) {
		switch {
		case got.Value != want.Value:
			w[i] = 0
		case want.Value == Draw:
			w[i] = 1
		default:
			// want.Dist is the fastest win's or the slowest loss's distance.
			w[i] = math.Exp2(-math.Abs(float64(got.Dist-want.Dist)) / halfLife)
		}
	})
}

// BestMoves returns the moves of p that keep its solved value and its
// distance, in move-text order.
func (t *Table) BestMoves(p *nanashogi.Pos) ([]rules.Move, error) {
	var out []rules.Move
	legal := p.Legal(nil)
	if err := t.eachMove(p, legal, func(i int, want, got Result) {
		if got == want {
			out = append(out, legal[i])
		}
	}); err != nil {
		return nil, err
	}
	rules.SortMoves(nanashogi.Game, out)
	return out, nil
}
