package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestXboardCommand drives "taifu xboard" the way Sjaak II's opponents are
// driven: handshake, a move, ping, quit.
func TestXboardCommand(t *testing.T) {
	old := xboardInput
	defer func() { xboardInput = old }()
	xboardInput = strings.NewReader("xboard\nprotover 2\nnew\nvariant torishogi\nst 0.05\nusermove c3c4\nping 1\nquit\n")
	var out, errb bytes.Buffer
	if code := run([]string{"xboard", "--playouts", "20"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	// 3 feature lines, 10 setup and piece lines (as Sjaak II sends), move, pong.
	if len(lines) != 15 || !strings.HasPrefix(lines[3], "setup (") || !strings.HasPrefix(lines[13], "move ") || lines[14] != "pong 1" {
		t.Errorf("replies %q", lines)
	}
	for _, bad := range [][]string{{"xboard", "--game", "xiangqi"}, {"xboard", "--weights", "/nonexistent.json"}, {"xboard", "--playouts", "-1"}, {"xboard", "--tactics", "junk"}, {"xboard", "--priors", "junk"}} {
		errb.Reset()
		if code := run(bad, &out, &errb); code == 0 || strings.Count(errb.String(), "\n") != 1 {
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
