// Package all registers every game with package rules. Import it for its
// side effect: import _ "taifu/rules/all".
package all

import (
	_ "taifu/rules/chess"     // orthodox chess
	_ "taifu/rules/nanashogi" // Nana shogi
	_ "taifu/rules/samarkand" // Samarkand
	_ "taifu/rules/torishogi" // Tori shogi
	_ "taifu/rules/typhoon"   // Typhoon
)
