package samarkand

import (
	"math/rand/v2"
	"slices"
	"testing"

	"taifu/rules"
)

// Attacks does not depend on what a check test left behind: after an
// attacked call that found a capture of some man, every man's attacks are
// those of a State set up afresh from the same position (the stale hit of
// the check test once cut the list after the man's first power).
func TestAttacksAfterCheckTest(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	compared := 0
	for positions := 0; positions < 200; {
		st, ok := randomPosition(rng, 20+rng.IntN(50))
		if !ok {
			continue
		}
		positions++
		fresh, err := rules.ParsePosition(game, st.String())
		if err != nil {
			t.Fatal(err)
		}
		hitSome := false
		for sq := 0; sq < squares && !hitSome; sq++ {
			if p := st.board[sq]; p != rules.NoPiece {
				hitSome = st.attacked(sq, p.Side().Other())
			}
		}
		if !hitSome {
			continue
		}
		var got, want []uint8
		for sq := 0; sq < squares; sq++ {
			got = st.Attacks(sq, got[:0])
			want = fresh.(*state).Attacks(sq, want[:0])
			if !slices.Equal(got, want) {
				t.Fatalf("%s: %s attacks %v after a check test, %v set up afresh", st, game.SquareName(sq), got, want)
			}
			compared++
		}
	}
	t.Logf("%d squares compared", compared)
}

// attacksByMoves is the definition Attacks implements for the men's other
// powers: the squares of the men its pseudo-legal moves would take or
// convert, with the plain leaps and rides.
func attacksByMoves(s *state, sq int) []uint8 {
	p := s.board[sq]
	if p == rules.NoPiece {
		return nil
	}
	side := p.Side()
	seen := map[uint8]bool{}
	var out []uint8
	put := func(to uint8) {
		if !seen[to] {
			seen[to] = true
			out = append(out, to)
		}
	}
	for i := range table[p.Kind()].atoms {
		a := &table[p.Kind()].atoms[i]
		if a.mode == modeMove {
			continue
		}
		switch a.op {
		case opLeap:
			for _, t := range a.dests[side][sq] {
				put(t)
			}
		case opRide:
			for d := 0; d < 8; d++ {
				for j, t := range rays[sq][d] {
					if !a.dirs.has(d) || j >= a.max {
						break
					}
					if j+1 >= a.min {
						put(t)
					}
					if s.board[t] != rules.NoPiece {
						break
					}
				}
			}
		}
	}
	s.buf, s.target, s.hit = nil, -1, false
	s.genPiece(sq, p)
	ms := s.buf
	s.buf = nil
	for i := range ms {
		m := &ms[i]
		if m.Push == rules.NoSquare && enemy(s.board[m.To], side) {
			put(m.To)
		}
		for _, c := range m.Marks[:m.NCap+m.NConv] {
			put(c)
		}
	}
	slices.Sort(out)
	return out
}

// sameAttacks fails t unless Attacks of sq lists the squares of
// attacksByMoves, each once.
func sameAttacks(t *testing.T, st *state, sq int, buf []uint8) []uint8 {
	t.Helper()
	buf = st.Attacks(sq, buf[:0])
	got := slices.Clone(buf)
	slices.Sort(got)
	if want := attacksByMoves(st, sq); !slices.Equal(got, want) {
		t.Fatalf("%s: %s on %s attacks %v, its moves take %v", st, game.Kinds[st.board[sq].Kind()].Token, game.SquareName(sq), got, want)
	}
	return buf
}

// setMan puts p (possibly empty) on sq without hashing, for tests that
// change a position at will.
func setMan(s *state, sq int, p rules.Piece) { s.place(sq, p) }

