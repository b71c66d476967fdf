package xboard

import (
	"context"
	"fmt"
	"time"
)

// engines are the match's two engines, A and B; nil: not running.
type engines [2]*Client

// start starts the engines not running, A with a and B with b, each to
// stop waiting for an answer when ctx is done. stopped reports that an
// engine's Init failed because ctx was done.
func (eng *engines) start(ctx context.Context, a, b func() (*Client, error)) (stopped bool, err error) {
	for k, start := range []func() (*Client, error){a, b} {
		if eng[k] == nil {
			e, err := start()
			if err != nil {
				return false, err
			}
			e.stop = ctx.Done()
			if err := e.Init(); err != nil {
				e.Close()
				if ctx.Err() != nil {
					return true, nil
				}
				return false, fmt.Errorf("engine %s: %v", e.Name, err)
			}
			eng[k] = e
		}
	}
	return false, nil
}

// close closes the running engines: none runs after it.
func (eng *engines) close() {
	for k, e := range eng {
		if e != nil {
			e.Close()
			eng[k] = nil
		}
	}
}

// newGame sets eng up for a new game of variant at c's time control and
// drains what the last game left.
func (c *MatchConfig) newGame(eng [2]*Client, variant string) error {
	clocked := c.Level != (Level{})
	for _, e := range eng {
		e.Send("force")
		e.Send("new")
		if variant != "normal" { // the protocol's chess: "new" alone
			e.Send("variant " + variant)
		}
		if clocked {
			e.Send("level " + c.Level.String())
		} else {
			e.Send("st " + trimFloat(c.MoveTime.Seconds()))
		}
		e.Send("post")
		e.Send("force")
		// Drain what the last game left (a result, a late move).
		if err := e.drain(30 * time.Second); err != nil {
			return fmt.Errorf("%s: %v", e.Name, err)
		}
	}
	return nil
}
