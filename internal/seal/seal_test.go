package seal

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

type doc struct {
	Name    string         `json:"name"`
	N       int            `json:"n"`
	Score   float64        `json:"score"`
	Extra   map[string]any `json:"extra,omitempty"`
	Records []int          `json:"records"`
}

// TestSeal: a sealed file checks; any edit of its content, its checksum or
// the checksum's place is a mismatch; a file without the key is unsealed.
func TestSeal(t *testing.T) {
	data, err := Marshal(doc{Name: "a <b>", N: 3, Score: 0.5, Extra: map[string]any{"k": 1.5}, Records: []int{1, 2}})
	if err != nil {
		t.Fatal(err)
	}
	// The checksum is the sha256 of the indented JSON without it.
	body, _ := json.MarshalIndent(doc{Name: "a <b>", N: 3, Score: 0.5, Extra: map[string]any{"k": 1.5}, Records: []int{1, 2}}, "", "  ")
	sum := sha256.Sum256(body)
	var top map[string]any
	if err := json.Unmarshal(data, &top); err != nil || top[Key] != hex.EncodeToString(sum[:]) {
		t.Fatalf("sealed file %s: checksum %v, want %x (%v)", data, top[Key], sum, err)
	}
	for _, c := range []struct {
		name   string
		edit   func(string) string
		sealed bool
		err    error
	}{
		{"as written", func(s string) string { return s }, true, nil},
		{"no final newline", func(s string) string { return strings.TrimSuffix(s, "\n") }, true, nil},
		{"a value edited", func(s string) string { return strings.Replace(s, `"n": 3`, `"n": 4`, 1) }, true, ErrMismatch},
		{"a record edited", func(s string) string { return strings.Replace(s, "    2\n", "    3\n", 1) }, true, ErrMismatch},
		{"spacing changed", func(s string) string { return strings.Replace(s, `"n": 3`, `"n":3`, 1) }, true, ErrMismatch},
		{"checksum edited", func(s string) string { return strings.Replace(s, `"checksum": "`, `"checksum": "0`, 1) }, true, ErrMismatch},
		{"checksum not last", func(s string) string {
			i := strings.Index(s, ",\n  \"checksum\"")
			j := strings.LastIndex(s, "\n}")
			return "{\n  \"checksum\"" + s[i+len(",\n  \"checksum\""):j] + ",\n" + s[2:i] + "\n}\n"
		}, true, ErrMismatch},
		{"checksum removed", func(s string) string {
			i := strings.Index(s, ",\n  \"checksum\"")
			return s[:i] + "\n}\n"
		}, false, nil},
		{"not JSON", func(s string) string { return "{" }, false, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := c.edit(string(data))
			sealed, err := Check([]byte(in))
			if sealed != c.sealed || !errors.Is(err, c.err) {
				t.Errorf("Check = %v, %v; want %v, %v\n%s", sealed, err, c.sealed, c.err, in)
			}
		})
	}
	if _, err := Marshal([]int{1}); err == nil {
		t.Error("Marshal of an array: no error")
	}
	if !bytes.HasSuffix(data, []byte("\"\n}\n")) {
		t.Errorf("sealed file does not end with the checksum: %q", data)
	}
}

// FuzzCheck: any bytes are checked without a panic (an error only for a
// file holding a checksum), and any JSON object sealed by Marshal checks.
func FuzzCheck(f *testing.F) {
	good, _ := Marshal(doc{Name: "x", N: 1})
	f.Add(good)
	f.Add([]byte(`{"checksum": 1}`))
	f.Add([]byte(`{"a": {"checksum": "x"}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if sealed, err := Check(data); err != nil && !sealed {
			t.Fatalf("an error for an unsealed file: %v", err)
		}
		var v map[string]any
		if json.Unmarshal(data, &v) != nil || len(v) == 0 {
			return
		}
		delete(v, Key)
		if len(v) == 0 {
			return
		}
		out, err := Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if sealed, err := Check(out); !sealed || err != nil {
			t.Fatalf("Marshal's output: %v, %v\n%s", sealed, err, out)
		}
	})
}
