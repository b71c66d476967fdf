package policy

import (
	"fmt"
	"math"
	"runtime"

	"taifu/features"
	"taifu/tuner/data"
)

// DefaultMaxMemory is the memory (bytes) the converted rows may take held
// decoded (Config.MaxMemory); a fit of more streams them from the caches
// on every pass.
const DefaultMaxMemory = 2 << 30

// blockRef is a block of the fit: block of files[file], of which the first
// use rows are used (fewer than its rows when Config.MaxRows cuts it).
type blockRef struct {
	file, block, use int
}

// rowSet is the converted rows of a fit: their parts' caches, the blocks
// used, and the blocks decoded when they are held (else each pass reads
// them from the caches). Passes run over the blocks on workers goroutines
// and add up the per-block results in block order, so that their results
// are the same whatever the number of workers and whether the rows are
// held or streamed.
type rowSet struct {
	files   []*cacheFile
	refs    []blockRef
	mem     []*block // nil when streamed
	nfeat   int
	held    func(key uint64) bool
	workers int
	slots   []*slot
	// train and val count the training and held-out rows; passes counts
	// the passes over the rows.
	train, val int
	passes     int
	wide       *wideVec // the weights of the pass
	// units is the hidden layer's (0: none); its weights follow the
	// nfeat linear ones in the fit's vector (hiddenLayout).
	units int
}

// slot is one block in flight in a pass and its results.
type slot struct {
	ref    int
	b      *block
	own    block // a streamed block's storage
	raw    []byte
	logits []float64
	exps   []float64
	hz     []float64 // a row's hidden pre-activations, move-major
	grad   *wideVec  // the block's gradient (its first nfeat entries)
	acc    [2]struct {
		ce      float64
		hits, n int
	} // training [0] and held-out [1] rows
	err error
}

// workersOf returns n, or GOMAXPROCS when n <= 0.
func workersOf(n int) int {
	if n <= 0 {
		return runtime.GOMAXPROCS(0)
	}
	return n
}

// openRows makes the cache of every part of cfg ready (converting the
// missing or stale ones) and opens the rows of the fit: up to cfg.MaxRows
// rows, in part and row order, held in memory when they fit in
// cfg.MaxMemory and cfg.Stream is not set. st gets the counts.
func openRows(cfg *Config, st *Stats) (rs *rowSet, err error) {
	nfeat := len(features.MovesFor(cfg.Game).Names)
	if nfeat > math.MaxUint16 {
		return nil, fmt.Errorf("policy fit: %d move features, the policy cache holds at most %d", nfeat, math.MaxUint16)
	}
	rs = &rowSet{nfeat: nfeat, workers: workersOf(cfg.Workers)}
	val := cfg.Validation
	rs.held = func(k uint64) bool { return data.InValidation(k, val) }
	defer func() {
		if err != nil {
			rs.close()
		}
	}()
	key := keyOf(cfg.Game, cfg.Weights)
	cv := newConverter(cfg, rs.workers)
	var est int64
	for _, name := range cfg.Files {
		if cfg.MaxRows > 0 && st.Used >= int64(cfg.MaxRows) {
			break
		}
		c, built, err := readyCache(name, cv, key)
		if err != nil {
			return nil, err
		}
		if built {
			st.Converted++
		} else {
			st.Cached++
		}
		fi := len(rs.files)
		rs.files = append(rs.files, c)
		h := &c.h
		st.Rows += h.Read
		st.Fast += h.Fast
		st.NoPolicy += h.NoPolicy
		st.Mismatch += h.Mismatch
		for i, b := range h.Blocks {
			use := b.Rows
			if cfg.MaxRows > 0 {
				use = min(use, int64(cfg.MaxRows)-st.Used)
			}
			if use <= 0 {
				break
			}
			rs.refs = append(rs.refs, blockRef{fi, i, int(use)})
			st.Used += use
			est += rowBytes(use, b.Moves*use/b.Rows, b.Feats*use/b.Rows)
		}
	}
	maxMem := cfg.MaxMemory
	if maxMem <= 0 {
		maxMem = DefaultMaxMemory
	}
	rs.slots = make([]*slot, 2*rs.workers)
	for i := range rs.slots {
		rs.slots[i] = &slot{grad: new(wideVec)}
	}
	if cfg.Stream || est > maxMem {
		st.Streamed = true
		err = rs.each(func() func(*slot) { return func(*slot) {} }, func(s *slot) {
			for r := 0; r < s.b.rows(); r++ {
				if s.b.held[r] {
					rs.val++
				} else {
					rs.train++
				}
			}
			st.MemoryBytes = max(st.MemoryBytes, s.b.memBytes()*int64(len(rs.slots)))
		})
		return rs, err
	}
	// Held: every block decoded into its own storage, then the files
	// closed.
	rs.mem = make([]*block, len(rs.refs))
	next := 0
	err = ordered(rs.workers, rs.slots, func(emit func(fill func(*slot)) bool) error {
		for i := range rs.refs {
			if !emit(func(s *slot) { s.ref, s.err = i, nil }) {
				break
			}
		}
		return nil
	}, func() func(*slot) {
		return func(s *slot) {
			b := &block{}
			s.err = rs.read(s.ref, b, &s.raw)
			s.b = b
		}
	}, func(s *slot) error {
		if s.err != nil {
			return s.err
		}
		rs.mem[next] = s.b
		next++
		for _, h := range s.b.held {
			if h {
				rs.val++
			} else {
				rs.train++
			}
		}
		st.MemoryBytes += s.b.memBytes()
		return nil
	})
	for _, s := range rs.slots {
		s.raw, s.b = nil, nil
	}
	if err != nil {
		return nil, err
	}
	rs.closeFiles()
	return rs, nil
}

