package datasets

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzLoadManifest feeds arbitrary bytes to the manifest reader and, when
// they load, to Verify and VerifyQuick against an empty directory: errors
// are one line, never a panic. Seeds: testdata/fuzz/FuzzLoadManifest holds
// a real self-play manifest.
func FuzzLoadManifest(f *testing.F) {
	f.Add([]byte(`{"format":1,"run_id":"r","game":"nanashogi","shards":1,"files":[]}`))
	f.Add([]byte(`{"format":1,"files":[{"path":"../x.parquet","rows":-1}]}`))
	f.Add([]byte(`{"format":2}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		p := filepath.Join(dir, "manifest.json")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		m, err := LoadManifest(p)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("multi-line error %q", err)
			}
			return
		}
		for _, err := range []error{m.Verify(dir), m.VerifyQuick(dir)} {
			if err != nil && strings.Contains(err.Error(), "\n") {
				t.Errorf("multi-line error %q", err)
			}
		}
	})
}
