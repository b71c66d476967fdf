// Package chess is orthodox chess (FIDE Laws of Chess) as a taifu game,
// registered as "chess".
//
// Sides are "white" (first) and "black". Piece tokens are P N B R Q K.
// Squares are a1..h8 as in every taifu game.
//
// Position text follows NOTATION.md's form with two fields after the side
// to move, the state a chess position carries beyond its board:
//
//	<board> <side> <castling> <en passant>
//
// <castling> is FEN's: the letters K, Q (White may still castle king- or
// queen-side), k, q (Black) in that order, or "-" when none. A right is kept
// only if the king and that rook stand on their start squares. <en passant>
// is the square a pawn passed over in a double step just made, or "-". It is
// written (and hashed) only when a pawn of the side to move stands beside
// the pawn that moved, that is when an en passant capture is possible
// pseudo-legally (Stockfish's rule), so that equal positions have equal text.
// The start position is
//
//	r,n,b,q,k,b,n,r/p,p,p,p,p,p,p,p/8/8/8/8/P,P,P,P,P,P,P,P/R,N,B,Q,K,B,N,R white KQkq -
//
// The halfmove clock is history, like repetitions, and is not in the text; a
// State set up from text starts it at 0 (FromFEN takes FEN's clock).
//
// Moves are written <from><to> like every move of a piece on the board
// ("e2e4"). Castling is the king's two-square move ("e1g1", "e8c8"); en
// passant the capturing pawn's move to the passed square ("e5d6"). A
// promotion carries the project's "+" followed by the token of the kind
// chosen: "e7e8+Q", "a2a1+N".
//
// The game ends by checkmate (win), stalemate, threefold repetition of a
// position (same board, side, castling rights and en passant), the
// fifty-move rule (100 plies without a capture or pawn move; checkmate on
// the hundredth ply stands) or insufficient material (no pawns, rooks or
// queens and either at most one minor piece or only bishops all on squares
// of one colour), all draws. Repetition and the fifty-move rule end the game
// automatically rather than on a claim.
package chess
