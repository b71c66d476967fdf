package values

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"image/color"
	"io"
	"math"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// testTwoWay is a chess two-way table with a row of each sort: played
// kinds, a kind not played, a trade, a kind whose worth is undefined and a
// Texel value without an interval.
func testTwoWay() *TwoWay {
	return &TwoWay{Game: "chess", Unit: "P", Player: "taifu's search, weights w1", TexelWeights: "w1",
		Imbalance: "imb.json (early stop: none), 95% interval by the delta method", Texel: "texel.json (model); 95% bootstrap intervals",
		Rows: []TwoWayRow{
			{Kind: "N", Name: "Knight", Games: 200, Worth: 3, Low: 2, High: 4, WorthOK: true, Texel: 3.2, TexelLow: 3, TexelHigh: 3.5, TexelOK: true, TexelInterval: true, Overlap: "yes"},
			{Kind: "B", Name: "Bishop", Games: 200, Worth: 2.5, Low: 1, High: 4, WorthOK: true, Texel: 3.4, TexelLow: 3.3, TexelHigh: 3.6, TexelOK: true, TexelInterval: true, Overlap: "yes"},
			{Kind: "R", Name: "Rook", Games: 200, Worth: 6, Low: -1, High: 13, WorthOK: true, Texel: 5, TexelLow: 4.5, TexelHigh: 5.5, TexelOK: true, TexelInterval: true, Overlap: "yes", Note: "interval holds 0"},
			{Kind: "Q", Name: "Queen", Texel: 9, TexelLow: 8, TexelHigh: 10, TexelOK: true, TexelInterval: true, Overlap: "–", Note: "not played"},
			{Kind: "Q=R+R", Games: 100, Worth: 0.5, Low: -1, High: 2, WorthOK: true, Overlap: "–"},
		}}
}

// TestTwoWayCSV: a two-way table read back from its CSV is the table
// written, comment lines included; the CSV's data rows are the columns of
// taifu imbalance --report --format csv.
func TestTwoWayCSV(t *testing.T) {
	for _, tab := range []*TwoWay{testTwoWay(), func() *TwoWay {
		x := testTwoWay()
		x.Player, x.Texel = "engine sf (uci, 3000 nodes)", ""
		x.Rows[1] = TwoWayRow{Kind: "B", Name: "Bishop", Games: 200, Texel: 3.4, TexelOK: true, Overlap: "–", Note: "worth undefined, the export table has no interval"}
		return x
	}()} {
		var b bytes.Buffer
		if err := tab.WriteCSV(&b); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), "\nkind,name,games,imbalance,imbalance_low,imbalance_high,texel,texel_low,texel_high,overlap,note\nN,Knight,200,3.000,2.000,4.000,3.200,3.000,3.500,yes,\n") {
			t.Errorf("CSV:\n%s", b.String())
		}
		got, err := ParseTwoWay("t.csv", b.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, tab) {
			t.Errorf("read back\n%+v\nwant\n%+v", got, tab)
		}
	}
}

// TestParseTwoWayErrors: a malformed table is refused with one line naming
// the file and the line at fault.
func TestParseTwoWayErrors(t *testing.T) {
	head := "# game: chess\n# unit: P\nkind,name,games,imbalance,imbalance_low,imbalance_high,texel,texel_low,texel_high,overlap,note\n"
	good := "N,Knight,200,3.000,2.000,4.000,3.200,3.000,3.500,yes,\n"
	for _, c := range []struct{ data, want string }{
		{"kind,name\n", "t.csv:1: no \"# game: G\""},
		{"# game: chess\nkind,name\n", "t.csv:2: no \"# game: G\""},
		{"# game: nosuch\n# unit: P\n" + good, "t.csv:1: "},
		{"# game: chess\n# unit: SW\n" + good, "t.csv:1: unit \"SW\" is no kind of chess"},
		{"# game: chess\n# game: chess\n", "t.csv:2: a second \"game\" line"},
		{"# game: chess\n# unit: P\n", "t.csv:3: no header row"},
		{"# game: chess\n# unit: P\nkind,name,games,worth,imbalance_low,imbalance_high,texel,texel_low,texel_high,overlap,note\n", "t.csv:3: header"},
		{head + good + "B,Bishop,200\n", "t.csv:5: wrong number of fields"},
		{head + good + "B,Bishop,x,,,,,,,–,\n", "t.csv:5: B: games \"x\""},
		{head + "ZZ,Z,200,,,,,,,–,\n", "t.csv:4: kind \"ZZ\": \"ZZ\" is no kind of chess"},
		{head + "Q=R+ZZ,,200,,,,,,,–,\n", "t.csv:4: kind \"Q=R+ZZ\""},
		{head + "N,Knight,200,3,2,,,,,–,\n", "t.csv:4: N: imbalance needs its value and both interval ends"},
		{head + "N,Knight,200,3,4,2,,,,–,\n", "t.csv:4: N: imbalance interval [4, 2] is reversed"},
		{head + "N,Knight,200,NaN,2,4,,,,–,\n", "t.csv:4: N: imbalance \"NaN\" is not a number"},
		{head + "N,Knight,0,3,2,4,,,,–,\n", "t.csv:4: N: an imbalance worth of 0 games"},
		{head + "N,Knight,200,3,2,4,,1,2,–,\n", "t.csv:4: N: texel needs its value"},
		{head + "Q=R+R,,200,1,0,2,3,,,–,\n", "t.csv:4: Q=R+R: a trade has no Texel value"},
		{head + "N,Knight,200,3,2,4,3,,,yes,\n", "t.csv:4: N: overlap \"yes\" without both intervals"},
		{head + "N,Knight,200,3,2,4,3,2,4,maybe,\n", "t.csv:4: N: overlap \"maybe\""},
		{head + good + good, "t.csv:5: a second row N"},
		{head + "\"N,Knight\n", "t.csv:4: extraneous or missing \" in quoted-field"},
	} {
		_, err := ParseTwoWay("t.csv", []byte(c.data))
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") || !strings.HasPrefix(err.Error(), "two-way table t.csv:") {
			t.Errorf("%q: %v, want one line with %q", c.data, err, c.want)
		}
	}
}

