package weightsio_test

import (
	"fmt"

	"taifu/rules"
	_ "taifu/rules/nanashogi" // registers "nanashogi"
	"taifu/weightsio"
)

// Resolve the spec "start" (weightsio.Start): the game's starting estimate,
// the weights every game has without a fitted file.
func ExampleLoad() {
	g, err := rules.Lookup("nanashogi")
	if err != nil {
		fmt.Println(err)
		return
	}
	w, from, err := weightsio.Load(g, weightsio.Start)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s: %s weights %s, %d terms, material: rook %.2f, bishop %.2f\n",
		from, w.Game, w.Version, len(w.Vec), w.Terms["material/R"], w.Terms["material/B"])
	// Output: starting estimate: nanashogi weights nanashogi-start-1, 71 terms, material: rook 1.94, bishop 1.33
}
