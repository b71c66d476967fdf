package all

import (
	"math/rand/v2"
	"testing"

	"taifu/rules"
)

// rules.Capturer agrees with Legal (rules.CheckCapturer: the captures and
// promotions Legal lists, in its order; HasLegal) at every position of
// random games of every game that implements it: walks that take a capture
// half the time they can, from the start and from random setups, with
// stretches in which both sides undo their last move so that positions
// repeat (in Typhoon the repetition rule then strikes moves from Legal). At least the
// three games with a capture generator are checked.
func TestCapturerOnRealGames(t *testing.T) {
	checked := 0
	for _, name := range rules.Names() {
		g, _ := rules.Lookup(name)
		if _, ok := g.Start().(rules.Capturer); !ok {
			t.Logf("%s: no rules.Capturer", name)
			continue
		}
		checked++
		rng := rand.New(rand.NewPCG(21, 5))
		starts := []rules.State{g.Start(), g.Start(), g.Start()}
		if g.RandomSetup != nil {
			starts = append(starts[:1], g.RandomSetup(3), g.RandomSetup(4))
		}
		positions, captures := 0, 0
		for _, st := range starts {
			var made []rules.Move
			for ply := 0; ply < 120; ply++ {
				if err := rules.CheckCapturer(st); err != nil {
					t.Fatalf("%s ply %d: %v", name, ply, err)
				}
				positions++
				ms := st.Legal(nil)
				if len(ms) == 0 {
					break
				}
				m := ms[rng.IntN(len(ms))]
				if back, ok := reverseOf(st, ms, made); ok && ply%40 >= 34 {
					m = back
				} else {
					for _, c := range ms {
						if rules.IsCapture(st, &c) {
							captures++
							if rng.IntN(2) == 0 {
								m = c
							}
							break
						}
					}
				}
				st.Make(m)
				made = append(made, m)
			}
		}
		t.Logf("%s: %d positions, %d with a capture", name, positions, captures)
	}
	if checked < 3 {
		t.Errorf("%d games implement rules.Capturer, want at least 3 (Typhoon, Samarkand, Tori shogi)", checked)
	}
}

// reverseOf returns the move among ms that takes back made's next to last
// move (the side to move's last), when that was a plain move and its
// reverse is a plain legal move.
func reverseOf(st rules.State, ms, made []rules.Move) (rules.Move, bool) {
	if len(made) < 2 {
		return rules.Move{}, false
	}
	prev := made[len(made)-2]
	if prev.From != prev.To && prev.NCap+prev.NConv == 0 && prev.Flags == 0 && prev.Push == rules.NoSquare {
		for _, m := range ms {
			if m.From == prev.To && m.To == prev.From && m.NCap+m.NConv == 0 && m.Flags == 0 &&
				m.Push == rules.NoSquare && !rules.IsCapture(st, &m) {
				return m, true
			}
		}
	}
	return rules.Move{}, false
}

// BenchmarkCapturer measures Captures and HasLegal against Legal, per game
// that implements rules.Capturer, in a position 16 random moves into a game.
func BenchmarkCapturer(b *testing.B) {
	for _, name := range rules.Names() {
		g, _ := rules.Lookup(name)
		st := g.Start()
		c, ok := st.(rules.Capturer)
		if !ok {
			continue
		}
		rng := rand.New(rand.NewPCG(1, 2))
		for range 16 {
			if ms := st.Legal(nil); len(ms) > 0 {
				st.Make(ms[rng.IntN(len(ms))])
			}
		}
		buf := make([]rules.Move, 0, 1024)
		b.Run(name+"/Legal", func(b *testing.B) {
			for b.Loop() {
				buf = st.Legal(buf[:0])
			}
		})
		b.Run(name+"/Captures", func(b *testing.B) {
			for b.Loop() {
				buf = c.Captures(buf[:0])
			}
		})
		b.Run(name+"/HasLegal", func(b *testing.B) {
			for b.Loop() {
				c.HasLegal()
			}
		})
	}
}
