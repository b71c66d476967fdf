package xboard

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Level is an xboard time control, "level MOVES BASE INC": a clock of Base
// for every Moves moves (0: the whole game), and Inc added after every move.
// The zero Level is none (the referee then sends "st", a time per move).
type Level struct {
	Moves int
	Base  time.Duration
	Inc   time.Duration
}

// ParseLevel reads xboard's "MOVES BASE INC": BASE in minutes ("2", "0.5")
// or minutes and seconds ("0:04", "1:30"), INC in seconds.
func ParseLevel(text string) (Level, error) {
	f := strings.Fields(text)
	if len(f) != 3 {
		return Level{}, fmt.Errorf("level wants 3 fields (moves base increment), got %d", len(f))
	}
	moves, err := strconv.Atoi(f[0])
	if err != nil || moves < 0 || moves > 10000 {
		return Level{}, fmt.Errorf("bad moves per session %q", clip(f[0]))
	}
	var base float64
	if m, s, ok := strings.Cut(f[1], ":"); ok {
		mv, err1 := strconv.Atoi(m)
		sv, err2 := strconv.Atoi(s)
		if err1 != nil || err2 != nil || mv < 0 || mv > 1e5 || sv < 0 || sv > 59 {
			return Level{}, fmt.Errorf("bad base time %q", clip(f[1]))
		}
		base = float64(mv)*60 + float64(sv)
	} else {
		v, err := strconv.ParseFloat(f[1], 64)
		if err != nil || !(v >= 0) || v > 1e5 {
			return Level{}, fmt.Errorf("bad base time %q", clip(f[1]))
		}
		base = v * 60
	}
	inc, err := strconv.ParseFloat(f[2], 64)
	if err != nil || !(inc >= 0) || inc > 1e5 {
		return Level{}, fmt.Errorf("bad increment %q", clip(f[2]))
	}
	return Level{Moves: moves, Base: time.Duration(base * float64(time.Second)), Inc: time.Duration(inc * float64(time.Second))}, nil
}

// String is the level as "level" takes it: the base in minutes and seconds
// when it is whole seconds, else in minutes.
func (l Level) String() string {
	base := strconv.FormatFloat(l.Base.Minutes(), 'f', -1, 64)
	if l.Base%time.Second == 0 {
		s := int64(l.Base / time.Second)
		base = fmt.Sprintf("%d:%02d", s/60, s%60)
	}
	return fmt.Sprintf("%d %s %s", l.Moves, base, strconv.FormatFloat(l.Inc.Seconds(), 'f', -1, 64))
}

// Timed reports whether the level puts time on the clocks (a base or an
// increment).
func (l Level) Timed() bool { return l.Base > 0 || l.Inc > 0 }

// levelGameMoves is the moves a whole-game level (Moves 0) is taken to
// last when a mean time a move is asked for.
const levelGameMoves = 40

// MeanMove is the level's time a move: Base over Moves (over 40 for a
// whole-game level) plus Inc.
func (l Level) MeanMove() time.Duration {
	n := l.Moves
	if n == 0 {
		n = levelGameMoves
	}
	return l.Base/time.Duration(n) + l.Inc
}
