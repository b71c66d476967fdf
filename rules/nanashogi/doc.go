// Package nanashogi implements Nana shogi (rules text
// seeds/002 of the shared rules texts, RULINGS.md "Nana shogi"): a 3x3 shogi variant that
// starts with an empty board and every piece in hand.
//
// Each side owns a king and two cubes. The orthogonal cube shows Rook (R),
// Chariot (C), Swallow's wings (SW) or Go-between (GB); the diagonal cube
// shows Bishop (B), Tile general (TG), Cat's sword (CS) or Dog (D). A cube
// that moves rolls to its next state (R→C→SW→GB→R, B→TG→CS→D→B); a cube is
// dropped showing any state; in hand the orthogonal cube is written R and the
// diagonal cube B.
//
// Legality, as implemented here:
//   - while a side holds its king it can only drop the king (Black first,
//     then White), never on b2;
//   - no piece is ever dropped on b2, and a drop may not give check;
//   - a move may not leave the mover's king attacked;
//   - a board move that mates is illegal when the mover held any piece in hand
//     before it. "Mates" is read literally: after the move the opponent is
//     in check and has no legal move, the no-mate rule included, so a
//     check-escaping reply that would itself be a forbidden mate does not
//     count. The recursion is cut at MateDepth levels (Pos.MatedWithin); the
//     solver verifies on every position with both kings down that one more
//     level changes nothing, so the cut never matters in this game.
//
// A side with no legal move has lost (stalemate included). The fourth
// occurrence of a position (board, cube states, hands, side to move) ends the
// game as no contest (a draw).
//
// Pos is a history-free position with copy-make methods, used by State and
// by the solver in package nanashogi/solve.
package nanashogi
