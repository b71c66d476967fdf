package torishogi

import (
	"testing"

	"taifu/rules"
)

// sjaakPositions are positions with pieces in hand (reached by seeded random
// games that favour captures), counted by this package and by Sjaak II 1.4.1
// (Debian package sjaakii: "variant torishogi", "setboard <fen>", "perft 4").
// Sjaak's FEN lists the ranks from rank 7 down, Black's pieces in uppercase
// as "white" (w = Black to move), letters K phoenix, F falcon, +F eagle, C
// crane, P pheasant, L left quail, R right quail, S swallow, +S goose, and
// the hands in brackets after the board ("[-]" when both are empty).
//
// Where the counts differ, the rules text wins and why says what Sjaak does
// differently; the difference was accounted for exactly by counting Sjaak's
// way (a throw-away harness: eagle steps counted twice, mating swallow drops
// allowed), which reproduced every Sjaak figure below.
var sjaakPositions = []struct {
	pos   string
	fen   string   // the same position in Sjaak II's FEN
	want  []uint64 // perft 1-4 here (the rules text)
	sjaak []uint64 // Sjaak II's perft 1-4
	why   string   // why they differ, "" when they agree
}{
	{"rq,pt,4,lq/2,cr,2,sw,fa/sw,sw,4,sw/2,sw,CR,1,FA,1/SW,SW,1,SW,2,ph/LQ,1,SW,PH,CR,2/1,PT,4,rq white [cr,pt,pt,sw,sw,sw,sw,sw,sw,sw]",
		"rp4l/2c2sf/ss4s/2sC1F1/SS1S2k/L1SKC2/1P4r[cppsssssss] b 0 1",
		[]uint64{3, 62, 4876, 94844}, []uint64{3, 62, 4876, 94844}, ""},
	{"1,pt,cr,ph,1,pt,1/5,cr,lq/1,sw,1,sw,1,sw,sw/LQ,1,sw,1,SW,2/1,SW,1,SW,1,SW,SW/SW,2,CR,1,FA,1/1,PT,CR,PH,1,PT,RQ white [FA,RQ,SW,SW,SW,SW,SW]",
		"1pck1p1/5cl/1s1s1ss/L1s1S2/1S1S1SS/S2C1F1/1PCK1PR[FRSSSSS] b 0 1",
		[]uint64{15, 1360, 19394, 1492051}, []uint64{15, 1360, 19394, 1492051}, ""},
	{"2,cr,1,cr,2/rq,2,sw,1,ph,1/sw,1,SW,SW,1,pt,RQ/SW,2,sw,3/1,CR,SW,cr,3/4,FA,2/LQ,2,PH,1,PT,1 white [FA,PT,PT,LQ,SW,SW,SW,SW,SW,SW,SW,SW,SW]",
		"2c1c2/r2s1k1/s1SS1pR/S2s3/1CSc3/4F2/L2K1P1[FPPLSSSSSSSSS] b 0 1",
		[]uint64{18, 2062, 47274, 5201089}, []uint64{18, 2062, 47274, 5201089}, ""},
	{"rq,1,cr,ph,1,sw,RQ/sw,1,sw,4/sw,pt,2,PT,cr,1/3,SW,sw,2/SW,2,FA,3/FA,SW,PT,3,sw/LQ,PT,CR,PH,CR,2 white [LQ,SW,SW,SW,sw,sw,sw,sw]",
		"r1ck1sR/s1s4/sp2Pc1/3Ss2/S2F3/FSP3s/LPCKC2[LSSSssss] b 0 1",
		[]uint64{37, 2405, 80652, 4491173}, []uint64{37, 2405, 80652, 4491173}, ""},
	{"rq,pt,cr,2,pt,1/sw,3,ph,1,SW/sw,sw,cr,2,sw,SW/3,sw,3/SW,SW,1,FA,SW,SW,1/4,LQ,SW,1/LQ,PT,CR,PH,CR,PT,1 white [SW,SW,SW,fa,rq,sw]",
		"rpc2p1/s3k1S/ssc2sS/3s3/SS1FSS1/4LS1/LPCKCP1[SSSfrs] b 0 1",
		[]uint64{84, 2447, 154368, 4389269}, []uint64{84, 2447, 154368, 4389269}, ""},
	{"1,rq,cr,1,cr,pt,lq/1,rq,2,ph,1,fa/sw,sw,SW,4/sw,2,SW,LQ,1,sw/1,SW,2,SW,2/4,CR,1,SW/1,PT,PH,2,PT,1 white [PT,SW,SW,SW,fa,cr,sw,sw,sw,sw]",
		"1rc1cpl/1r2k1f/ssS4/s2SL1s/1S2S2/4C1S/1PK2P1[PSSSfcssss] b 0 1",
		[]uint64{7, 479, 35613, 1812573}, []uint64{7, 479, 35613, 1812579},
		"Sjaak allows 6 swallow drops that mate at ply 4; the rules text forbids them"},
	{"5,pt,cr/3,ph,1,cr,lq/1,pt,cr,sw,fa,sw,sw/2,sw,4/1,SW,1,SW,1,SW,SW/1,SW,SW,FA,PH,SW,RQ/SW,PT,CR,2,PT,1 black [SW,lq,rq,sw,sw,sw]",
		"5pc/3k1cl/1pcsfss/2s4/1S1S1SS/1SSFKSR/SPC2P1[Slrsss] w 0 1",
		[]uint64{27, 2280, 40725, 2917108}, []uint64{27, 2280, 40725, 2917252},
		"Sjaak allows 144 swallow drops that mate at ply 4; the rules text forbids them"},
	{"3,ph,1,pt,RQ/7/1,sw,2,+FA,sw,1/rq,2,SW,2,lq/5,SW,1/2,cr,FA,3/1,PT,CR,PH,CR,PT,1 black [CR,PT,LQ,SW,SW,SW,SW,SW,SW,sw,sw,sw,sw,sw,sw]",
		"3k1pR/7/1s2+Fs1/r2S2l/5S1/2cF3/1PCKCP1[CPLSSSSSSssssss] w 0 1",
		[]uint64{4, 166, 24206, 906046}, []uint64{4, 166, 24850, 926464},
		"Sjaak's eagle (KbRfBbF2) generates its steps diagonally and straight back twice, once as K and once as a slide"},
	{"rq,pt,cr,2,pt,RQ/2,sw,1,ph,2/1,sw,2,FA,2/LQ,1,sw,cr,SW,CR,SW/1,SW,1,FA,SW,2/1,PH,SW,4/2,CR,4 white [PT,PT,LQ,SW,SW,SW,SW,SW,SW,sw,sw]",
		"rpc2pR/2s1k2/1s2F2/L1scSCS/1S1FS2/1KS4/2C4[PPLSSSSSSss] b 0 1",
		[]uint64{3, 318, 13811, 1263758}, []uint64{3, 318, 13811, 1263910},
		"at ply 4 Sjaak counts 148 eagle steps twice (Black's falcon promotes at ply 2) and allows 4 mating swallow drops"},
}