// FuzzParseTwoWay: no input panics the parser, and a table it accepts
// writes a CSV it reads back to the same CSV.
func FuzzParseTwoWay(f *testing.F) {
	var b bytes.Buffer
	testTwoWay().WriteCSV(&b)
	f.Add(b.Bytes())
	f.Add([]byte("# game: torishogi\n# unit: SW\nkind,name,games,imbalance,imbalance_low,imbalance_high,texel,texel_low,texel_high,overlap,note\nFA,Falcon,200,1e3,-0,1e3,,,,–,\"a, b\"\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		tab, err := ParseTwoWay("f.csv", data)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error of two lines: %q", err)
			}
			return
		}
		var once, twice bytes.Buffer
		if err := tab.WriteCSV(&once); err != nil {
			t.Fatal(err)
		}
		again, err := ParseTwoWay("f.csv", once.Bytes())
		if err != nil {
			t.Fatalf("its own CSV refused: %v\n%s", err, once.String())
		}
		again.WriteCSV(&twice)
		if once.String() != twice.String() {
			t.Fatalf("written twice differs:\n%s\n%s", once.String(), twice.String())
		}
	})
}

// svgPath is a path of an SVG chart: its points and its stroke or fill
// colour.
type svgPath struct {
	pts          [][2]float64
	stroke, fill string
}

var (
	svgCommand = regexp.MustCompile(`([MLAZ])([^MLAZ]*)`)
	svgColour  = regexp.MustCompile(`(stroke|fill):(#[0-9A-F]{6})`)
)

// readSVG parses an SVG chart as XML and returns its paths (the points
// after M and L, and the end of each arc) and its texts.
func readSVG(t *testing.T, data []byte) (paths []svgPath, words []string) {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(data))
	inText := false
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("the SVG is not XML: %v", err)
		}
		switch e := tok.(type) {
		case xml.StartElement:
			attr := map[string]string{}
			for _, a := range e.Attr {
				attr[a.Name.Local] = a.Value
			}
			switch e.Name.Local {
			case "path":
				var p svgPath
				for _, m := range svgColour.FindAllStringSubmatch(attr["style"], -1) {
					if m[1] == "stroke" {
						p.stroke = m[2]
					} else {
						p.fill = m[2]
					}
				}
				for _, c := range svgCommand.FindAllStringSubmatch(attr["d"], -1) {
					if c[1] == "Z" {
						continue
					}
					f := strings.Fields(c[2])
					xy := strings.Split(f[len(f)-1], ",")
					x, _ := strconv.ParseFloat(xy[0], 64)
					y, _ := strconv.ParseFloat(xy[1], 64)
					p.pts = append(p.pts, [2]float64{x, y})
				}
				paths = append(paths, p)
			case "text":
				inText = true
			}
		case xml.CharData:
			if inText {
				words = append(words, string(e))
				inText = false
			}
		}
	}
	return paths, words
}

