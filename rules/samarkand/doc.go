// Package samarkand implements Ivan A. Derzhanski's Samarkand (2001) on a
// 12x12 board, as the seed text 003 and the project's spec samarkand.md
// describe it: 21 men and their promoted forms, baroque captures (pushes,
// line-hops, withdrawal, approach, co-squares and converting hops), the
// King's relay, check, checkmate, stalemate, repetition and the no-progress
// rule.
//
// Every rule the seed lost and the project reconstructed, and every reading
// of an unclear sentence, lives in reconstruction.go; the men whose moves
// the seed describes are a data-driven catalogue (catalogue.go) compiled
// into per-square tables, with the special powers in movegen.go. The game
// registers itself as "samarkand"; see Game.
//
// Engine limits (not rules): a move lists at most rules.MaxMarks (15)
// captures, and one Monkey's capture chains are searched for at most
// monkeyChainBudget leaps per generation; only set-up positions with many
// opposing men spaced one apart come near either.
package samarkand