// TestPerftSjaak pins the perft counts of positions with pieces in hand,
// cross-checked with Sjaak II (see sjaakPositions).
func TestPerftSjaak(t *testing.T) {
	depth := 4
	if testing.Short() {
		depth = 3
	}
	for _, tc := range sjaakPositions {
		st := mustParse(t, tc.pos)
		for d := 1; d <= depth; d++ {
			if got := rules.Perft(st, d); got != tc.want[d-1] {
				t.Errorf("%s: perft(%d) = %d, want %d", tc.pos, d, got, tc.want[d-1])
			}
		}
		if tc.why == "" && !equalCounts(tc.want, tc.sjaak) {
			t.Errorf("%s: table says the engines agree but lists %v and %v", tc.pos, tc.want, tc.sjaak)
		}
	}
}

func equalCounts(a, b []uint64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestSjaakMatingDrop is a position where Sjaak II 1.4.1 lists 100 moves and
// this package 99: Sjaak allows SW@e6, which mates (the crane on e5 guards
// e6, d6 and f6; White's own pieces stand on d7 and f7). The rules text: "A
// swallow cannot be dropped where the opponent would have no way to prevent
// his phoenix being captured on the next move."
// Sjaak FEN: rp1skp1/sc4p/sss1C2/6R/SS5/S3KS1/LPC1C2[FFLSSSSSss] w 0 1
func TestSjaakMatingDrop(t *testing.T) {
	st := mustParse(t, "rq,pt,1,sw,ph,pt,1/sw,cr,4,pt/sw,sw,sw,1,CR,2/6,RQ/SW,SW,5/SW,3,PH,SW,1/LQ,PT,CR,1,CR,2 black [FA,FA,LQ,SW,SW,SW,SW,SW,sw,sw]")
	if n := len(st.Legal(nil)); n != 99 {
		t.Errorf("%d legal moves, want 99 (Sjaak's 100 less SW@e6)", n)
	}
	checkMoves(t, "mating swallow drop", st, "FA@e6 LQ@e6", "SW@e6")
	// Played anyway (as Sjaak would), it leaves White without a legal move.
	st.Make(rules.DropMove(kSwallow, 5*width+4)) // e6
	if o := rules.Status(st, nil); o != rules.Win(rules.First, "checkmate") {
		t.Errorf("after SW@e6: %+v, want a Black win by checkmate", o)
	}
}
