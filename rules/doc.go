// Package rules is the bottom of taifu: the pieces, squares, moves, position
// text and move text shared by every game, Zobrist keys, repetition history,
// and a generic perft. Each game lives in its own sub-package (rules/typhoon,
// rules/torishogi, rules/nanashogi, rules/samarkand), implements State, and
// registers a *Game with Register from its init function. Package rules/all
// imports every game.
//
// Squares are numbered rank-major from a1 = 0: square = rank*Width + file, so
// numeric order is the "by rank, then by file" order NOTATION.md prescribes
// for lists of squares in a move.
package rules