// TestTwoWayChart: the chart is XML; it has one imbalance bar (red) and
// one Texel bar (blue) per played kind and the Texel bar alone for a kind
// not played, each bar's ends and marker where the axis puts the row's
// interval and value (the axis read from the zero line, the grid and the
// tick labels), the imbalance bar just above the Texel bar of its row,
// rows in decreasing Texel value; the title names the game and the
// weights, the legend both bars. Swapped or unscaled bars fail it.
func TestTwoWayChart(t *testing.T) {
	tab := testTwoWay()
	var b bytes.Buffer
	if err := tab.WriteChart(&b, "svg"); err != nil {
		t.Fatal(err)
	}
	paths, words := readSVG(t, b.Bytes())
	all := strings.Join(words, " ") // the wrapped lines joined again
	for _, w := range []string{"chess piece values in P, two ways", "imbalance games: taifu's search, weights w1", "Texel: weights w1",
		twoWayImbalanceLabel, twoWayTexelLabel, "value in P", "Queen (Q), not played", "Knight (N)", "trades (A=B+C) not drawn"} {
		if !strings.Contains(all, w) {
			t.Errorf("the chart lacks %q", w)
		}
	}
	if strings.Contains(all, "Q=R+R") {
		t.Errorf("the chart draws the trade")
	}
	// The axis: the zero line, and the vertical grid lines at the
	// labelled ticks, in the order of their labels' values.
	var x0, top, bottom float64
	var grid []float64
	hex := func(c color.Color) string {
		r, g, bl, _ := c.RGBA()
		return fmt.Sprintf("#%02X%02X%02X", r>>8, g>>8, bl>>8)
	}
	red, blue, zero := hex(chartRed), hex(chartBlue), hex(chartZero)
	for _, p := range paths {
		if len(p.pts) == 2 && p.pts[0][0] == p.pts[1][0] {
			switch p.stroke {
			case zero:
				x0, bottom, top = p.pts[0][0], min(p.pts[0][1], p.pts[1][1]), max(p.pts[0][1], p.pts[1][1])
			case "#808080":
				grid = append(grid, p.pts[0][0])
			}
		}
	}
	var ticks []float64
	for _, w := range words {
		if v, err := strconv.ParseFloat(w, 64); err == nil {
			ticks = append(ticks, v)
		}
	}
	sort.Float64s(grid)
	sort.Float64s(ticks)
	if top == 0 || len(grid) < 3 || len(grid) != len(ticks) {
		t.Fatalf("zero line at %v (top %v), %d vertical grid lines for %d tick labels %v", x0, top, len(grid), len(ticks), ticks)
	}
	scale := (grid[len(grid)-1] - grid[0]) / (ticks[len(ticks)-1] - ticks[0])
	at := func(v float64) float64 { return x0 + scale*v }
	for i := range grid {
		if math.Abs(grid[i]-at(ticks[i])) > 0.02 {
			t.Fatalf("grid line %v at x %v, want %v: the axis is not linear or 0 is off", ticks[i], grid[i], at(ticks[i]))
		}
	}
	// bars: per colour, the horizontal segments (the caps are vertical);
	// marks: per colour, the filled markers' centres inside the plot.
	bars, marks := map[string][][3]float64{}, map[string][][2]float64{}
	for _, p := range paths {
		if p.stroke != "" && len(p.pts) == 2 && p.pts[0][1] == p.pts[1][1] && p.pts[0][0] != p.pts[1][0] {
			bars[p.stroke] = append(bars[p.stroke], [3]float64{p.pts[0][0], p.pts[1][0], p.pts[0][1]})
		}
		if p.fill != "" && p.stroke == "" && len(p.pts) >= 3 {
			lo, hi := p.pts[0], p.pts[0]
			for _, q := range p.pts {
				lo, hi = [2]float64{min(lo[0], q[0]), min(lo[1], q[1])}, [2]float64{max(hi[0], q[0]), max(hi[1], q[1])}
			}
			if c := [2]float64{(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2}; c[1] > bottom && c[1] < top {
				marks[p.fill] = append(marks[p.fill], c)
			}
		}
	}
	// find returns the y of the bar of colour col from lo to hi with its
	// marker at v, or fails.
	find := func(kind, col string, v, lo, hi float64) float64 {
		for _, bar := range bars[col] {
			if math.Abs(bar[0]-at(lo)) < 0.02 && math.Abs(bar[1]-at(hi)) < 0.02 {
				for _, m := range marks[col] {
					if math.Abs(m[0]-at(v)) < 0.02 && math.Abs(m[1]-bar[2]) < 0.02 {
						return bar[2]
					}
				}
				t.Errorf("%s: no %s marker at %v (x %.2f) on its bar", kind, col, v, at(v))
				return bar[2]
			}
		}
		t.Errorf("%s: no %s bar from %v to %v (x %.2f to %.2f); bars %v", kind, col, lo, hi, at(lo), at(hi), bars[col])
		return math.NaN()
	}
	if len(bars[red]) != 3 || len(bars[blue]) != 4 {
		t.Errorf("%d imbalance bars and %d Texel bars, want 3 (N, B, R) and 4 (and Q)", len(bars[red]), len(bars[blue]))
	}
	prev, gap := math.Inf(1), math.NaN()
	for _, kind := range []string{"Q", "R", "B", "N"} { // by Texel value, highest first
		for _, r := range tab.Rows {
			if r.Kind != kind {
				continue
			}
			y := find(kind, blue, r.Texel, r.TexelLow, r.TexelHigh)
			if !(y < prev) {
				t.Errorf("%s's row at y %v is not below the previous row's (%v)", kind, y, prev)
			}
			prev = y
			if !r.WorthOK {
				continue
			}
			d := find(kind, red, r.Worth, r.Low, r.High) - y
			if !(d > 0) || (!math.IsNaN(gap) && math.Abs(d-gap) > 0.02) {
				t.Errorf("%s: the imbalance bar is %v above the Texel bar (other rows %v)", kind, d, gap)
			}
			gap = d
		}
	}
}