// Attacks, which scans the men's other powers (pushes, snowplows,
// withdrawals, long leaps, conversions, approaches, co-squares, short
// leaps) directly, lists exactly the squares the moves genPiece generates
// would take or convert, for every man of random positions and of 20
// random games from them, and for every kind of either side put on 6
// random squares of each tenth position of those games; and an opposing
// man attacks the royal of the side to move exactly when that side is in
// check (the check rule's look, which TellRoyalAttacked takes from the
// attacks).
func TestAttacksMatchMoves(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 29))
	buf := make([]uint8, 0, 256)
	placed, checks := 0, 0
	for g := 0; g < 20; {
		st, ok := randomPosition(rng, 20+rng.IntN(60))
		if !ok {
			continue
		}
		g++
		for ply := 0; ply < 100; ply++ {
			for sq := 0; sq < squares; sq++ {
				buf = sameAttacks(t, st, sq, buf)
			}
			if got, want := rules.RoyalAttacked(st, st), st.InCheck(); got != want {
				t.Fatalf("%s: royal attacked %v, in check %v", st, got, want)
			} else if want {
				checks++
			}
			if ply%10 == 0 {
				for k := rules.Kind(1); k < rules.Kind(nKinds); k++ {
					for _, side := range []rules.Side{rules.First, rules.Second} {
						for range 6 {
							sq := rng.IntN(squares)
							old := st.board[sq]
							if old != rules.NoPiece && table[old.Kind()].royal {
								continue
							}
							setMan(st, sq, rules.MakePiece(k, side))
							buf = sameAttacks(t, st, sq, buf)
							setMan(st, sq, old)
							placed++
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
	if checks == 0 {
		t.Fatal("no position in check: the check rule's look was not compared")
	}
	t.Logf("%d men placed, %d positions in check", placed, checks)
}

// AttacksReading's contract (rules.AttackReader): a man's attacks depend
// on nothing but the man and the squares it says it read. Checked by
// changing other squares of the board at random (emptying them, or putting
// a random non-royal man of either side there; a royal's square is left
// alone, as every position of a game has one royal a side, but the man's
// own royal may move to another square not read) and listing
// the attacks again, for every kind of either side on random squares of
// positions of random games; and AttacksReading lists what Attacks lists.
func TestAttacksReadingContract(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 31))
	var buf, again []uint8
	checked := 0
	for g := 0; g < 12; {
		st, ok := randomPosition(rng, 20+rng.IntN(60))
		if !ok {
			continue
		}
		g++
		for ply := 0; ply < 120; ply++ {
			if ply%6 == 0 {
				for i := 0; i < 8*(nKinds-1); i++ {
					k := rules.Kind(1 + i%(nKinds-1))
					side := rules.Side(rng.IntN(2))
					sq := rng.IntN(squares)
					if q := st.board[sq]; q != rules.NoPiece && table[q.Kind()].royal {
						continue
					}
					saved := st.board
					setMan(st, sq, rules.MakePiece(k, side))
					var read rules.SquareSet
					buf = st.AttacksReading(sq, buf[:0], &read)
					if !slices.Equal(buf, st.Attacks(sq, again[:0])) {
						t.Fatalf("%s: AttacksReading and Attacks differ on %s", st, game.SquareName(sq))
					}
					want := slices.Clone(buf)
					slices.Sort(want)
					for o := 0; o < squares; o++ {
						q := st.board[o]
						if o == sq || read.Has(o) || (q != rules.NoPiece && table[q.Kind()].royal) || rng.IntN(2) == 0 {
							continue
						}
						var p rules.Piece
						if rng.IntN(3) > 0 {
							k := rules.Kind(1 + rng.IntN(nKinds-1))
							if table[k].royal {
								k = kindMonkey
							}
							p = rules.MakePiece(k, rules.Side(rng.IntN(2)))
						}
						setMan(st, o, p)
					}
					// The man's royal, when its square was not read, moves to
					// another square not read.
					royal := st.royal
					if r := int(royal[side]); r >= 0 && !read.Has(r) {
						if o := rng.IntN(squares); o != sq && !read.Has(o) && st.board[o] == rules.NoPiece {
							setMan(st, o, st.board[r])
							setMan(st, r, rules.NoPiece)
							st.royal[side] = int16(o)
						}
					}
					again = st.Attacks(sq, again[:0])
					got := slices.Clone(again)
					slices.Sort(got)
					if !slices.Equal(got, want) {
						t.Fatalf("%s: %s on %s attacks %v after squares it did not read changed, %v before",
							st, game.Kinds[k].Token, game.SquareName(sq), got, want)
					}
					for o := range squares {
						setMan(st, o, saved[o])
					}
					st.royal = royal
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
