package xboard

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// Client drives one xboard engine: an external program (Start) or anything
// reading commands and writing replies (NewClient).
type Client struct {
	Name  string   // myname, or the command line until the engine names itself
	Trace []string // lines sent (">") and received ("<") when tracing is on
	w     io.Writer
	lines chan string
	cmd   *exec.Cmd
	close func() error
	trace bool
	ping  int
	// usermove: the engine asked for "usermove MOVE" (feature usermove=1);
	// otherwise moves are sent bare, as protocol 2 prescribes by default.
	usermove bool
	// stderr keeps the end of a started engine's standard error, shown when
	// it dies; stderrDone is closed when the engine closed it.
	stderr     *tail
	stderrDone chan struct{}
	// stop, once closed, ends every wait for a reply at once with
	// ErrStopped (nil: waits end by their time limit or the engine's end
	// only). PlayMatch sets it to its context's Done.
	stop <-chan struct{}
}

// ErrEOF reports that the engine closed its output (it exited).
var ErrEOF = errors.New("engine closed its output")

// ErrStopped reports that a wait for the engine's reply was cut short
// because the match was stopped (its context cancelled).
var ErrStopped = errors.New("match stopped")

// NewClient returns a client writing commands to w and reading replies from r.
func NewClient(name string, w io.Writer, r io.Reader, closer func() error) *Client {
	c := &Client{Name: name, w: w, lines: make(chan string, 256), close: closer}
	go func() {
		br := bufio.NewReader(r)
		for {
			l, err := readLine(br)
			if err != nil {
				break
			}
			c.lines <- l
		}
		close(c.lines)
	}()
	return c
}

// readLine reads one line of any length without its "\n" (or "\r\n"); a
// last line without a newline is returned too. io.EOF ends the input.
func readLine(br *bufio.Reader) (string, error) {
	l, err := br.ReadString('\n')
	if err != nil && (l == "" || err != io.EOF) {
		return "", err
	}
	l = strings.TrimSuffix(l, "\n")
	return strings.TrimSuffix(l, "\r"), nil
}

// Start runs argv (program and arguments) in a process group of its own and
// returns its client. Close ends the whole group: the engine and whatever
// it started.
func Start(argv []string) (*Client, error) {
	if len(argv) == 0 {
		return nil, errors.New("empty engine command")
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	ownGroup(cmd)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = errW
	err = cmd.Start()
	errW.Close() // the child holds its own copy
	if err != nil {
		errR.Close()
		return nil, fmt.Errorf("engine %q: %v", clip(strings.Join(argv, " ")), err)
	}
	stderr, stderrDone := &tail{}, make(chan struct{})
	go func() {
		io.Copy(stderr, errR)
		errR.Close()
		close(stderrDone)
	}()
	c := NewClient(strings.Join(argv, " "), in, out, func() error {
		in.Close()
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			killGroup(cmd) // what the engine started and left behind
			return err
		case <-time.After(2 * time.Second):
			killGroup(cmd)
			return <-done
		}
	})
	c.cmd, c.stderr, c.stderrDone = cmd, stderr, stderrDone
	return c, nil
}

// tailBytes is how much of an engine's standard error a Client keeps.
const tailBytes = 4096

// tail keeps the last tailBytes written to it.
type tail struct {
	mu  sync.Mutex
	buf []byte
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > tailBytes {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-tailBytes:]...)
	}
	return len(p), nil
}

// lastLines returns the last n non-empty lines written, joined by " | ".
func (t *tail) lastLines(n int) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	var out []string
	for _, l := range strings.Split(string(t.buf), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	if len(out) > n {
		out = out[len(out)-n:]
	}
	s := strings.Join(out, " | ")
	if len(s) > 300 {
		s = "..." + s[len(s)-300:]
	}
	return s
}

// eof is ErrEOF with, for a started engine, the end of its standard error
// (waiting a moment for the engine to finish writing it).
func (c *Client) eof() error {
	if c.stderr == nil {
		return ErrEOF
	}
	select {
	case <-c.stderrDone:
	case <-time.After(time.Second):
	}
	if s := c.stderr.lastLines(5); s != "" {
		return fmt.Errorf("%w; its standard error ends: %s", ErrEOF, s)
	}
	return fmt.Errorf("%w, writing nothing to its standard error", ErrEOF)
}

// Send writes one command line.
func (c *Client) Send(line string) error {
	if c.trace {
		c.Trace = append(c.Trace, "> "+line)
	}
	_, err := io.WriteString(c.w, line+"\n")
	if err != nil && c.stderr != nil {
		return c.eof() // it exited: say why if it said
	}
	return err
}

// SendMove sends a move of the game, as "usermove MOVE" when the engine
// asked for that (feature usermove=1), else bare.
func (c *Client) SendMove(move string) error {
	if c.usermove {
		return c.Send("usermove " + move)
	}
	return c.Send(move)
}

