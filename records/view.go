package records

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"

	"taifu/rules"
)

//go:embed viewer.html
var viewerHTML string

// dataMarker is replaced by the games' JSON in viewer.html.
const dataMarker = "/*DATA*/null"

// Frame is what the viewer shows at one ply: the position before move Ply
// (or after the last move for the final frame), the marks of the move that
// led to it and the search at it.
type Frame struct {
	Ply      int          `json:"ply"`
	Position string       `json:"position"`        // NOTATION.md
	Side     int          `json:"side"`            // 0 first player, 1 second
	Board    []string     `json:"board"`           // token per square in square order, "" empty
	Hands    [][]HandItem `json:"hands,omitempty"` // drop games: first player's then second's
	// Last is the move that led here; nil for the first frame.
	Last *Marks `json:"last,omitempty"`
	// Next is the move played from here ("" in the final frame), with the
	// search's root value (first player's view) and visits.
	Next   string  `json:"next,omitempty"`
	Value  float32 `json:"value"`
	Visits int64   `json:"visits"`
	// Dist maps a destination square to the visits of the root moves to
	// it (the page draws each square's share of Visits).
	Dist map[int]int64 `json:"dist,omitempty"`
	// Top is the most visited root moves, most visited first.
	Top []MoveVisits `json:"top,omitempty"`
}

// HandItem is a kind held in a hand.
type HandItem struct {
	Token string `json:"token"`
	Count int    `json:"count"`
}

// MoveVisits is a root move and its visits.
type MoveVisits struct {
	Move   string `json:"move"`
	Visits int32  `json:"visits"`
}

// Marks are the squares a move touched, found by comparing the boards before
// and after it: From (-1 for a drop or pass), To, Captured (pieces removed,
// on To or elsewhere: igui, line and hop captures), Converted (pieces that
// changed owner) and a Samarkand push (Push from To to PushTo).
type Marks struct {
	Move      string `json:"move"`
	From      int    `json:"from"`
	To        int    `json:"to"`
	Captured  []int  `json:"captured,omitempty"`
	Converted []int  `json:"converted,omitempty"`
	PushTo    int    `json:"push_to"` // -1 without a push
}

// KindView is a legend row from the game's piece table.
type KindView struct {
	Token string `json:"token"`
	Name  string `json:"name"`
	Notes string `json:"notes"`
	// Moves is where the piece moves on an empty board; nil when the rules
	// refuse the lone-piece position.
	Moves *Diagram `json:"moves,omitempty"`
}

// ViewHeader is what the viewer shows of a game besides its plies.
type ViewHeader struct {
	Title     string    `json:"title"`
	Game      string    `json:"game"`
	Width     int       `json:"width"`
	Height    int       `json:"height"`
	SideNames [2]string `json:"side_names"`
	Result    string    `json:"result"`
	Term      string    `json:"termination"`
}

// View is one game as the HTML viewer draws it.
type View struct {
	ViewHeader
	Kinds  []KindView `json:"kinds"`
	Frames []Frame    `json:"frames"`
}

// NewView replays g with rules and builds its frames.
func NewView(g *Game) (*View, error) {
	rg, err := rules.Lookup(g.Game)
	if err != nil {
		return nil, err
	}
	st, err := rules.ParsePosition(rg, g.Start)
	if err != nil {
		return nil, fmt.Errorf("%s game %d: %w", g.Game, g.Number, err)
	}
	v := &View{ViewHeader: ViewHeader{
		Title: fmt.Sprintf("%s game %d (%s)", g.Game, g.Number+1, g.RunID), // 1-based, as PGN's Round
		Game:  g.Game, Width: rg.Width, Height: rg.Height, SideNames: rg.SideNames,
		Result: g.Result, Term: g.Termination,
	}}
	seen := map[rules.Kind]bool{}
	var last *Marks
	for i := 0; i <= len(g.Plies); i++ {
		f := frame(st, seen)
		f.Ply, f.Last = i, last
		if i == len(g.Plies) {
			v.Frames = append(v.Frames, f)
			break
		}
		p := g.Plies[i]
		f.Next, f.Visits = p.Move, p.Visits
		f.Value = p.RootValue
		if f.Side == 1 {
			f.Value = -f.Value
		}
		f.Dist, f.Top = distribution(rg, p)
		v.Frames = append(v.Frames, f)
		m, err := rules.ParseMove(st, p.Move)
		if err != nil {
			return nil, fmt.Errorf("%s game %d ply %d: %w", g.Game, g.Number, i, err)
		}
		before := board(st)
		st.Make(m)
		last = MoveMarks(rg, m, before, board(st))
	}
	for k := 1; k < len(rg.Kinds); k++ {
		if seen[rules.Kind(k)] {
			v.Kinds = append(v.Kinds, kindView(rg, rules.Kind(k)))
		}
	}
	return v, nil
}

