package rules

// HistoryLegal is implemented by the States whose legal moves can depend on
// the positions before the current one, not only on the position Hash
// names: a repetition rule that forbids a move (Typhoon's third
// occurrence). Searches that share work between nodes of the same Hash
// (transpositions) ask it before they do.
type HistoryLegal interface {
	// LegalFromHistory reports whether the legal moves here may depend on
	// the history; false promises that they are a function of the
	// position alone.
	LegalFromHistory() bool
}
