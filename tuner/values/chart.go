package values

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// UnidentifiedWidth is the interval width beyond which a piece's value is
// unidentified: the largest on-board point value of the table (at least 1
// unit). An interval wider than every value the table ranks says the data
// do not place the piece (Samarkand's rare pieces: intervals of hundreds).
func (t *PieceTable) UnidentifiedWidth() float64 {
	w := 1.0
	for _, p := range t.Pieces {
		if p.Value > w {
			w = p.Value
		}
	}
	return w
}

// Unidentified reports whether p's interval is wider than width.
func (p PieceValue) Unidentified(width float64) bool {
	return p.Low != nil && *p.High-*p.Low > width
}

// chartLimit is the right end of the chart's value axis: a little beyond
// the largest point value, so that no interval reaching past it
// squashes every point to the left. Bars beyond it are clipped with an
// arrow.
func (t *PieceTable) chartLimit() float64 {
	return 1.25 * t.UnidentifiedWidth()
}

// chartPoints is one series of the chart: value, rank row and interval.
type chartPoints []struct{ x, y, lo, hi float64 }

func (c chartPoints) Len() int                        { return len(c) }
func (c chartPoints) XY(i int) (float64, float64)     { return c[i].x, c[i].y }
func (c chartPoints) XError(i int) (float64, float64) { return c[i].x - c[i].lo, c[i].hi - c[i].x }

// WriteChart draws the pieces ranked by on-board value, one row each with
// the value as a dot and the bootstrap interval as a bar; in-hand values of
// drop games are a second series just below. format is "svg" or "png".
// The axis ends at chartLimit: longer bars (and values beyond it) are
// clipped there and marked "->"; unidentified values are marked in the row
// labels; royal pieces have no row (they have no value); the caption under
// the axis names them and says what the bars are.
func (t *PieceTable) WriteChart(w io.Writer, format string) error {
	if format != "svg" && format != "png" {
		return fmt.Errorf("chart format %q (svg or png)", format)
	}
	var board []PieceValue
	hand := map[string]PieceValue{}
	for _, p := range t.Ranked() {
		if p.InHand {
			hand[p.Kind] = p
		} else {
			board = append(board, p)
		}
	}
	if len(board) == 0 {
		return fmt.Errorf("no piece values to chart")
	}
	n := len(board)
	names := make([]string, n)
	var on, in chartPoints
	limit, wide := t.chartLimit(), t.UnidentifiedWidth()
	xmin := 0.0
	var clipped plotter.XYLabels
	var below []bool // in-hand labels go under their bar, on-board ones above
	add := func(s *chartPoints, p PieceValue, y float64) {
		x, lo, hi := p.Value, p.Value, p.Value
		if p.Low != nil {
			lo, hi = *p.Low, *p.High
		}
		if hi > limit || x > limit {
			clipped.XYs = append(clipped.XYs, plotter.XY{X: limit, Y: y})
			clipped.Labels = append(clipped.Labels, fmt.Sprintf("-> %s", fmtVal(max(hi, x))))
			below = append(below, p.InHand)
		}
		x, hi = min(x, limit), min(hi, limit)
		lo = min(lo, x)
		xmin = min(xmin, lo)
		*s = append(*s, struct{ x, y, lo, hi float64 }{x, y, lo, hi})
	}
	for i, p := range board {
		y := float64(n - 1 - i) // highest value at the top
		label := fmt.Sprintf("%s (%s)", p.Name, p.Kind)
		if p.Unidentified(wide) {
			label += " ?"
		}
		names[n-1-i] = label
		add(&on, p, y)
		if h, ok := hand[p.Kind]; ok {
			add(&in, h, y-0.3)
		}
	}
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s piece values (%s = 1.00)", t.Game, t.Unit)
	if t.Version != "" {
		p.Title.Text += ", " + t.Version
	}
	p.X.Label.Text = t.chartCaption(wide, limit)
	p.Add(plotter.NewGrid())
	legend, err := addSeries(p, on, in)
	if err != nil {
		return err
	}
	if err := addClipLabels(p, clipped, below); err != nil {
		return err
	}
	p.NominalY(names...)
	p.X.Tick.Marker = chartTicks{}
	// Every bar inside the plot: the axis spans the (clipped) intervals
	// with a margin, whatever the grid and labels would make it.
	p.X.Min = xmin - 0.02*(limit-xmin)
	p.X.Max = limit + 0.02*(limit-xmin)
	p.Y.Min, p.Y.Max = -0.8, float64(n)-0.2
	row := 16.0
	if len(in) > 0 {
		row = 28 // room for two bars and their clip labels
	}
	// The legend goes in a band above the plot, outside the data; the
	// whole is drawn inside a margin so that the title and the longest
	// row label keep clear of the edges.
	band := 0.0
	if len(in) > 0 {
		band = 18
	}
	height := 90 + 2*chartMargin + band + row*float64(n) + 12*float64(strings.Count(p.X.Label.Text, "\n"))
	return drawChart(w, format, p, legend, height, band)
}

// chartMargin is the blank border of a chart, in points.
const chartMargin = 10

// drawChart draws p on a canvas 7 inches wide and height points high
// inside a margin, with legend in a band of band points above the plot
// (none when band is 0), and writes it to w in format (svg or png).
func drawChart(w io.Writer, format string, p *plot.Plot, legend *plot.Legend, height, band float64) error {
	c, err := draw.NewFormattedCanvas(7*vg.Inch, vg.Points(height), format)
	if err != nil {
		return err
	}
	dc := draw.New(c)
	m := vg.Points(chartMargin)
	p.Title.Padding = vg.Points(6)
	p.Draw(draw.Crop(dc, m, -m, m, -m-vg.Points(band)))
	if band > 0 {
		top := draw.Crop(dc, m, -m, dc.Max.Y-dc.Min.Y-m-vg.Points(band), -m)
		legend.Top, legend.Left = true, false
		legend.Draw(top)
	}
	_, err = c.WriteTo(w)
	return err
}