// Next returns the next reply line, waiting at most d.
func (c *Client) Next(d time.Duration) (string, error) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case l, ok := <-c.lines:
		if !ok {
			return "", c.eof()
		}
		if c.trace {
			c.Trace = append(c.Trace, "< "+l)
		}
		return l, nil
	case <-t.C:
		return "", context.DeadlineExceeded
	case <-c.stop:
		return "", ErrStopped
	}
}

// Init sends "xboard" and "protover 2" and reads the features until
// "feature ... done=1" (or 5 s of silence), accepting each one.
func (c *Client) Init() error {
	if err := c.Send("xboard"); err != nil {
		return err
	}
	if err := c.Send("protover 2"); err != nil {
		return err
	}
	for {
		l, err := c.Next(5 * time.Second)
		if errors.Is(err, context.DeadlineExceeded) {
			return nil // a protocol 1 engine
		}
		if err != nil {
			return err
		}
		if !strings.HasPrefix(l, "feature ") {
			continue
		}
		for _, f := range featureList(l[len("feature "):]) {
			switch f.key {
			case "myname":
				c.Name = f.value
			case "usermove":
				c.usermove = f.value == "1"
			}
			if f.key == "done" {
				if f.value == "1" {
					return nil
				}
				continue
			}
			c.Send("accepted " + f.key)
		}
	}
}

type feature struct{ key, value string }

// featureList splits `a=1 b="x y" c=2`.
func featureList(s string) []feature {
	var out []feature
	for s = strings.TrimSpace(s); s != ""; s = strings.TrimSpace(s) {
		key, rest, ok := strings.Cut(s, "=")
		if !ok {
			break
		}
		var val string
		if strings.HasPrefix(rest, "\"") {
			end := strings.IndexByte(rest[1:], '"')
			if end < 0 {
				val, rest = rest[1:], ""
			} else {
				val, rest = rest[1:1+end], rest[2+end:]
			}
		} else {
			val, rest, _ = strings.Cut(rest, " ")
		}
		out = append(out, feature{strings.TrimSpace(key), val})
		s = rest
	}
	return out
}

// Sync sends "ping N" and reads until "pong N", failing on an "Illegal
// move" or "Error" reply on the way (returned as the error's text).
func (c *Client) Sync(d time.Duration) error { return c.pingPong(d, true) }

// drain sends a ping and discards every line up to its pong.
func (c *Client) drain(d time.Duration) error { return c.pingPong(d, false) }

func (c *Client) pingPong(d time.Duration, strict bool) error {
	c.ping++
	if err := c.Send(fmt.Sprintf("ping %d", c.ping)); err != nil {
		return err
	}
	want := fmt.Sprintf("pong %d", c.ping)
	for {
		l, err := c.Next(d)
		if err != nil {
			return err
		}
		if l == want {
			return nil
		}
		if strict && isComplaint(l) {
			return fmt.Errorf("%s", clip(l))
		}
	}
}

func isComplaint(l string) bool {
	return strings.HasPrefix(l, "Illegal move") || strings.HasPrefix(l, "Error")
}

// Reply is what an engine answered when it was asked to move.
type Reply struct {
	Move    string // "move X" text, "" when the engine did not move
	Resign  bool
	Result  string // a result the engine claimed ("1-0", "0-1", "1/2-1/2"), with Comment
	Comment string
	Problem string // an "Illegal move" or "Error" reply
	Post    string // last thinking line
}

// WaitMove reads replies until the engine moves, resigns, claims a result or
// complains, waiting at most d in all.
func (c *Client) WaitMove(d time.Duration) (Reply, error) {
	deadline := time.Now().Add(d)
	var r Reply
	for {
		l, err := c.Next(time.Until(deadline))
		if err != nil {
			return r, err
		}
		switch {
		case strings.HasPrefix(l, "move "):
			r.Move = strings.TrimSpace(l[5:])
			return r, nil
		case l == "resign" || strings.HasPrefix(l, "tellics resign"):
			r.Resign = true
			return r, nil
		case strings.HasPrefix(l, "1-0"), strings.HasPrefix(l, "0-1"), strings.HasPrefix(l, "1/2-1/2"):
			res, comment, _ := strings.Cut(l, " ")
			r.Result, r.Comment = res, strings.Trim(strings.TrimSpace(comment), "{}")
			return r, nil
		case isComplaint(l):
			r.Problem = l
			return r, nil
		case len(l) > 0 && l[0] >= '0' && l[0] <= '9':
			r.Post = l
		}
	}
}

// Close asks the engine to quit and releases it.
func (c *Client) Close() error {
	c.Send("quit")
	if c.close != nil {
		return c.close()
	}
	return nil
}
