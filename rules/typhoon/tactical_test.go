package typhoon

import (
	"strings"
	"testing"

	"taifu/internal/race"
	"taifu/rules"
)

// Captures and HasLegal agree with Legal (rules.CheckCapturer) in random
// games from random setups (every special power: igui, hops, withdrawals,
// conversions, exchanges, rifle and approach captures, relays, passes),
// with stretches in which both sides undo their last move so that the
// repetition rule strikes moves; in the Immobilizer examples; and when no
// move is left, by a wall or by the repetition rule.
func TestCapturerAgreesWithLegal(t *testing.T) {
	for _, items := range [][]string{
		{"e5=R", "e6=im", "d4=DER"},
		{"e5=DER", "e6=im", "d4=R", "c4=W", "d3=W", "d5=W", "e4=W"},
		{"e5=CU", "e6=im", "f5=p"},
		{"e5=PA", "e6=im"},
		{"e5=P", "d7=HA", "f7=HA", "f6=p"},
		fuWall(),
	} {
		for _, side := range []string{"blue", "tan"} {
			if err := rules.CheckCapturer(mustParse(t, build(side, items...))); err != nil {
				t.Fatal(err)
			}
		}
	}
	st := mustParse(t, build("blue", shuttleWall()...))
	for _, m := range strings.Fields(shuttle) {
		if err := rules.Replay(st, m); err != nil {
			t.Fatal(err)
		}
		if err := rules.CheckCapturer(st); err != nil {
			t.Fatalf("after %s: %v", m, err)
		}
	}
	if st.(rules.Capturer).HasLegal() {
		t.Fatalf("%s: HasLegal with every move repeating a position a third time", st)
	}

	games, plies := 60, 100
	if testing.Short() || race.Enabled {
		games = 15
	}
	checked, struck, captures := 0, 0, 0
	for g := 0; g < games; g++ {
		seed := uint64(g)*0x9e3779b97f4a7c15 + 3
		st := RandomSetup(seed).(*state)
		rng := seed
		var made []rules.Move
		for ply := 0; ply < plies; ply++ {
			if err := rules.CheckCapturer(st); err != nil {
				t.Fatalf("game %d ply %d: %v", g, ply, err)
			}
			checked++
			ms := st.Legal(nil)
			if st.hist.MaxRepeat() >= 2 && len(ms) < len(st.pseudo(nil, false)) {
				struck++
			}
			if len(ms) == 0 {
				break
			}
			caps := st.Captures(nil)
			if len(caps) > 0 {
				captures++
			}
			m := ms[rules.SplitMix64(&rng)%uint64(len(ms))]
			if back, ok := takeBack(ms, made); ok && ply%25 >= 15 {
				m = back
			} else if len(caps) > 0 && rules.SplitMix64(&rng)%2 == 0 {
				m = caps[rules.SplitMix64(&rng)%uint64(len(caps))]
			}
			st.Make(m)
			made = append(made, m)
		}
	}
	if struck == 0 || captures == 0 {
		t.Errorf("%d positions, %d with a capture, %d with moves struck by the repetition rule: want some of each", checked, captures, struck)
	}
	t.Logf("%d positions, %d with a capture, %d with moves struck by the repetition rule", checked, captures, struck)
}

// takeBack returns the move among ms that reverses the side to move's last
// move (made's next to last), when both are plain moves to empty squares.
func takeBack(ms, made []rules.Move) (rules.Move, bool) {
	if len(made) < 2 {
		return rules.Move{}, false
	}
	prev := made[len(made)-2]
	if prev.From == prev.To || prev.NCap+prev.NConv > 0 || prev.Flags != 0 {
		return rules.Move{}, false
	}
	for _, m := range ms {
		if m.From == prev.To && m.To == prev.From && m.NCap+m.NConv == 0 && m.Flags == 0 {
			return m, true
		}
	}
	return rules.Move{}, false
}
