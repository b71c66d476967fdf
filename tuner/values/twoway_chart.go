package values

import (
	"fmt"
	"image/color"
	"io"
	"sort"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// The two-way chart's series: the imbalance games' worths are red
// squares, the whole model's values blue dots (as the export chart's), a
// row's imbalance bar just above its Texel bar.
const (
	twoWayImbalanceLabel = "imbalance games"
	twoWayTexelLabel     = "Texel, whole model"
	twoWayOffset         = 0.17 // of a row, each bar from the row's centre
)

// chartZero is the colour of the vertical line at 0.
var chartZero = color.Gray{Y: 64}

// chartRows returns the rows the two-way chart draws, top first: every
// kind (not a trade) with a Texel value or a worth, sorted by Texel value,
// highest first; kinds without a Texel value last, by worth.
func (t *TwoWay) chartRows() []TwoWayRow {
	var rows []TwoWayRow
	for _, r := range t.Rows {
		if !r.Trade() && (r.TexelOK || r.WorthOK) {
			rows = append(rows, r)
		}
	}
	sort.SliceStable(rows, func(i, j int) bool {
		a, b := rows[i], rows[j]
		if a.TexelOK != b.TexelOK {
			return a.TexelOK
		}
		if a.TexelOK {
			return a.Texel > b.Texel
		}
		return a.Worth > b.Worth
	})
	return rows
}

// WriteChart draws t, one row per kind sorted by Texel value (highest at
// the top): the imbalance worth and the Texel value, each a marker with
// its interval as a horizontal bar, the imbalance bar just above; a kind
// not played has the Texel bar only. A vertical line marks 0; the axis is
// in the unit piece; the title names the game, who played the games and
// the Texel weights; a legend names the bars and the caption says what
// they are. Trades are not drawn (their worth is a difference). format is
// "svg" or "png".
func (t *TwoWay) WriteChart(w io.Writer, format string) error {
	if format != "svg" && format != "png" {
		return fmt.Errorf("chart format %q (svg or png)", format)
	}
	rows := t.chartRows()
	if len(rows) == 0 {
		return fmt.Errorf("no kind with a value to chart")
	}
	n := len(rows)
	names := make([]string, n)
	var imb, tex chartPoints
	xmin, xmax := 0.0, 0.0
	for i, r := range rows {
		y := float64(n - 1 - i) // the first row at the top
		label := r.Kind
		if r.Name != "" {
			label = fmt.Sprintf("%s (%s)", r.Name, r.Kind)
		}
		if !r.WorthOK {
			label += ", no worth"
			if r.Games == 0 {
				label = strings.TrimSuffix(label, ", no worth") + ", not played"
			}
		}
		names[n-1-i] = label
		if r.WorthOK {
			imb = append(imb, struct{ x, y, lo, hi float64 }{r.Worth, y + twoWayOffset, r.Low, r.High})
			xmin, xmax = min(xmin, r.Low, r.Worth), max(xmax, r.High, r.Worth)
		}
		if r.TexelOK {
			lo, hi := r.Texel, r.Texel
			if r.TexelInterval {
				lo, hi = r.TexelLow, r.TexelHigh
			}
			tex = append(tex, struct{ x, y, lo, hi float64 }{r.Texel, y - twoWayOffset, lo, hi})
			xmin, xmax = min(xmin, lo, r.Texel), max(xmax, hi, r.Texel)
		}
	}
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%s piece values in %s, two ways", t.Game, t.Unit)
	var who []string
	if t.Player != "" {
		who = append(who, "imbalance games: "+t.Player)
	}
	if t.TexelWeights != "" {
		who = append(who, "Texel: weights "+t.TexelWeights)
	}
	for _, line := range who {
		p.Title.Text += "\n" + wrapText(line, 84)
	}
	p.X.Label.Text = t.chartCaption()
	p.Add(plotter.NewGrid())
	zero, err := plotter.NewLine(plotter.XYs{{X: 0, Y: -0.8}, {X: 0, Y: float64(n) - 0.2}})
	if err != nil {
		return err
	}
	zero.LineStyle.Color, zero.LineStyle.Width = chartZero, vg.Points(1)
	p.Add(zero)
	legend, err := addChartSeries(p, true,
		chartSeries{imb, twoWayImbalanceLabel, chartRed, draw.BoxGlyph{}},
		chartSeries{tex, twoWayTexelLabel, chartBlue, draw.CircleGlyph{}})
	if err != nil {
		return err
	}
	p.NominalY(names...)
	p.X.Tick.Marker = chartTicks{}
	span := xmax - xmin
	p.X.Min, p.X.Max = xmin-0.03*span, xmax+0.03*span
	p.Y.Min, p.Y.Max = -0.8, float64(n)-0.2
	const row, band = 26.0, 18.0
	lines := strings.Count(p.X.Label.Text, "\n") + strings.Count(p.Title.Text, "\n")
	return drawChart(w, format, p, legend, 90+2*chartMargin+band+row*float64(n)+12*float64(lines), band)
}

// chartCaption is the text under the two-way chart's axis: the unit, the
// order of the rows and where each column's values and intervals come
// from.
func (t *TwoWay) chartCaption() string {
	text := fmt.Sprintf("value in %s (%s = 1.00); rows by Texel value; a kind not played has the Texel bar only", t.Unit, t.Unit)
	for _, r := range t.Rows {
		if r.Trade() {
			text += "; trades (A=B+C) not drawn"
			break
		}
	}
	text = wrapText(text, 84)
	if t.Imbalance != "" {
		text += "\n" + wrapText("imbalance games: "+t.Imbalance, 84)
	}
	if t.Texel != "" {
		text += "\n" + wrapText("Texel: "+t.Texel, 84)
	}
	return text
}
