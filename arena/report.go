package arena

import (
	"encoding/json"
	"fmt"

	"taifu/internal/seal"
)

// MarshalReport returns r as the content of a report file (taifu match
// --json, a training generation's match.json): indented JSON sealed as
// run manifests are (internal/seal), so that a report edited by hand or
// damaged is refused when it is read back.
func MarshalReport(r *Report) ([]byte, error) {
	data, err := seal.Marshal(r)
	if err != nil {
		return nil, fmt.Errorf("arena: report: %w", err)
	}
	return data, nil
}

// ParseReport reads the content of the report file name (for messages):
// its seal must match and its records be valid (CheckRecords). unsealed
// says that the file has no seal (written by a taifu from before reports
// were sealed): it is read as it is, and the caller warns.
func ParseReport(name string, data []byte) (r *Report, unsealed bool, err error) {
	sealed, err := seal.Check(data)
	if err != nil {
		return nil, false, fmt.Errorf("%s: %w", name, err)
	}
	r = new(Report)
	if err := json.Unmarshal(data, r); err != nil {
		return nil, false, fmt.Errorf("%s: not a match report: %v", name, err)
	}
	if err := CheckRecords(r.Records); err != nil {
		return nil, false, fmt.Errorf("%s: %w", name, err)
	}
	var n [3]int // A's losses, draws, wins (CheckRecords: a score is 0, ½ or 1)
	for _, g := range r.Records {
		n[int(2*g.ScoreA)]++
	}
	if r.Games != len(r.Records) || r.WinsA != n[2] || r.Draws != n[1] || r.WinsB != n[0] {
		return nil, false, fmt.Errorf("%s: games %d, +%d =%d -%d, but its %d records hold +%d =%d -%d (edited or damaged; see docs/operations.md)",
			name, r.Games, r.WinsA, r.Draws, r.WinsB, len(r.Records), n[2], n[1], n[0])
	}
	return r, !sealed, nil
}
