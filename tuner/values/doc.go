// Package values turns fitted weights into piece values: PieceValues reads
// a weights file's terms and provenance (the βs and bootstrap intervals
// package tuner records) into a PieceTable of whole worths in units of the
// game's unit piece (rules.Game.Unit), written as JSON, CSV, Markdown or a
// ranked chart (WriteChart), each with the definition of a value.
//
// For weights whose provenance lacks the βs, or to see them on other data,
// Reassess (taifu export --data) loads a run as the weights' fit did,
// measures the βs and, with bootstrap samples, intervals centred on the
// weights' own values. TwoWay is a game's two-way table (taifu imbalance
// --report: imbalance games next to the whole model), read and written as
// CSV (ParseTwoWay, WriteCSV) and drawn as a chart. Package values/claims checks a table against what the
// rules texts and other engines say of the pieces.
package values
