package tuner

import (
	"fmt"
	"image/color"
	"io"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// chartPoints is one series of the chart: value, rank row and interval.
type chartPoints []struct{ x, y, lo, hi float64 }

func (c chartPoints) Len() int                        { return len(c) }
func (c chartPoints) XY(i int) (float64, float64)     { return c[i].x, c[i].y }
func (c chartPoints) XError(i int) (float64, float64) { return c[i].x - c[i].lo, c[i].hi - c[i].x }

// WriteChart draws the pieces ranked by on-board value, one row each with
// the value as a dot and the bootstrap interval as a bar; in-hand values of
// drop games are a second series just below. format is "svg" or "png".
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
	add := func(s *chartPoints, p PieceValue, y float64) {
		lo, hi := p.Value, p.Value
		if p.Low != nil {
			lo, hi = *p.Low, *p.High
		}
		*s = append(*s, struct{ x, y, lo, hi float64 }{p.Value, y, lo, hi})
	}
	for i, p := range board {
		y := float64(n - 1 - i) // highest value at the top
		names[n-1-i] = fmt.Sprintf("%s (%s)", p.Name, p.Kind)
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
	p.X.Label.Text = "value in " + t.Unit
	p.Add(plotter.NewGrid())
	series := []struct {
		pts   chartPoints
		label string
		col   color.Color
		shape draw.GlyphDrawer
	}{
		{on, "on board", color.RGBA{R: 31, G: 119, B: 180, A: 255}, draw.CircleGlyph{}},
		{in, "in hand", color.RGBA{R: 214, G: 39, B: 40, A: 255}, draw.SquareGlyph{}},
	}
	for _, s := range series {
		if len(s.pts) == 0 {
			continue
		}
		sc, err := plotter.NewScatter(s.pts)
		if err != nil {
			return err
		}
		sc.GlyphStyle.Color = s.col
		sc.GlyphStyle.Shape = s.shape
		sc.GlyphStyle.Radius = vg.Points(3)
		eb, err := plotter.NewXErrorBars(s.pts)
		if err != nil {
			return err
		}
		eb.LineStyle.Color = s.col
		eb.LineStyle.Width = vg.Points(1.2)
		p.Add(eb, sc)
		if len(in) > 0 {
			p.Legend.Add(s.label, sc)
		}
	}
	p.Legend.Top = false
	p.Legend.Left = false
	p.NominalY(names...)
	if xmin, _, _, _ := plotter.XYRange(on); xmin >= 0 {
		p.X.Min = 0 // values start at zero unless some are negative
	}
	p.Y.Min, p.Y.Max = -0.8, float64(n)-0.2
	height := vg.Points(float64(60 + 16*n))
	wt, err := p.WriterTo(7*vg.Inch, height, format)
	if err != nil {
		return err
	}
	_, err = wt.WriteTo(w)
	return err
}
