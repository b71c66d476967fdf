package torishogi

import (
	"math/rand"
	"reflect"
	"sort"
	"testing"

	"taifu/rules"
)

// The reference generator below is a slow, independent reading of the rules:
// it walks coordinates instead of bitboards, tests legality by playing each
// move on a copy and searching every opposing piece's moves for the phoenix,
// and tests the swallow-drop mate by listing the opponent's replies. Only the
// transcription of the piece moves (defs) is shared with the fast generator.

// refTargets returns the squares the piece on x attacks (moves to, capturing
// or not, ignoring legality).
func refTargets(st *state, x int) []int {
	p := st.board[x]
	c, k := p.Side(), p.Kind()
	sign := 1
	if c == rules.Second {
		sign = -1
	}
	f, r := x%width, x/width
	var out []int
	add := func(nf, nr int) bool { // reports whether the square is empty
		if !onBoard(nf, nr) {
			return false
		}
		y := sq(nf, nr)
		if q := st.board[y]; q != rules.NoPiece {
			if q.Side() != c {
				out = append(out, y)
			}
			return false
		}
		out = append(out, y)
		return true
	}
	for _, v := range defs[k].steps {
		add(f+sign*v[0], r+sign*v[1])
	}
	ride := func(d, limit int) {
		v := dirVec[d]
		for i := 1; i <= limit; i++ {
			if !add(f+sign*i*v[0], r+sign*i*v[1]) {
				return
			}
		}
	}
	for _, d := range defs[k].rays {
		ride(d, width)
	}
	for _, d := range defs[k].rays2 {
		ride(d, 2)
	}
	return out
}

// refAttacked reports whether any piece of side c attacks x.
func refAttacked(st *state, x int, c rules.Side) bool {
	for y := 0; y < squares; y++ {
		if p := st.board[y]; p != rules.NoPiece && p.Side() == c {
			for _, z := range refTargets(st, y) {
				if z == x {
					return true
				}
			}
		}
	}
	return false
}

// refInZone reports whether square x is in side c's two farthest ranks.
func refInZone(c rules.Side, x int) bool {
	if c == rules.First {
		return x/width >= height-2
	}
	return x/width <= 1
}

// refLegal returns the sorted texts of the legal moves of st.
func refLegal(st *state) []string {
	us := st.side
	var cands []rules.Move
	for x := 0; x < squares; x++ {
		p := st.board[x]
		if p == rules.NoPiece || p.Side() != us {
			continue
		}
		for _, y := range refTargets(st, x) {
			m := rules.NewMove(x, y)
			if (p.Kind() == kFalcon || p.Kind() == kSwallow) && (refInZone(us, x) || refInZone(us, y)) {
				m.Flags = rules.FlagPromote
			}
			cands = append(cands, m)
		}
	}
	for k := kPhoenix; k < numKinds; k++ {
		if st.hand[us][k] == 0 {
			continue
		}
		for y := 0; y < squares; y++ {
			if st.board[y] != rules.NoPiece {
				continue
			}
			if k == kSwallow {
				last := height - 1
				if us == rules.Second {
					last = 0
				}
				n := 0
				for r := 0; r < height; r++ {
					if st.board[sq(y%width, r)] == rules.MakePiece(kSwallow, us) {
						n++
					}
				}
				if y/width == last || n >= 2 {
					continue
				}
			}
			cands = append(cands, rules.DropMove(k, y))
		}
	}
	var out []string
	for _, m := range cands {
		c := st.Clone().(*state)
		c.Make(m)
		if refAttacked(c, c.phoenix(us), us.Other()) {
			continue
		}
		if m.IsDrop() && m.Drop == kSwallow && refAttacked(c, c.phoenix(us.Other()), us) && len(refLegal(c)) == 0 {
			continue
		}
		out = append(out, Game.MoveString(m))
	}
	sort.Strings(out)
	return out
}

// refCheckWalk plays random games from the given positions, preferring
// captures so that hands fill, until a repetition ends the game or plies
// are played, and checks at every position that the fast
// generator agrees with the reference, that the incremental hash equals the
// hash recomputed from the position text, and that unmaking every move
// restores the position.
func refCheckWalk(t testing.TB, rng *rand.Rand, start string, plies int) {
	st := mustParse(t, start)
	for i := 0; i < plies; i++ {
		if st.Ended().Ended {
			// A repetition ended the game (RULINGS.md Tori shogi 3); the
			// reference knows nothing of history, and no move is legal.
			if ms := st.Legal(nil); len(ms) != 0 {
				t.Fatalf("%s: the game has ended (%+v) but %d moves are legal", st, st.Ended(), len(ms))
			}
			break
		}
		got, want := legalTexts(st), refLegal(st)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: legal moves\n got %v\nwant %v", st, got, want)
		}
		if h := mustParse(t, st.String()).Hash(); h != st.Hash() {
			t.Fatalf("%s: incremental hash %x, from scratch %x", st, st.Hash(), h)
		}
		ms := st.Legal(nil)
		if len(ms) == 0 {
			break
		}
		m := ms[rng.Intn(len(ms))]
		for j := 0; j < 3 && m.IsDrop(); j++ {
			m = ms[rng.Intn(len(ms))]
		}
		for _, c := range ms {
			if !c.IsDrop() && st.board[c.To] != rules.NoPiece && rng.Intn(2) == 0 {
				m = c
				break
			}
		}
		st.Make(m)
	}
	for st.Ply() > 0 {
		st.Unmake()
	}
	if got := st.String(); got != start {
		t.Fatalf("after unmaking every move: %s, want %s", got, start)
	}
	if h := mustParse(t, start).Hash(); h != st.Hash() {
		t.Fatalf("after unmaking every move the hash is %x, want %x", st.Hash(), h)
	}
}

// TestAgainstReference compares the fast generator with the reference over
// seeded random games (seeds fixed: the test is deterministic).
func TestAgainstReference(t *testing.T) {
	starts := []string{
		startPosition,
		// A position with pieces of every droppable kind in hand.
		"rq,pt,2,ph,pt,1/sw,cr,4,pt/sw,sw,sw,4/6,RQ/SW,SW,5/SW,3,PH,SW,1/LQ,PT,CR,1,CR,2 black [FA,FA,CR,LQ,SW,SW,SW,SW,SW,sw,sw,sw]",
		// Eagles and geese on the board.
		"4,cr,pt,1/2,cr,1,sw,sw,1/3,ph,3/1,+FA,sw,4/4,SW,2/2,FA,2,lq,1/rq,PT,CR,PH,1,PT,1 black [PT,SW,SW,SW,SW,SW,cr,lq,rq,sw,sw,sw,sw,sw,sw,sw]",
	}
	games := 4
	if testing.Short() {
		games = 1
	}
	for i, start := range starts {
		for g := 0; g < games; g++ {
			refCheckWalk(t, rand.New(rand.NewSource(int64(1000*i+g))), start, 50)
		}
	}
}
