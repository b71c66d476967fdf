package typhoon

import (
	"math/rand/v2"
	"slices"
	"testing"

	"taifu/rules"
)

// attacksByMoves is Attacks as it was before the direct scans of
// otherTableAttacks and specialAttacks: the table part, then for a piece
// with conversions, bent rides or a named power every opposing piece its
// own pseudo-legal moves take (on To or among the marks), found by
// generating them with genPiece. It is the reference the direct scans must
// equal.
func (s *state) attacksByMoves(sq int) []uint8 {
	p := s.board[sq]
	if p == rules.NoPiece {
		return nil
	}
	me := p.Side()
	t := &tabs[p][sq]
	var out []uint8
	var seen bitset
	put := func(to uint8) {
		if !seen.has(int(to)) {
			seen.set(int(to))
			out = append(out, to)
		}
	}
	for _, l := range t.leaps {
		if l.mode&mCap != 0 {
			put(l.to)
		}
	}
	for ri := range t.rays {
		r := &t.rays[ri]
		if r.mode&mCap == 0 {
			continue
		}
		for _, to := range r.sqs {
			put(to)
			if s.board[to] != rules.NoPiece {
				break
			}
		}
	}
	if x := t.x; x != nil {
		for _, to := range x.igui {
			put(to)
		}
		landOpp := catalogue[p.Kind()].hopLandOpp
		for _, h := range x.hops {
			if l := s.board[h.land]; l == rules.NoPiece || (landOpp && l.Side() != me) {
				put(h.over)
			}
		}
		for _, w := range x.withdraw {
			if s.board[w.to] == rules.NoPiece {
				put(w.away)
			}
		}
	}
	if (t.x != nil && (len(t.x.convert) > 0 || len(t.x.bent) > 0)) || special[p.Kind()]&^(spDervish|spHarpy|spImmobilizer|spPass) != 0 {
		for _, m := range s.genPiece(nil, sq) {
			if m.Flags&rules.FlagExchange == 0 && m.Push == rules.NoSquare {
				if q := s.board[m.To]; q != rules.NoPiece && q.Side() != me {
					put(m.To)
				}
			}
			for _, c := range m.Marks[:m.NCap+m.NConv] {
				put(c)
			}
		}
	}
	return out
}

// sameAttacks compares Attacks on sq with the move-generating reference.
func sameAttacks(t *testing.T, s *state, sq int, buf []uint8) []uint8 {
	t.Helper()
	buf = s.Attacks(sq, buf[:0])
	got := slices.Clone(buf)
	want := s.attacksByMoves(sq)
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("%s: %s on %s attacks %v, its moves take %v", s, catalogue[s.board[sq].Kind()].tok, game.SquareName(sq), got, want)
	}
	return buf
}

// Attacks, which scans the Cuckoo's conversions, the bent rides and the
// named powers (Cicada, Typhoon, Longleaper, Sorcerer, Missionary, Rifle)
// directly, lists exactly the squares the moves genPiece generates would
// take or convert (with the table part both share), for every piece of 20
// random games from random setups, and for every kind of either side put
// on 24 random squares of each tenth position of those games (crowded
// openings and emptier later positions).
func TestAttacksMatchMoves(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 29))
	buf := make([]uint8, 0, 256)
	kinds := 0
	for g := 0; g < 20; g++ {
		st := RandomSetup(uint64(g + 1)).(*state)
		for ply := 0; ply < 200; ply++ {
			for sq := 0; sq < squares; sq++ {
				buf = sameAttacks(t, st, sq, buf)
			}
			if ply%10 == 0 {
				for k := rules.Kind(1); k <= numKinds; k++ {
					for _, side := range []rules.Side{rules.First, rules.Second} {
						p := rules.MakePiece(k, side)
						for range 24 {
							sq := rng.IntN(squares)
							old := st.board[sq]
							st.set(sq, p)
							buf = sameAttacks(t, st, sq, buf)
							st.set(sq, old)
							kinds++
						}
					}
				}
			}
			ms := st.Legal(nil)
			if len(ms) == 0 {
				break
			}
			st.Make(ms[rng.IntN(len(ms))])
		}
	}
	t.Logf("%d pieces placed", kinds)
}

// BenchmarkAttacks lists the attacks of every square of 40 positions from
// random games (plies 40, 80, ..., 200 of 8 games from random setups), one
// op being one position.
func BenchmarkAttacks(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 7))
	var positions []*state
	for g := 0; g < 8; g++ {
		st := RandomSetup(uint64(g + 1)).(*state)
		for ply := 0; ply < 220; ply++ {
			if ply >= 20 && ply%40 == 0 {
				positions = append(positions, st.Clone().(*state))
			}
			ms := st.Legal(nil)
			if len(ms) == 0 {
				break
			}
			st.Make(ms[rng.IntN(len(ms))])
		}
	}
	buf := make([]uint8, 0, 256)
	i := 0
	for b.Loop() {
		st := positions[i%len(positions)]
		for sq := 0; sq < squares; sq++ {
			buf = st.Attacks(sq, buf[:0])
		}
		i++
	}
}

// AttacksReading's contract (rules.AttackReader): a piece's attacks depend
// on nothing but the piece and the squares it says it read. Checked by
// changing every other square of the board at random (emptying it, or
// putting a random piece of either side there) and listing the attacks
// again, for every kind of either side on random squares of positions from
// random games; and the read squares are a subset of the board.
func TestAttacksReadingContract(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 31))
	var buf, again []uint8
	checked := 0
	for g := 0; g < 6; g++ {
		st := RandomSetup(uint64(g + 7)).(*state)
		for ply := 0; ply < 160; ply++ {
			if ply%8 == 0 {
				for k := rules.Kind(1); k <= numKinds; k++ {
					side := rules.Side(rng.IntN(2))
					sq := rng.IntN(squares)
					saved := st.board
					st.set(sq, rules.MakePiece(k, side))
					var read rules.SquareSet
					buf = st.AttacksReading(sq, buf[:0], &read)
					if !slices.Equal(buf, st.Attacks(sq, again[:0])) {
						t.Fatalf("%s: AttacksReading and Attacks differ on %s", st, game.SquareName(sq))
					}
					want := slices.Clone(buf)
					slices.Sort(want)
					for o := 0; o < squares; o++ {
						if o == sq || read.Has(o) || rng.IntN(2) == 0 {
							continue
						}
						var p rules.Piece
						if rng.IntN(3) > 0 {
							p = rules.MakePiece(rules.Kind(1+rng.IntN(int(numKinds))), rules.Side(rng.IntN(2)))
						}
						st.set(o, p)
					}
					again = st.Attacks(sq, again[:0])
					got := slices.Clone(again)
					slices.Sort(got)
					if !slices.Equal(got, want) {
						t.Fatalf("%s: %s on %s attacks %v after squares it did not read changed, %v before",
							st, catalogue[k].tok, game.SquareName(sq), got, want)
					}
					for o := range squares {
						st.set(o, saved[o])
					}
					checked++
				}
			}
			ms := st.Legal(nil)
			if len(ms) == 0 {
				break
			}
			st.Make(ms[rng.IntN(len(ms))])
		}
	}
	t.Logf("%d placements checked", checked)
}