func board(st rules.State) []rules.Piece {
	n := st.Game().Squares()
	b := make([]rules.Piece, n)
	for sq := range b {
		b[sq] = st.At(sq)
	}
	return b
}

func frame(st rules.State, seen map[rules.Kind]bool) Frame {
	g := st.Game()
	f := Frame{Position: st.String(), Side: int(st.SideToMove()), Board: make([]string, g.Squares())}
	for sq := range f.Board {
		if p := st.At(sq); p != rules.NoPiece {
			f.Board[sq] = g.PieceToken(p)
			seen[p.Kind()] = true
		}
	}
	if g.HasHand {
		f.Hands = make([][]HandItem, 2)
		for s := rules.First; s <= rules.Second; s++ {
			f.Hands[s] = []HandItem{}
			for k := 1; k < len(g.Kinds); k++ {
				if n := st.InHand(s, rules.Kind(k)); n > 0 {
					f.Hands[s] = append(f.Hands[s], HandItem{g.PieceToken(rules.MakePiece(rules.Kind(k), s)), n})
					seen[rules.Kind(k)] = true
				}
			}
		}
	}
	return f
}

// MoveMarks compares the boards before and after m, a move of g, and returns
// the squares it touched. A piece that left a square other than From without
// reappearing on the push square or, for an exchange, on From was captured;
// a piece replaced by the same kind of the other owner was converted.
func MoveMarks(g *rules.Game, m rules.Move, before, after []rules.Piece) *Marks {
	mk := &Marks{Move: g.MoveString(m), From: -1, To: -1, PushTo: -1}
	if m.IsPass() {
		return mk
	}
	mk.To = int(m.To)
	if !m.IsDrop() {
		mk.From = int(m.From)
	}
	if m.Push != rules.NoSquare {
		mk.PushTo = int(m.Push)
	}
	for sq := range before {
		b, a := before[sq], after[sq]
		if b == rules.NoPiece || a == b {
			continue
		}
		switch {
		case sq == mk.From && sq != mk.To:
			continue // the mover left
		case a == b.Flip() && sq != mk.To:
			mk.Converted = append(mk.Converted, sq)
			continue
		case sq == mk.To && mk.PushTo >= 0 && after[mk.PushTo] == b:
			continue // pushed, not captured
		case sq == mk.To && m.Flags&rules.FlagExchange != 0 && mk.From >= 0 && after[mk.From] == b:
			continue // exchanged places
		case sq == mk.From && a != rules.NoPiece:
			continue // acted without moving and promoted or stayed
		}
		mk.Captured = append(mk.Captured, sq)
	}
	return mk
}

func distribution(g *rules.Game, p Ply) (map[int]int64, []MoveVisits) {
	if p.Visits <= 0 {
		return nil, nil
	}
	dist := map[int]int64{}
	top := make([]MoveVisits, 0, len(p.Policy))
	for _, e := range p.Policy {
		top = append(top, MoveVisits{e.Move, e.Visits})
		m, err := g.ParseMoveText(e.Move)
		if err != nil || m.IsPass() || e.Visits <= 0 {
			continue
		}
		dist[int(m.To)] += int64(e.Visits)
	}
	sort.SliceStable(top, func(i, j int) bool { return top[i].Visits > top[j].Visits })
	if len(top) > 8 {
		top = top[:8]
	}
	return dist, top
}

func kindView(g *rules.Game, k rules.Kind) KindView {
	info := g.Kinds[k]
	var notes []string
	if info.Royal {
		notes = append(notes, "royal")
	}
	if info.Promoted {
		notes = append(notes, "arises by promotion")
	}
	if info.PromotesTo != 0 {
		to := g.Kinds[info.PromotesTo]
		notes = append(notes, "promotes to "+to.Name+" ("+to.Token+")")
	}
	if info.Droppable {
		notes = append(notes, "may be dropped")
	}
	if info.Demotes != 0 {
		d := g.Kinds[info.Demotes]
		notes = append(notes, "captured, goes to hand as "+d.Name+" ("+d.Token+")")
	}
	return KindView{Token: info.Token, Name: info.Name, Notes: strings.Join(notes, "; "), Moves: movementDiagram(g, k)}
}

// WriteHTML writes the self-contained viewer page for games: no network
// access, scripts and styles inline. The games go into the page in the
// compact form of page, which the page's script expands into frames.
func WriteHTML(w io.Writer, games []*Game) error {
	pg := page{Kinds: map[string]map[string]KindView{}, Games: make([]pageGame, 0, len(games))}
	for _, g := range games {
		v, err := NewView(g)
		if err != nil {
			return err
		}
		pg.add(v)
	}
	data, err := json.Marshal(pg) // escapes <, > and &: safe inside <script>
	if err != nil {
		return err
	}
	i := strings.Index(viewerHTML, dataMarker)
	if i < 0 {
		return fmt.Errorf("records: viewer template lacks its data marker")
	}
	if _, err := io.WriteString(w, viewerHTML[:i]); err != nil {
		return err
	}
	if _, err := w.Write(data); err != nil {
		return err
	}
	_, err = io.WriteString(w, viewerHTML[i+len(dataMarker):])
	return err
}

