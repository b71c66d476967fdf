// Package torishogi implements Tori shogi (bird shogi) on its 7x7 board, as
// the rules text seeds/001 (the shared rules texts) describes it and RULINGS.md settles
// it: seven kinds of bird and two promotions, drops of captured pieces,
// compulsory promotion of falcon and swallow in the two-rank zone, the three
// swallow-drop restrictions, shogi check legality (a move may not leave the
// mover's phoenix attacked), loss for a side with no legal move and loss by
// repetition for the side to move when a position occurs the third time.
//
// Positions are held as bitboards (49 squares fit a uint64) with table-driven
// step and ray attacks; legality comes from checkers and pins computed by
// looking outward from the phoenix. Legal, Make and Unmake do not allocate,
// and the Zobrist hash (board, hands, side to move) is kept incrementally.
//
// Import the package for its side effect of registering Game with package
// rules, or use Game directly.
package torishogi
