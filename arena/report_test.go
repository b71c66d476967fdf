package arena

import (
	"strings"
	"testing"
)

// TestReportSealed (issue 60): a report file is sealed; a checkmate turned
// into a draw is refused naming the file, with or without the counts made
// to agree; a report of an older taifu (no seal) is read, unsealed, when
// its counts agree with its records.
func TestReportSealed(t *testing.T) {
	r := &Report{A: "x", B: "y"}
	r.AddPair([2]GameRecord{{Pair: 0, AFirst: true, ScoreA: 1, Plies: 31, Reason: "checkmate"}, {Pair: 0, ScoreA: 0.5, Plies: 80, Reason: "repetition"}}, nil)
	data, err := MarshalReport(r)
	if err != nil {
		t.Fatal(err)
	}
	unseal := func(s string) string { return s[:strings.Index(s, ",\n  \"checksum\"")] + "\n}\n" }
	draw := func(s string) string {
		s = strings.Replace(s, `"score_a": 1,`, `"score_a": 0.5,`, 1)
		return strings.Replace(s, `"reason": "checkmate"`, `"reason": "repetition"`, 1)
	}
	counts := func(s string) string {
		s = strings.Replace(s, `"wins_a": 1,`, `"wins_a": 0,`, 1)
		return strings.Replace(s, `"draws": 1,`, `"draws": 2,`, 1)
	}
	for _, c := range []struct {
		name     string
		edit     func(string) string
		want     string
		unsealed bool
	}{
		{"as written", func(s string) string { return s }, "", false},
		{"checkmate turned into a draw", draw, "r.json: checksum mismatch", false},
		{"checkmate turned into a draw, counts too", func(s string) string { return counts(draw(s)) }, "r.json: checksum mismatch", false},
		{"unsealed", unseal, "", true},
		{"unsealed, checkmate turned into a draw", func(s string) string { return draw(unseal(s)) }, "r.json: games 2, +1 =1 -0, but its 2 records hold +0 =2 -0", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, unsealed, err := ParseReport("r.json", []byte(c.edit(string(data))))
			if c.want != "" {
				if err == nil || !strings.Contains(err.Error(), c.want) {
					t.Errorf("ParseReport: %v, want %q", err, c.want)
				}
				return
			}
			if err != nil || unsealed != c.unsealed || got.WinsA != 1 || len(got.Records) != 2 {
				t.Errorf("ParseReport = %+v, %v, %v", got, unsealed, err)
			}
		})
	}
}
