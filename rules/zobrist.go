package rules

// Zobrist keys shared by every game, from a fixed splitmix64 stream so that
// hashes are identical across runs and machines.
var (
	// ZobristPiece[p][sq] is the key of piece p on sq.
	ZobristPiece [256][MaxSquares]uint64
	// ZobristHand[p][n] is the key of holding n pieces p (kind and side) in hand.
	ZobristHand [256][64]uint64
	// ZobristSide is XORed in when the second player is to move.
	ZobristSide uint64
)

// SplitMix64 advances *state and returns the next value of the splitmix64
// generator.
func SplitMix64(state *uint64) uint64 {
	*state += 0x9e3779b97f4a7c15
	z := *state
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

func init() {
	s := uint64(0x7461696675) // "taifu"
	for p := range ZobristPiece {
		for sq := range ZobristPiece[p] {
			ZobristPiece[p][sq] = SplitMix64(&s)
		}
	}
	for p := range ZobristHand {
		for n := 1; n < len(ZobristHand[p]); n++ {
			ZobristHand[p][n] = SplitMix64(&s)
		}
	}
	ZobristSide = SplitMix64(&s)
}
