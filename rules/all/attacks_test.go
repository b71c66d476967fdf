package all

import (
	"math/rand/v2"
	"testing"

	"taifu/rules"
)

// rules.Attacker on positions of random games of every game that implements
// it: the squares are on the board and listed once, an empty square attacks
// nothing, listing does not allocate, and every legal move that takes an
// opposing piece standing on its destination square by an ordinary move (not
// a drop, pass, exchange, push or relay through another piece) goes to a square
// its piece attacks.
func TestAttacksOnRealGames(t *testing.T) {
	for _, name := range rules.Names() {
		g, _ := rules.Lookup(name)
		if _, ok := g.Start().(rules.Attacker); !ok {
			t.Logf("%s: no rules.Attacker", name)
			continue
		}
		rng := rand.New(rand.NewPCG(3, 5))
		buf := make([]uint8, 0, 512)
		seen := make([]bool, g.Squares())
		var checked, captures int
		for game := 0; game < 6; game++ {
			st := g.Start()
			if g.RandomSetup != nil {
				st = g.RandomSetup(uint64(game + 1))
			}
			at := st.(rules.Attacker)
			for ply := 0; ply < 120; ply++ {
				attacks := make([][]uint8, g.Squares())
				for sq := 0; sq < g.Squares(); sq++ {
					buf = at.Attacks(sq, buf[:0])
					if st.At(sq) == rules.NoPiece && len(buf) != 0 {
						t.Fatalf("%s %s: empty %s attacks %v", name, st, g.SquareName(sq), buf)
					}
					clear(seen)
					for _, to := range buf {
						if int(to) >= g.Squares() || seen[to] {
							t.Fatalf("%s %s: %s attacks %v (off the board or twice)", name, st, g.SquareName(sq), buf)
						}
						seen[to] = true
					}
					attacks[sq] = append([]uint8(nil), buf...)
					checked++
				}
				ms := st.Legal(nil)
				if len(ms) == 0 {
					break
				}
				me := st.SideToMove()
				for _, m := range ms {
					if m.Flags&(rules.FlagDrop|rules.FlagPass|rules.FlagExchange) != 0 || m.From == m.To || m.Push != rules.NoSquare {
						continue
					}
					q := st.At(int(m.To))
					if q == rules.NoPiece || q.Side() == me || st.At(int(m.From)) == rules.NoPiece {
						continue
					}
					if relayed(g, st, &m) {
						continue
					}
					captures++
					found := false
					for _, a := range attacks[m.From] {
						found = found || a == m.To
					}
					if !found {
						t.Fatalf("%s %s: %s takes on %s, which its piece does not attack (%v)", name, st, g.SquareName(int(m.From)), g.SquareName(int(m.To)), attacks[m.From])
					}
				}
				st.Make(ms[rng.IntN(len(ms))])
			}
			if n := testing.AllocsPerRun(20, func() {
				for sq := 0; sq < g.Squares(); sq++ {
					buf = at.Attacks(sq, buf[:0])
				}
			}); n != 0 {
				t.Errorf("%s: Attacks allocates %v times per position", name, n)
			}
		}
		if captures == 0 {
			t.Errorf("%s: no capture checked", name)
		}
		t.Logf("%s: %d squares, %d captures checked", name, checked, captures)
	}
}

