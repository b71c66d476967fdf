// Package seal is taifu's one way of sealing the JSON files it writes and
// reads back (run manifests, train.json, match reports, engine match
// results), so that a file edited by hand or damaged is refused instead of
// trusted.
//
// A sealed file is v as indented JSON (two spaces, as json.MarshalIndent)
// whose last key, "checksum", holds the hex sha256 of the same JSON
// without that key (and without the final newline):
//
//	{
//	  "format": 5,
//	  ...
//	  "checksum": "<sha256 of the text above, closed by \n}>"
//	}
//
// The check works on the file's bytes, not on a value decoded and encoded
// again, so it does not depend on the Go types that read the file: a field
// added to them later does not break the seal of the files written before.
package seal

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
)

// Key is the JSON key of the checksum.
const Key = "checksum"

// ErrMismatch is the error of a sealed file whose checksum does not match
// its content.
var ErrMismatch = errors.New("checksum mismatch (edited or damaged; see docs/operations.md)")

// ErrMissing is the error of a file that must be sealed and is not.
var ErrMissing = errors.New(`no "checksum" key (edited or damaged; see docs/operations.md)`)

// keyText opens the checksum member as Marshal writes it.
var keyText = []byte(",\n  \"" + Key + "\": \"")

// Marshal returns v (which must encode as a JSON object without a
// "checksum" key) as sealed, indented JSON ending with a newline.
func Marshal(v any) ([]byte, error) {
	body, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return nil, err
	}
	if !bytes.HasPrefix(body, []byte("{\n")) || !bytes.HasSuffix(body, []byte("\n}")) {
		return nil, fmt.Errorf("seal: %T does not encode as a non-empty JSON object", v)
	}
	sum := sha256.Sum256(body)
	out := make([]byte, 0, len(body)+len(keyText)+sha256.Size*2+4)
	out = append(out, body[:len(body)-2]...)
	out = append(out, keyText...)
	out = append(out, hex.EncodeToString(sum[:])...)
	out = append(out, "\"\n}\n"...)
	return out, nil
}

// Check checks data, a file's content: sealed reports whether it holds a
// "checksum" key at its top level; err is ErrMismatch when it does and the
// checksum is not the one Marshal would have written for the rest (the
// key not last, not a sha256, the content changed). A file that is not a
// JSON object is not sealed (the caller's decoder reports what is wrong).
func Check(data []byte) (sealed bool, err error) {
	var top map[string]json.RawMessage
	if json.Unmarshal(data, &top) != nil {
		return false, nil
	}
	if _, ok := top[Key]; !ok {
		return false, nil
	}
	text := bytes.TrimSuffix(data, []byte("\n"))
	i := bytes.LastIndex(text, keyText)
	if i < 0 {
		return true, ErrMismatch
	}
	got := text[i+len(keyText):]
	if len(got) != 2*sha256.Size+3 || string(got[2*sha256.Size:]) != "\"\n}" {
		return true, ErrMismatch
	}
	body := append(text[:i:i], "\n}"...)
	sum := sha256.Sum256(body)
	if hex.EncodeToString(sum[:]) != string(got[:2*sha256.Size]) {
		return true, ErrMismatch
	}
	return true, nil
}

// Unsealed is the warning to give when the file name, which taifu now
// seals, is read without a seal (written by an older taifu).
func Unsealed(name string) string {
	return fmt.Sprintf("%s has no checksum (written by a taifu from before it was sealed): read without that check", name)
}