// read reads and decodes block ref i into b.
func (rs *rowSet) read(i int, b *block, raw *[]byte) error {
	r := rs.refs[i]
	if err := rs.files[r.file].read(r.block, b, raw, rs.nfeat, rs.held); err != nil {
		return err
	}
	b.truncate(r.use)
	return nil
}

func (rs *rowSet) closeFiles() {
	for _, c := range rs.files {
		c.close()
	}
	rs.files = nil
}

// close releases rs's files.
func (rs *rowSet) close() {
	if rs != nil {
		rs.closeFiles()
	}
}

// each runs a pass: for every block in order, the function newWork gives
// each worker is called with a slot whose b is the block, then reduce with
// the slot, in block order, on the calling goroutine.
func (rs *rowSet) each(newWork func() func(*slot), reduce func(*slot)) error {
	rs.passes++
	return ordered(rs.workers, rs.slots, func(emit func(fill func(*slot)) bool) error {
		for i := range rs.refs {
			if !emit(func(s *slot) { s.ref, s.err = i, nil }) {
				break
			}
		}
		return nil
	}, func() func(*slot) {
		work := newWork()
		return func(s *slot) {
			if rs.mem != nil {
				s.b = rs.mem[s.ref]
			} else {
				s.b = &s.own
				if s.err = rs.read(s.ref, &s.own, &s.raw); s.err != nil {
					return
				}
			}
			s.acc = [2]struct {
				ce      float64
				hits, n int
			}{}
			work(s)
		}
	}, func(s *slot) error {
		if s.err != nil {
			return s.err
		}
		reduce(s)
		return nil
	})
}

// wideVec is a vector indexed by any uint16: indexing it with a feature
// index needs no bounds check.
type wideVec [1 << 16]float64

// widen returns w as a wideVec (zero beyond len(w)), reusing dst.
func widen(dst *wideVec, w []float64) *wideVec {
	if dst == nil {
		dst = new(wideVec)
	}
	copy(dst[:], w)
	return dst
}

// lossGrad returns the summed cross-entropy of the training rows at
// weights w and puts its gradient in grad.
func (rs *rowSet) lossGrad(w, grad []float64) (float64, error) {
	clear(grad)
	rs.wide = widen(rs.wide, w)
	ww, n := rs.wide, len(w)
	var ce float64
	err := rs.each(func() func(*slot) {
		return func(s *slot) {
			clear(s.grad[:n])
			s.loss(ww, s.grad, rs.nfeat, rs.units)
		}
	}, func(s *slot) {
		ce += s.acc[0].ce
		for j, g := range s.grad[:n] {
			grad[j] += g
		}
	})
	return ce, err
}

// scores returns the mean scores of the training and the held-out rows
// under the logits of weights w (NaN without rows).
func (rs *rowSet) scores(w []float64) (train, held Scores, err error) {
	var acc [2]struct {
		ce      float64
		hits, n int
	}
	rs.wide = widen(rs.wide, w)
	ww := rs.wide
	err = rs.each(func() func(*slot) {
		return func(s *slot) { s.loss(ww, nil, rs.nfeat, rs.units) }
	}, func(s *slot) {
		for i := range acc {
			acc[i].ce += s.acc[i].ce
			acc[i].hits += s.acc[i].hits
			acc[i].n += s.acc[i].n
		}
	})
	out := [2]Scores{}
	for i, a := range acc {
		out[i] = Scores{CE: math.NaN(), Top1: math.NaN()}
		if a.n > 0 {
			out[i] = Scores{CE: a.ce / float64(a.n), Top1: float64(a.hits) / float64(a.n)}
		}
	}
	return out[0], out[1], err
}

