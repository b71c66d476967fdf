package features

import (
	"sync"

	"taifu/rules"
)

// perGame caches one value per game, built on first use by build and
// shared after that (the values are never written again). The zero value
// is ready to use.
type perGame[T any] struct {
	mu sync.Mutex
	m  map[*rules.Game]T
}

// get returns g's value, building it with build the first time.
func (c *perGame[T]) get(g *rules.Game, build func(*rules.Game) T) T {
	c.mu.Lock()
	defer c.mu.Unlock()
	if v, ok := c.m[g]; ok {
		return v
	}
	if c.m == nil {
		c.m = map[*rules.Game]T{}
	}
	v := build(g)
	c.m[g] = v
	return v
}
