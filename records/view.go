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
	// Dist maps a destination square to its share of the root's visits.
	Dist map[int]float64 `json:"dist,omitempty"`
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

// View is one game as the HTML viewer draws it.
type View struct {
	Title     string     `json:"title"`
	Game      string     `json:"game"`
	Width     int        `json:"width"`
	Height    int        `json:"height"`
	SideNames [2]string  `json:"side_names"`
	Result    string     `json:"result"`
	Term      string     `json:"termination"`
	Kinds     []KindView `json:"kinds"`
	Frames    []Frame    `json:"frames"`
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
	v := &View{
		Title: fmt.Sprintf("%s game %d (%s)", g.Game, g.Number+1, g.RunID), // 1-based, as PGN's Round
		Game:  g.Game, Width: rg.Width, Height: rg.Height, SideNames: rg.SideNames,
		Result: g.Result, Term: g.Termination,
	}
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

func distribution(g *rules.Game, p Ply) (map[int]float64, []MoveVisits) {
	if p.Visits <= 0 {
		return nil, nil
	}
	dist := map[int]float64{}
	top := make([]MoveVisits, 0, len(p.Policy))
	for _, e := range p.Policy {
		top = append(top, MoveVisits{e.Move, e.Visits})
		m, err := g.ParseMoveText(e.Move)
		if err != nil || m.IsPass() || e.Visits <= 0 {
			continue
		}
		dist[int(m.To)] += float64(e.Visits) / float64(p.Visits)
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
// access, scripts and styles inline.
func WriteHTML(w io.Writer, games []*Game) error {
	views := make([]*View, 0, len(games))
	for _, g := range games {
		v, err := NewView(g)
		if err != nil {
			return err
		}
		views = append(views, v)
	}
	data, err := json.Marshal(views) // escapes <, > and &: safe inside <script>
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

// WriteJSON writes games as indented JSON.
func WriteJSON(w io.Writer, games []*Game) error {
	data, err := json.MarshalIndent(games, "", " ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(data, '\n'))
	return err
}
