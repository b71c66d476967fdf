package rules

// Side is a player: 0 moves first (Blue, White, Black in the shogis), 1 second.
type Side uint8

// The two sides.
const (
	First  Side = 0
	Second Side = 1
)

// Other returns the opponent of s.
func (s Side) Other() Side { return s ^ 1 }

// Kind indexes a game's piece table (Game.Kinds). Kind 0 is "no piece".
type Kind uint8

// Piece is a kind with its owner packed into one byte: Kind<<1 | Side.
// The zero Piece is an empty square.
type Piece uint8

// NoPiece is an empty square.
const NoPiece Piece = 0

// MakePiece packs a kind and a side.
func MakePiece(k Kind, s Side) Piece { return Piece(k)<<1 | Piece(s) }

// Kind returns the piece's kind (0 for an empty square).
func (p Piece) Kind() Kind { return Kind(p >> 1) }

// Side returns the piece's owner; meaningless for NoPiece.
func (p Piece) Side() Side { return Side(p & 1) }

// Flip returns the same kind owned by the other side.
func (p Piece) Flip() Piece { return p ^ 1 }

// KindInfo is one row of a game's piece table.
type KindInfo struct {
	Token      string // uppercase token of NOTATION.md ("FH", "+FA", "SW")
	Name       string // the rules text's name ("Fire Horse")
	Royal      bool   // losing every royal piece loses the game
	Promoted   bool   // this kind only arises by promotion
	PromotesTo Kind   // 0 when the kind does not promote
	Demotes    Kind   // drop games: the kind a captured piece of this kind becomes in hand (0 = itself)
	Droppable  bool   // drop games: may stand in a hand
}