// loss adds the cross-entropy of the softmax of the logits to the visit
// shares of the rows of s.b, and their top-1 hits, to s.acc (the training
// rows in acc[0], the held-out ones in acc[1]). With grad not nil it takes
// the training rows only and adds their gradient to grad. A move's logit
// is w . its features, plus, with a hidden layer of units rectified linear
// units (features.PolicyHidden, weights at hiddenLayout(nfeat, units)),
// sum_h out[h] * max(0, bias[h] + sum_f U[f][h] x_f).
func (s *slot) loss(w, grad *wideVec, nfeat, units int) {
	b := s.b
	uOff, bOff, vOff, _ := hiddenLayout(nfeat, units)
	for r := 0; r < b.rows(); r++ {
		h := 0
		if b.held[r] {
			if grad != nil {
				continue
			}
			h = 1
		}
		m0, m1 := int(b.mstart[r]), int(b.mstart[r+1])
		n := m1 - m0
		s.logits, s.exps, s.hz = resize(s.logits, n), resize(s.exps, n), resize(s.hz, n*units)
		lg, ex, hz := s.logits, s.exps, s.hz
		fs := b.fstart[m0 : m1+1]
		maxL, top := math.Inf(-1), 0
		for i := 0; i < n; i++ {
			f0, f1 := fs[i], fs[i+1]
			idx, val := b.idx[f0:f1], b.val[f0:f1:f1]
			var l float64
			for j, ix := range idx {
				l += w[ix] * float64(val[j])
			}
			if units > 0 {
				z := hz[i*units : (i+1)*units]
				copy(z, w[bOff:bOff+units])
				for j, ix := range idx {
					x := float64(val[j])
					for k, u := range w[uOff+int(ix)*units : uOff+int(ix)*units+units] {
						z[k] += u * x
					}
				}
				for k, zk := range z {
					if zk > 0 {
						l += w[vOff+k] * zk
					}
				}
			}
			lg[i] = l
			if l > maxL {
				maxL, top = l, i
			}
		}
		tg := b.target[m0:m1]
		inv := s.account(r, h, lg, ex, tg, maxL, top)
		if grad == nil {
			continue
		}
		for i := 0; i < n; i++ {
			d := ex[i]*inv - float64(tg[i])
			if d == 0 {
				continue
			}
			f0, f1 := fs[i], fs[i+1]
			idx, val := b.idx[f0:f1], b.val[f0:f1:f1]
			for j, ix := range idx {
				grad[ix] += d * float64(val[j])
			}
			for k, zk := range hz[i*units : (i+1)*units] {
				if zk <= 0 {
					continue
				}
				grad[vOff+k] += d * zk
				dz := d * w[vOff+k]
				if dz == 0 {
					continue
				}
				grad[bOff+k] += dz
				for j, ix := range idx {
					grad[uOff+int(ix)*units+k] += dz * float64(val[j])
				}
			}
		}
	}
}

// account adds the cross-entropy of row r's logits lg (the largest maxL,
// at top) to its visit shares tg, and whether top is its most visited
// move, to s.acc[h]; it leaves each exp(l - maxL) in ex and returns 1 over
// their sum (for the gradient).
func (s *slot) account(r, h int, lg, ex []float64, tg []float32, maxL float64, top int) float64 {
	var z float64
	for i, l := range lg {
		e := math.Exp(l - maxL)
		ex[i] = e
		z += e
	}
	logZ := maxL + math.Log(z)
	var ce float64
	for i, l := range lg {
		if p := float64(tg[i]); p > 0 {
			ce += p * (logZ - l)
		}
	}
	a := &s.acc[h]
	a.ce += ce
	a.n++
	if int32(top) == s.b.best[r] {
		a.hits++
	}
	return 1 / z
}

// hiddenLayout returns where a hidden layer of units units over nfeat
// features keeps its weights in the fit's vector, after the nfeat linear
// ones: the input weights U (feature-major, U[f*units+h] at u+f*units+h),
// the biases at b and the output weights at v; n is the vector's length.
func hiddenLayout(nfeat, units int) (u, b, v, n int) {
	u = nfeat
	b = u + nfeat*units
	v = b + units
	return u, b, v, v + units
}
