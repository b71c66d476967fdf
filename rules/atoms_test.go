package rules

import (
	"reflect"
	"testing"
)

func TestAtomImages(t *testing.T) {
	cases := []struct {
		name string
		a    Atom
		want [][2]int
	}{
		{"W", Wazir, [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}},
		{"F", Ferz, [][2]int{{1, 1}, {-1, 1}, {1, -1}, {-1, -1}}},
		{"N", Knight, [][2]int{{2, 1}, {-2, 1}, {2, -1}, {-2, -1}, {1, 2}, {-1, 2}, {1, -2}, {-1, -2}}},
		{"fN", Knight.Only(Forward), [][2]int{{2, 1}, {-2, 1}, {1, 2}, {-1, 2}}},
		{"sW", Wazir.Only(Sideways), [][2]int{{1, 0}, {-1, 0}}},
		{"fbW", Wazir.Only(Forward | Backward), [][2]int{{0, 1}, {0, -1}}},
		{"brF", Ferz.Only(DirSE), [][2]int{{1, -1}}},
		{"fD", Dabbaba.Only(DirN), [][2]int{{0, 2}}},
		{"nothing", Ferz.Only(Sideways), nil},
	}
	for _, c := range cases {
		if got := c.a.Images(); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: images %v, want %v", c.name, got, c.want)
		}
		for _, v := range c.want {
			if !c.a.Admits(v[0], v[1]) {
				t.Errorf("%s does not admit %v", c.name, v)
			}
		}
	}
	if Knight.Only(Forward).Admits(2, -1) || Wazir.Admits(1, 1) {
		t.Error("an atom admits a vector outside its images")
	}
}

func TestAtomModes(t *testing.T) {
	if m := Wazir.MoveOnly().Mode; m != MoveOnly {
		t.Errorf("MoveOnly mode %d", m)
	}
	if m := Wazir.CaptureOnly().Mode; m != CaptureOnly {
		t.Errorf("CaptureOnly mode %d", m)
	}
	if a := RookRide(4); a.Range != 4 || a.Min != 0 || a.Mode != MoveOrCapture || a.Dirs != AllDirs {
		t.Errorf("RookRide(4) = %+v", a)
	}
	if a := BishopRide(Unlimited).AtLeast(2); a.Min != 2 || a.Range != Unlimited {
		t.Errorf("BishopRide(Unlimited).AtLeast(2) = %+v", a)
	}
}
