package main

import (
	"math"
	"math/rand/v2"

	"sudokubot/vision"
)

func initWeights(m *vision.MLP, rng *rand.Rand) {
	s1 := math.Sqrt(2 / float64(m.In))
	for i := range m.W1 {
		m.W1[i] = float32(rng.NormFloat64() * s1)
	}
	s2 := math.Sqrt(1 / float64(m.Hidden))
	for i := range m.W2 {
		m.W2[i] = float32(rng.NormFloat64() * s2)
	}
}

// trainer runs minibatch SGD with momentum on cross-entropy.
type trainer struct {
	m                  *vision.MLP
	gW1, gB1, gW2, gB2 []float32
	vW1, vB1, vW2, vB2 []float32
	h, dh              []float32
}

func newTrainer(m *vision.MLP) *trainer {
	mk := func(n int) []float32 { return make([]float32, n) }
	return &trainer{m: m,
		gW1: mk(len(m.W1)), gB1: mk(len(m.B1)), gW2: mk(len(m.W2)), gB2: mk(len(m.B2)),
		vW1: mk(len(m.W1)), vB1: mk(len(m.B1)), vW2: mk(len(m.W2)), vB2: mk(len(m.B2)),
		h: mk(m.Hidden), dh: mk(m.Hidden),
	}
}

func (t *trainer) step(set []example, batch []int, lr float32) float64 {
	m := t.m
	clear(t.gW1)
	clear(t.gB1)
	clear(t.gW2)
	clear(t.gB2)
	var p [vision.NumClasses]float32
	loss := 0.0
	for _, idx := range batch {
		e := set[idx]
		m.Predict(e.x, t.h, &p)
		loss -= math.Log(float64(max(p[e.label], 1e-12)))
		p[e.label] -= 1 // dLoss/dlogits
		clear(t.dh)
		for k := 0; k < m.Classes; k++ {
			g := p[k]
			t.gB2[k] += g
			w := m.W2[k*m.Hidden : (k+1)*m.Hidden]
			gw := t.gW2[k*m.Hidden : (k+1)*m.Hidden]
			for j, hv := range t.h {
				gw[j] += g * hv
				t.dh[j] += g * w[j]
			}
		}
		for j := 0; j < m.Hidden; j++ {
			if t.h[j] <= 0 {
				continue
			}
			g := t.dh[j]
			t.gB1[j] += g
			gw := t.gW1[j*m.In : (j+1)*m.In]
			for i, xv := range e.x {
				gw[i] += g * xv
			}
		}
	}
	scale := lr / float32(len(batch))
	upd := func(w, g, v []float32) {
		for i := range w {
			v[i] = 0.9*v[i] - scale*g[i]
			w[i] += v[i]
		}
	}
	upd(m.W1, t.gW1, t.vW1)
	upd(m.B1, t.gB1, t.vB1)
	upd(m.W2, t.gW2, t.vW2)
	upd(m.B2, t.gB2, t.vB2)
	return loss / float64(len(batch))
}