// chartCaption is the text under the chart's value axis: the unit, what
// the values are, the royal pieces and what the bars are (wide: the
// unidentified width; limit: where the axis ends).
func (t *PieceTable) chartCaption(wide, limit float64) string {
	text := "value in " + t.Unit
	if t.Definition != "" {
		text += "\n" + wrapText(t.Definition, 84) // 84 bytes fit the 7-inch width
	}
	if r := t.royalText(); r != "" {
		text += "\n" + wrapText(strings.ReplaceAll(r, "`", ""), 84)
	}
	if t.Bars != "" {
		text += fmt.Sprintf("\nbars: %s\n? = unidentified (interval wider than %s); -> = clipped at %s", t.Bars, fmtVal(wide), fmtVal(limit))
	} else {
		text += "\nno intervals (tune with --bootstrap N for them)"
	}
	return text
}

// chartSeries is one series of a chart: its points, its legend label,
// colour and marker.
type chartSeries struct {
	pts   chartPoints
	label string
	col   color.Color
	shape draw.GlyphDrawer
}

// The chart colours: blue dots, red squares.
var (
	chartBlue = color.RGBA{R: 31, G: 119, B: 180, A: 255}
	chartRed  = color.RGBA{R: 214, G: 39, B: 40, A: 255}
)

// addSeries adds the on-board and in-hand series to p, dots and bars, and
// returns the legend naming them (empty without in-hand values).
func addSeries(p *plot.Plot, on, in chartPoints) (*plot.Legend, error) {
	return addChartSeries(p, len(in) > 0,
		chartSeries{on, "on board", chartBlue, draw.CircleGlyph{}},
		chartSeries{in, "in hand", chartRed, draw.BoxGlyph{}}) // filled, as large as the dot
}

// addChartSeries adds each non-empty series to p as markers with their
// interval bars, and returns the legend naming them (empty unless named).
func addChartSeries(p *plot.Plot, named bool, series ...chartSeries) (*plot.Legend, error) {
	legend := plot.NewLegend()
	for _, s := range series {
		if len(s.pts) == 0 {
			continue
		}
		sc, err := plotter.NewScatter(s.pts)
		if err != nil {
			return nil, err
		}
		sc.GlyphStyle.Color = s.col
		sc.GlyphStyle.Shape = s.shape
		sc.GlyphStyle.Radius = vg.Points(3)
		eb, err := plotter.NewXErrorBars(s.pts)
		if err != nil {
			return nil, err
		}
		eb.LineStyle.Color = s.col
		eb.LineStyle.Width = vg.Points(1.2)
		p.Add(eb, sc)
		if named {
			legend.Add(s.label, sc)
		}
	}
	return &legend, nil
}

// addClipLabels adds to p the "->" labels of the clipped values, under
// their bar where below says so and above it otherwise.
func addClipLabels(p *plot.Plot, clipped plotter.XYLabels, below []bool) error {
	if len(clipped.XYs) == 0 {
		return nil
	}
	lb, err := plotter.NewLabels(clipped)
	if err != nil {
		return err
	}
	for i := range lb.TextStyle {
		lb.TextStyle[i].Font.Size = vg.Points(7)
		lb.TextStyle[i].XAlign = draw.XRight
		lb.TextStyle[i].YAlign = draw.YBottom
		if below[i] {
			lb.TextStyle[i].YAlign = draw.YTop
		}
	}
	// Left of the clipped dot and clear of it, not over it.
	lb.Offset = vg.Point{X: -vg.Points(6)}
	p.Add(lb)
	return nil
}

// chartTicks labels the value axis every 1, 2 or 5 times a power of ten,
// whichever gives 5 to 10 labels (gonum's default gives three).
type chartTicks struct{}

// Ticks implements plot.Ticker.
func (chartTicks) Ticks(lo, hi float64) []plot.Tick {
	span := hi - lo
	if !(span > 0) {
		return plot.DefaultTicks{}.Ticks(lo, hi)
	}
	step := math.Pow(10, math.Floor(math.Log10(span/5)))
	for _, f := range []float64{1, 2, 5, 10} {
		if span/(step*f) <= 10 {
			step *= f
			break
		}
	}
	decimals := max(0, int(-math.Floor(math.Log10(step)+1e-9)))
	var ticks []plot.Tick
	for k := math.Ceil(lo / step); k*step <= hi+step*1e-9; k++ {
		v := k * step
		if v == 0 {
			v = 0 // not -0
		}
		ticks = append(ticks, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', decimals, 64)})
		for i := 1; i < 5 && v+float64(i)*step/5 <= hi; i++ {
			ticks = append(ticks, plot.Tick{Value: v + float64(i)*step/5}) // minor
		}
	}
	return ticks
}

// wrapText breaks s into lines of at most width bytes at spaces.
func wrapText(s string, width int) string {
	var b strings.Builder
	n := 0
	for i, word := range strings.Fields(s) {
		if i > 0 {
			if n+1+len(word) > width {
				b.WriteByte('\n')
				n = 0
			} else {
				b.WriteByte(' ')
				n++
			}
		}
		b.WriteString(word)
		n += len(word)
	}
	return b.String()
}