// relayed reports whether m, in a game with relays (Typhoon's Dervish and
// Harpy give their powers to pieces they touch), might use a power that is
// not its piece's own: the mover stands next to a friendly piece whose
// kind's name says it relays.
func relayed(g *rules.Game, st rules.State, m *rules.Move) bool {
	if g.Name != "typhoon" {
		return false
	}
	f, r := g.File(int(m.From)), g.Rank(int(m.From))
	me := st.At(int(m.From)).Side()
	for sq := 0; sq < g.Squares(); sq++ {
		p := st.At(sq)
		if p == rules.NoPiece || p.Side() != me || sq == int(m.From) {
			continue
		}
		if n := g.Kinds[p.Kind()].Name; (n == "Dervish" || n == "Harpy") && abs(g.File(sq)-f) <= 2 && abs(g.Rank(sq)-r) <= 2 {
			return true
		}
	}
	return false
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// rules.BoardViewer on random games of every game that implements it: the
// board has one element a square, each is At of its square, and a board
// taken at the start follows the position through Make and Unmake (and a
// clone's board is its own).
func TestBoardViewerFollowsAt(t *testing.T) {
	viewers := 0
	for _, name := range rules.Names() {
		g, _ := rules.Lookup(name)
		if _, ok := g.Start().(rules.BoardViewer); !ok {
			continue
		}
		viewers++
		rng := rand.New(rand.NewPCG(7, 11))
		for game := 0; game < 4; game++ {
			st := g.Start()
			if g.RandomSetup != nil {
				st = g.RandomSetup(uint64(game + 1))
			}
			board := st.(rules.BoardViewer).Board()
			if len(board) != g.Squares() {
				t.Fatalf("%s: board of %d squares, want %d", name, len(board), g.Squares())
			}
			var clone rules.State
			for ply := 0; ply < 150; ply++ {
				for sq := range board {
					if board[sq] != st.At(sq) {
						t.Fatalf("%s %s: board has %v on %s, At %v", name, st, board[sq], g.SquareName(sq), st.At(sq))
					}
				}
				if ply == 20 {
					clone = st.Clone()
				}
				ms := st.Legal(nil)
				if len(ms) == 0 || (st.Ply() > 0 && rng.IntN(4) == 0) {
					if st.Ply() == 0 {
						break
					}
					st.Unmake()
					continue
				}
				st.Make(ms[rng.IntN(len(ms))])
			}
			if clone != nil {
				cb := clone.(rules.BoardViewer).Board()
				for sq := range cb {
					if cb[sq] != clone.At(sq) {
						t.Fatalf("%s %s: the clone's board has %v on %s, At %v", name, clone, cb[sq], g.SquareName(sq), clone.At(sq))
					}
				}
			}
		}
	}
	if viewers == 0 {
		t.Fatal("no game's State is a rules.BoardViewer")
	}
}

// rules.CaptureGain of every legal move in random games of every game, with
// and without a promotion table, equals the gain its doc comment states,
// worked out here square by square: the opposing piece on To (not by an
// exchange, push or drop), each opposing piece on a capture square, twice
// each piece on a conversion square, the promotion's value.
func TestCaptureGainOnRealGames(t *testing.T) {
	for _, name := range rules.Names() {
		g, _ := rules.Lookup(name)
		nk := len(g.Kinds)
		val, promote := make([]float64, nk), make([]float64, nk)
		for k := range val {
			val[k], promote[k] = float64(1+k), float64(1000*(k+1))
		}
		rng := rand.New(rand.NewPCG(7, 11))
		var moves, gains int
		starts := []rules.State{g.Start(), g.Start(), g.Start()}
		if g.RandomSetup != nil {
			starts = append(starts[:1], g.RandomSetup(1), g.RandomSetup(2))
		}
		for _, st := range starts {
			for ply := 0; ply < 80; ply++ {
				ms := st.Legal(nil)
				if len(ms) == 0 {
					break
				}
				me := st.SideToMove()
				for i := range ms {
					m := &ms[i]
					var want float64
					var wantRoyal bool
					if m.Flags&(rules.FlagDrop|rules.FlagPass) == 0 {
						take := func(sq int) {
							if p := st.At(sq); p != rules.NoPiece && p.Side() != me {
								want += val[p.Kind()]
								wantRoyal = wantRoyal || g.Kinds[p.Kind()].Royal
							}
						}
						if m.Flags&rules.FlagExchange == 0 && m.Push == rules.NoSquare {
							take(int(m.To))
						}
						for _, sq := range m.Marks[:m.NCap] {
							take(int(sq))
						}
						for _, sq := range m.Marks[m.NCap : m.NCap+m.NConv] {
							if p := st.At(int(sq)); p != rules.NoPiece {
								want += 2 * val[p.Kind()]
							}
						}
					}
					gain, royal := rules.CaptureGain(st, m, val, nil)
					if gain != want || royal != wantRoyal {
						t.Fatalf("%s %s: %s gains %v (royal %v), want %v (%v)", name, st, g.MoveString(*m), gain, royal, want, wantRoyal)
					}
					if m.Flags&(rules.FlagDrop|rules.FlagPass) == 0 && m.Flags&rules.FlagPromote != 0 {
						if p := st.At(int(m.From)); p != rules.NoPiece {
							want += promote[p.Kind()]
						}
					}
					if gain, _ := rules.CaptureGain(st, m, val, promote); gain != want {
						t.Fatalf("%s %s: %s with promotion values gains %v, want %v", name, st, g.MoveString(*m), gain, want)
					}
					moves++
					if want != 0 {
						gains++
					}
				}
				st.Make(ms[rng.IntN(len(ms))])
			}
		}
		if gains == 0 {
			t.Errorf("%s: no move of %d gained anything: the test saw no capture", name, moves)
		}
	}
}
