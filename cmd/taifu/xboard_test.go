package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// waitWriter is an engine's output that closes seen once want is written.
type waitWriter struct {
	mu   sync.Mutex
	b    bytes.Buffer
	want string
	seen chan struct{}
	once sync.Once
}

func (w *waitWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.b.Write(p)
	if strings.Contains(w.b.String(), w.want) {
		w.once.Do(func() { close(w.seen) })
	}
	return len(p), nil
}

func (w *waitWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

// waitReader reads r once wait is closed.
type waitReader struct {
	wait <-chan struct{}
	r    io.Reader
}

func (w *waitReader) Read(p []byte) (int, error) {
	<-w.wait
	return w.r.Read(p)
}

// TestXboardCommand drives "taifu xboard" the way Sjaak II's opponents are
// driven: handshake, a move, ping (answered after the move), and "quit"
// once the pong is read (a "quit" during the search would end it unplayed).
func TestXboardCommand(t *testing.T) {
	old := xboardInput
	defer func() { xboardInput = old }()
	out := &waitWriter{want: "pong 1\n", seen: make(chan struct{})}
	xboardInput = io.MultiReader(strings.NewReader("xboard\nprotover 2\nnew\nvariant torishogi\nst 0.05\nusermove c3c4\nping 1\n"),
		&waitReader{wait: out.seen, r: strings.NewReader("quit\n")})
	var errb bytes.Buffer
	if code := run([]string{"xboard", "--playouts", "20"}, out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	// 3 feature lines, 10 setup and piece lines (as Sjaak II sends), move, pong.
	if len(lines) != 15 || !strings.HasPrefix(lines[3], "setup (") || !strings.HasPrefix(lines[13], "move ") || lines[14] != "pong 1" {
		t.Errorf("replies %q", lines)
	}
	var outb bytes.Buffer
	for _, bad := range [][]string{{"xboard", "--game", "xiangqi"}, {"xboard", "--weights", "/nonexistent.json"}, {"xboard", "--playouts", "-1"}, {"xboard", "--tactics", "junk"}, {"xboard", "--priors", "junk"}} {
		errb.Reset()
		if code := run(bad, &outb, &errb); code == 0 || strings.Count(errb.String(), "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q", bad, code, errb.String())
		}
	}
}

// TestXboardNonPromotion: XBoard's explicit non-promotion "c3c4=" is a
// move, not an "Illegal move" (issue 32's reproduction, verbatim).
func TestXboardNonPromotion(t *testing.T) {
	old := xboardInput
	defer func() { xboardInput = old }()
	xboardInput = strings.NewReader("xboard\nprotover 2\nnew\nvariant torishogi\nforce\nusermove c3c4=\nping 2\n")
	var out, errb bytes.Buffer
	if code := run([]string{"xboard", "--playouts", "20"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if strings.Contains(out.String(), "Illegal") || !strings.HasSuffix(out.String(), "pong 2\n") {
		t.Errorf("replies:\n%s", out.String())
	}
}

// TestWeightsSpecs: every command that takes weights resolves the same
// specs (weightsio): "start" once failed in xboard ("open start: no such
// file", issue 32 finding 4), and a manifest or a Parquet file as weights
// gives one line saying what the file is.
func TestWeightsSpecs(t *testing.T) {
	old := xboardInput
	defer func() { xboardInput = old }()
	dir := t.TempDir()
	manifest := filepath.Join(dir, "manifest.json")
	parquet := filepath.Join(dir, "part-000.parquet")
	os.WriteFile(manifest, []byte(`{"format": 1, "run_id": "r", "game": "torishogi", "files": []}`+"\n"), 0o644)
	os.WriteFile(parquet, []byte("PAR1\x15\x04junk"), 0o644)
	for _, spec := range []string{"start", "builtin", ""} {
		xboardInput = strings.NewReader("xboard\nprotover 2\nnew\nvariant torishogi\nusermove c3c4\nping 1\nquit\n")
		var out, errb bytes.Buffer
		if code := run([]string{"xboard", "--playouts", "10", "--weights", spec}, &out, &errb); code != 0 || !strings.Contains(out.String(), "pong 1") {
			t.Errorf("xboard --weights %q: exit %d, stderr %q, out %q", spec, code, errb.String(), out.String())
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"xboard", "--weights", manifest}, "is a self-play run manifest, not weights"},
		{[]string{"xboard", "--weights", parquet}, "is a Parquet file"},
		{[]string{"match", "--game", "torishogi", "--a", manifest}, "is a self-play run manifest, not weights"},
		{[]string{"export", "--weights", parquet}, "is a Parquet file"},
		{[]string{"claims", "--weights", manifest}, "is a self-play run manifest, not weights"},
		{[]string{"tune", "--game", "torishogi", "--weights", parquet, "--data", dir, "--out", filepath.Join(dir, "w.json")}, "is a Parquet file"},
		{[]string{"selfplay", "--game", "torishogi", "--weights", manifest, "--games", "2", "--out", filepath.Join(dir, "sp")}, "is a self-play run manifest, not weights"},
		{[]string{"train", "--game", "torishogi", "--weights", parquet, "--out", filepath.Join(dir, "tr")}, "is a Parquet file"},
		{[]string{"match", "--engine", "/bin/true", "--game", "torishogi", "--json", filepath.Join(dir, "r.json"), "--a", manifest}, "is a self-play run manifest, not weights"},
	} {
		xboardInput = strings.NewReader("quit\n")
		var out, errb bytes.Buffer
		code := run(c.args, &out, &errb)
		if msg := errb.String(); code == 0 || strings.Count(msg, "\n") != 1 || !strings.Contains(msg, c.want) || !strings.Contains(msg, "want a weights file") {
			t.Errorf("%v: exit %d, stderr %q; want one line saying %q", c.args, code, msg, c.want)
		}
	}
}

// TestEngineMatchStart: match --engine with --a start plays (its taifu
// child once failed on "start" and the match said only "engine closed its
// output"), and an engine that dies shows the end of its standard error.
func TestEngineMatchStart(t *testing.T) {
	bin := taifuBinary(t)
	dir := t.TempDir()
	cmd := exec.Command(bin, "match", "--game", "torishogi", "--engine", bin+" xboard --playouts 5", "--a", "start",
		"--playouts", "5", "--games", "2", "--move-ms", "500", "--max-plies", "16", "--json", filepath.Join(dir, "r.json"))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("match --engine --a start: %v\n%s", err, out)
	}
	// Its results file records the setup: a resume with another taifu
	// search, engine or opening is refused in one line naming it.
	for _, c := range []struct{ change, want string }{
		{"--playouts 6", "taifu's playouts is 6 here but 5 in the match being resumed"},
		{"--engine " + bin + " xboard --playouts 6", "engine is " + bin + " xboard --playouts 6 here but " + bin + " xboard --playouts 5 in the match being resumed"},
		{"--opening-plies 3", "opening_plies is 3 here but"},
	} {
		args := []string{"match", "--game", "torishogi", "--engine", bin + " xboard --playouts 5", "--a", "start",
			"--playouts", "5", "--games", "2", "--move-ms", "500", "--max-plies", "16", "--json", filepath.Join(dir, "r.json"), "--resume"}
		flag, value, _ := strings.Cut(c.change, " ")
		args = append(args, flag, value)
		out, err := exec.Command(bin, args...).CombinedOutput()
		if got := strings.TrimSpace(string(out)); err == nil || !strings.Contains(got, c.want) || strings.Count(got, "\n") > 0 {
			t.Errorf("resume with %s: %v\n%s\nwant one line with %q", c.change, err, out, c.want)
		}
	}
	dead := filepath.Join(dir, "dead.sh")
	os.WriteFile(dead, []byte("#!/bin/sh\necho 'dead engine: cannot start' >&2\nexit 1\n"), 0o755)
	cmd = exec.Command(bin, "match", "--game", "torishogi", "--engine", dead, "--games", "2", "--move-ms", "500", "--json", filepath.Join(dir, "d.json"))
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "dead engine: cannot start") {
		t.Errorf("a dying engine: %v\n%s\nwant its standard error shown", err, out)
	}
}

// TestVoidEngineMatch: against an engine whose every move is illegal no
// game is scored; the match says so without a score or an Elo and exits
// non-zero (it printed "0 games ... Elo +0.0" and exited 0).
func TestVoidEngineMatch(t *testing.T) {
	bin := taifuBinary(t)
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.sh")
	os.WriteFile(bad, []byte(`#!/bin/sh
while read -r l; do
	case "$l" in
	protover*) echo 'feature myname="bad" usermove=1 setboard=1 ping=1 done=1' ;;
	ping*) echo "pong ${l#ping }" ;;
	go) echo "move z9z9" ;;
	quit) exit 0 ;;
	esac
done
`), 0o755)
	cmd := exec.Command(bin, "match", "--game", "torishogi", "--engine", bad, "--a", "start", "--playouts", "5",
		"--games", "2", "--tc", "0.2", "--results", filepath.Join(dir, "r.json"))
	out, err := cmd.CombinedOutput()
	if err == nil || regexp.MustCompile(`Elo [+-]|score [0-9]`).Match(out) || !strings.Contains(string(out), "void match: none of its 2 games was scored") {
		t.Errorf("void match: %v\n%s", err, out)
	}
}