// page is the viewer's data. A frame's board and hands are not written:
// the page reads them from its position, and a position is written as the
// fields (positionFields) that differ from the previous frame's; the
// legend rows are written once per game kind: a sixth of the size of
// the frames written whole (docs/usage.md, "Looking at games").
type page struct {
	// Kinds maps a game's name and a token to its legend row.
	Kinds map[string]map[string]KindView `json:"kinds"`
	Games []pageGame                     `json:"games"`
}

// pageGame is a View with its frames in columns, one entry per frame.
type pageGame struct {
	ViewHeader
	Kinds []string `json:"kinds"` // tokens of the legend rows
	// Pos is each frame's position: the first frame's whole, a later one's
	// as [[field, text], ...], the fields of positionFields that differ
	// from the previous frame's (or whole when the number of fields
	// differs).
	Pos []any `json:"pos"`
	// Last is the marks of the move that led to each frame, null for the
	// first: [from, to, push_to, captured, converted]; the move is the
	// previous frame's Next.
	Last []any `json:"last"`
	// Next, Value, Visits, Dist and Top are each frame's Frame fields;
	// Dist as [square, visits, ...] by square, Top as [[move, visits], ...].
	Next   []string  `json:"next"`
	Value  []float32 `json:"value"`
	Visits []int64   `json:"visits"`
	Dist   [][]int64 `json:"dist"`
	Top    [][]any   `json:"top"`
}

// add appends v to the page.
func (pg *page) add(v *View) {
	kinds := pg.Kinds[v.Game]
	if kinds == nil {
		kinds = map[string]KindView{}
		pg.Kinds[v.Game] = kinds
	}
	g := pageGame{ViewHeader: v.ViewHeader, Kinds: make([]string, 0, len(v.Kinds))}
	for _, k := range v.Kinds {
		kinds[k.Token] = k
		g.Kinds = append(g.Kinds, k.Token)
	}
	var prev []string
	for i, f := range v.Frames {
		fields := positionFields(f.Position)
		g.Pos = append(g.Pos, positionChange(prev, fields, f.Position))
		prev = fields
		if f.Last == nil || i == 0 {
			g.Last = append(g.Last, nil)
		} else {
			m := f.Last
			g.Last = append(g.Last, []any{m.From, m.To, m.PushTo, orEmpty(m.Captured), orEmpty(m.Converted)})
		}
		g.Next = append(g.Next, f.Next)
		g.Value = append(g.Value, f.Value)
		g.Visits = append(g.Visits, f.Visits)
		sqs := make([]int, 0, len(f.Dist))
		for sq := range f.Dist {
			sqs = append(sqs, sq)
		}
		sort.Ints(sqs)
		dist := make([]int64, 0, 2*len(sqs))
		for _, sq := range sqs {
			dist = append(dist, int64(sq), f.Dist[sq])
		}
		g.Dist = append(g.Dist, dist)
		top := make([]any, 0, len(f.Top))
		for _, m := range f.Top {
			top = append(top, []any{m.Move, m.Visits})
		}
		g.Top = append(g.Top, top)
	}
	pg.Games = append(pg.Games, g)
}

func orEmpty(s []int) []int {
	if s == nil {
		return []int{}
	}
	return s
}

// positionFields cuts a position after every '/' and ' ': its ranks, side
// to move and the fields after it, each with the separator that ends it,
// so that joining them gives the position back (the page's script cuts
// it the same way: split(/(?<=[\/ ])/)).
func positionFields(pos string) []string {
	var out []string
	for len(pos) > 0 {
		i := strings.IndexAny(pos, "/ ")
		if i < 0 {
			out = append(out, pos)
			break
		}
		out = append(out, pos[:i+1])
		pos = pos[i+1:]
	}
	return out
}

// positionChange is how the page writes position pos (cut into fields)
// after the position cut into prev: the fields that differ, as
// [[index, text], ...], or pos whole when there is no previous position or
// the number of fields differs.
func positionChange(prev, fields []string, pos string) any {
	if prev == nil || len(prev) != len(fields) {
		return pos
	}
	changes := [][]any{}
	for i, f := range fields {
		if f != prev[i] {
			changes = append(changes, []any{i, f})
		}
	}
	return changes
}

// WriteJSON writes games as indented JSON.
func WriteJSON(w io.Writer, games []*Game) error {
	data, err := json.MarshalIndent(games, "", " ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(data, '\n'))
	return err
}
