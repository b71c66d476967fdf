package chess

import (
	"math/rand"
	"strings"
	"testing"

	"taifu/rules"
)

func mustFEN(t *testing.T, fen string) *state {
	t.Helper()
	s, err := fromFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func play(t *testing.T, s rules.State, moves string) {
	t.Helper()
	if err := rules.Replay(s, moves); err != nil {
		t.Fatal(err)
	}
}

func TestStartText(t *testing.T) {
	s := Game.Start().(*state)
	if got, want := s.FEN(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"; got != want {
		t.Errorf("FEN() = %q, want %q", got, want)
	}
	if s.String() != startPosition {
		t.Errorf("String() = %q", s.String())
	}
}

// TestText checks the position text after given moves: castling rights
// lost, en passant written only when a capture is possible.
func TestText(t *testing.T) {
	for _, c := range []struct{ moves, want string }{
		{"e2e4", "r,n,b,q,k,b,n,r/p,p,p,p,p,p,p,p/8/8/4,P,3/8/P,P,P,P,1,P,P,P/R,N,B,Q,K,B,N,R black KQkq -"},
		{"e2e4 a7a6 e4e5 d7d5", "r,n,b,q,k,b,n,r/1,p,p,1,p,p,p,p/p,7/3,p,P,3/8/8/P,P,P,P,1,P,P,P/R,N,B,Q,K,B,N,R white KQkq d6"},
		{"e2e4 e7e5 e1e2 e8e7", "r,n,b,q,1,b,n,r/p,p,p,p,k,p,p,p/8/4,p,3/4,P,3/8/P,P,P,P,K,P,P,P/R,N,B,Q,1,B,N,R white - -"},
		{"a2a4 h7h5 a1a3 h8h6", "r,n,b,q,k,b,n,1/p,p,p,p,p,p,p,1/7,r/7,p/P,7/R,7/1,P,P,P,P,P,P,P/1,N,B,Q,K,B,N,R white Kq -"},
	} {
		s := Game.Start()
		play(t, s, c.moves)
		if got := s.String(); got != c.want {
			t.Errorf("after %s: %q, want %q", c.moves, got, c.want)
		}
		back, err := rules.ParsePosition(Game, s.String())
		if err != nil || back.Hash() != s.Hash() {
			t.Errorf("after %s: text does not read back to the same hash (%v)", c.moves, err)
		}
	}
}

func TestMoveText(t *testing.T) {
	s := mustFEN(t, "4k3/P7/8/3pP3/8/8/8/R3K2R w KQ d6 0 1")
	var got []string
	for _, m := range s.Legal(nil) {
		got = append(got, Game.MoveString(m))
	}
	all := " " + strings.Join(got, " ") + " "
	for _, want := range []string{"a7a8+Q", "a7a8+R", "a7a8+B", "a7a8+N", "e5d6", "e1g1", "e1c1"} {
		if !strings.Contains(all, " "+want+" ") {
			t.Errorf("legal moves %s lack %s", all, want)
		}
		m, err := rules.ParseMove(s, want)
		if err != nil || Game.MoveString(m) != want {
			t.Errorf("ParseMove(%s) = %v, %v", want, Game.MoveString(m), err)
		}
	}
	for _, bad := range []string{"a7a8", "a7a8+K", "a7a8+X", "a7a8+P", "e1e1"} {
		if _, err := rules.ParseMove(s, bad); err == nil {
			t.Errorf("ParseMove(%s) accepted", bad)
		}
	}
	play(t, s, "e5d6")
	if got, want := s.String(), "4,k,3/P,7/3,P,4/8/8/8/8/R,3,K,2,R black KQ -"; got != want {
		t.Errorf("en passant left %q", got)
	}
	if s.At(35) != rules.NoPiece {
		t.Error("en passant did not remove the pawn on d5")
	}
	s.Unmake()
	play(t, s, "e1c1")
	if s.At(3) != rules.MakePiece(kRook, rules.First) || s.At(0) != rules.NoPiece {
		t.Error("castling long did not move the rook to d1")
	}
}

func TestOutcomes(t *testing.T) {
	for _, c := range []struct {
		name, fen, moves string
		want             rules.Outcome
	}{
		{"fool's mate", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "f2f3 e7e5 g2g4 d8h4", rules.Win(rules.Second, "checkmate")},
		{"stalemate", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "", rules.DrawBy("stalemate")},
		{"threefold", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8", rules.DrawBy("repetition")},
		{"fifty moves", "7k/8/8/8/8/8/R7/K7 w - - 99 80", "a2b2", rules.DrawBy("fifty-move rule")},
		{"mate on the hundredth ply", "7k/8/6K1/8/8/8/8/R7 w - - 99 80", "a1a8", rules.Win(rules.First, "checkmate")},
		{"K v K", "7k/8/8/8/8/8/8/K7 w - - 0 1", "", rules.DrawBy("insufficient material")},
		{"K+N v K", "7k/8/8/8/8/8/8/KN6 w - - 0 1", "", rules.DrawBy("insufficient material")},
		{"bishops on one colour", "6bk/8/8/8/8/8/8/KB6 w - - 0 1", "", rules.DrawBy("insufficient material")},
		{"bishops on both colours", "5b1k/8/8/8/8/8/8/KB6 w - - 0 1", "", rules.Ongoing},
		{"K+N v K+N", "6nk/8/8/8/8/8/8/KN6 w - - 0 1", "", rules.Ongoing},
		{"K+P v K", "7k/8/8/8/8/8/P7/K7 w - - 0 1", "", rules.Ongoing},
	} {
		s := mustFEN(t, c.fen)
		play(t, s, c.moves)
		if got := rules.Status(s, make([]rules.Move, 0, 256)); got != c.want {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
}

func TestBadPositions(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"8/8/8/8/8/8/8/8 white - -", "kings"},
		{"k,7/8/8/8/8/8/8/K,6,P white - -", "first or last rank"},
		{"k,7/8/8/8/8/8/8/K,7 white KQ -", "castling right K"},
		{"k,7/8/8/8/8/8/8/K,7 white QK -", "castling field"},
		{"k,7/8/8/8/8/8/8/K,7 white - e3", "en passant square e3"},
		{"k,7/8/8/8/8/8/8/K,7 white - z9", "en passant field"},
		{"k,7/8/8/8/8/8/8/R,6,K white - -", "attacked"},
		{"k,7/8/8/8/8/8/8/K,7 white -", "4 space-separated fields"},
		{"k,7/P,P,P,P,P,P,P,P/P,7/8/8/8/8/K,7 white - -", "pawns"},
	} {
		_, err := rules.ParsePosition(Game, c.text)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want one mentioning %q", c.text, err, c.want)
		}
	}
	for _, fen := range []string{"", "8/8 w - -", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
		"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1"} {
		if _, err := fromFEN(fen); err == nil {
			t.Errorf("FromFEN(%q) accepted", fen)
		}
	}
}

// TestRandomPlayouts plays random games checking the incremental hash, the
// text round trip, FEN round trip and that Unmake restores everything.
func TestRandomPlayouts(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	buf := make([]rules.Move, 0, 256)
	for g := 0; g < 40; g++ {
		s := Game.Start().(*state)
		var texts []string
		for ply := 0; ply < 400; ply++ {
			ms := s.Legal(buf[:0])
			if len(ms) == 0 {
				break
			}
			texts = append(texts, s.String())
			s.Make(ms[rng.Intn(len(ms))])
			if s.hash != s.computeHash() {
				t.Fatalf("game %d ply %d: incremental hash differs at %s", g, ply, s)
			}
			back, err := rules.ParsePosition(Game, s.String())
			if err != nil || back.Hash() != s.Hash() {
				t.Fatalf("game %d ply %d: %s does not read back (%v)", g, ply, s, err)
			}
			f, err := fromFEN(s.FEN())
			if err != nil || f.Hash() != s.Hash() || f.half != s.half {
				t.Fatalf("game %d ply %d: FEN %s does not read back (%v)", g, ply, s.FEN(), err)
			}
		}
		for i := len(texts) - 1; i >= 0; i-- {
			s.Unmake()
			if s.String() != texts[i] || s.hash != s.computeHash() {
				t.Fatalf("game %d: unmake to ply %d gives %s, want %s", g, i, s, texts[i])
			}
		}
		c := s.Clone()
		if c.String() != s.String() || c.Hash() != s.Hash() {
			t.Fatal("Clone differs")
		}
	}
}

func TestNoAllocs(t *testing.T) {
	s, _ := fromFEN(perftCases[1].fen)
	buf := make([]rules.Move, 0, 256)
	n := testing.AllocsPerRun(100, func() {
		for _, m := range s.Legal(buf[:0]) {
			s.Make(m)
			s.Unmake()
		}
	})
	if n != 0 {
		t.Errorf("Legal/Make/Unmake allocate %.1f times per run", n)
	}
}
