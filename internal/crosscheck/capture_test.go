package crosscheck

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"taifu/features"
	"taifu/mcts"
	"taifu/rules"
	_ "taifu/rules/all"
	"taifu/tuner/data"
)

// Typhoon positions (from random games) in which the bare search at 100
// playouts plays a move that loses material to a capture sequence: by the
// tuner's independent capture search (data.Quiescer, 6 plies), its move is
// more than 3 pawns worse than the best move, while the move of the search
// with quiescence is within half a pawn of the best. Both searches use the
// capture priors of the time (mcts.PriorsCaptures) and no history (which came
// later, and finds some of these moves without quiescence).
//
// The positions were chosen with the Typhoon weights shipped then
// (typhoon-gen0L-l0.5, kept in testdata): weights with the attack families
// see hanging pieces statically, so the bare search no longer errs there.
func TestCaptureSequenceTyphoon(t *testing.T) {
	g, err := rules.Lookup("typhoon")
	if err != nil {
		t.Fatal(err)
	}
	text, err := os.ReadFile(filepath.Join("..", "..", "mcts", "testdata", "typhoon-gen0L-l0.5.json"))
	if err != nil {
		t.Fatal(err)
	}
	w, err := features.ParseWeights(text, g)
	if err != nil {
		t.Fatal(err)
	}
	q := data.NewQuiescer(w)
	for _, p := range []string{
		"gw,pr,go,sa,1,co,k,1,ci,st,ma,fh/fu,un,bd,fl,d,f,w,a,gg,c,n,cu/be,1,wa,der,cg,bt,del,sg,1,ch,ov,ot/3,gu,p,p,p,p,gu,p,1,fu/1,p,8,p,1/hu,1,p,ba,1,LA,6/8,la,3/5,P,2,BA,3/FU,P,P,GU,P,BT,P,P,1,P,P,FU/OT,OV,CH,1,DEL,F,1,CG,DER,WA,UN,BE/CU,N,C,SG,A,W,1,D,GU,BD,GO,HU/FH,MA,ST,CI,GG,K,CO,FL,SA,1,PR,GW tan",
		"gw,hu,go,sa,1,co,k,gg,ci,1,ma,fh/pr,1,bd,fl,d,f,w,a,1,c,ot,cu/1,un,wa,der,cg,bt,del,sg,1,ch,ov,st/fu,be,1,gu,1,p,1,p,gu,p,p,fu/1,p,p,1,p,1,p,1,la,3/4,ba,n,6/4,LA,7/1,P,2,P,P,P,1,BA,P,P,1/FU,1,P,GU,DEL,BT,CG,P,GU,2,BE/OT,1,CH,N,ST,1,DER,GO,1,WA,UN,HU/CU,MA,OV,SG,A,W,F,D,C,BD,1,FU/FH,CI,2,GG,K,CO,FL,SA,1,PR,GW tan",
		"gw,pr,go,1,fl,co,k,gg,ci,st,ma,fh/be,1,bd,sa,d,f,w,a,2,ot,cu/fu,un,wa,der,cg,del,1,sg,1,ch,1,ov/3,gu,bt,1,p,p,gu,p,p,fu/hu,1,p,ba,p,3,la,n,c,1/1,p,1,N,1,p,6/1,P,LA,9/5,P,3,BA,2/FU,1,P,GU,P,1,P,P,GU,P,P,FU/OT,CH,2,SG,DEL,BT,CG,DER,WA,UN,BE/CU,OV,C,GG,A,1,F,D,1,BD,GO,GW/FH,MA,ST,CI,K,W,CO,FL,SA,1,PR,HU blue",
	} {
		st, err := rules.ParsePosition(g, p)
		if err != nil {
			t.Fatal(err)
		}
		value := func(m rules.Move) float64 { // for the mover, after m and the capture search
			st.Make(m)
			defer st.Unmake()
			_, v := q.Resolve(st)
			return -v
		}
		best := math.Inf(-1)
		for _, m := range st.Legal(nil) {
			best = max(best, value(m))
		}
		old := search(t, st, w, mcts.TacticsNone)
		res := search(t, st, w, mcts.TacticsQuiesce)
		if v := value(old.Move); v > best-3 {
			t.Errorf("%s: the bare search's %s is worth %.2f, best %.2f: the test needs a harder position", p, g.MoveString(old.Move), v, best)
		}
		if v := value(res.Move); v < best-0.5 {
			t.Errorf("%s: %s is worth %.2f pawns, the best move %.2f", p, g.MoveString(res.Move), v, best)
		}
	}
}

// search is a 100-playout search of st with the capture priors, no history
// and the given tactics (seed 1).
func search(t *testing.T, st rules.State, w *features.Weights, tac mcts.Tactics) mcts.Result {
	t.Helper()
	s, err := mcts.New(st.Game(), mcts.Config{Playouts: 100, Seed: 1, Tactics: tac, Priors: mcts.PriorsCaptures, History: -1}, w)
	if err != nil {
		t.Fatal(err)
	}
	return s.Search(st)
}
