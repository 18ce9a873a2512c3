package vision

import (
	_ "embed"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"sync"
)

// NumClasses is the most outputs a classifier has: 0 for "not a symbol",
// 1-9 for the digits, then 10-34 for the letters A-Y (16x16 grids write
// 10-16 as A-G; 25x25 grids write their symbols A-Y, or 1-9 then A-P),
// and 35 for the figure 0 (the second figure of a 10, in grids written
// in numbers). The main classifier has 17 (up to G); the other, for
// 25x25 grids and numbers, all of them.
const NumClasses = 36

// classZero is the class of the figure 0.
const classZero = 35

// MLP is the digit classifier: one hidden layer of ReLU units and a softmax
// over NumClasses. A multilayer perceptron is enough for printed digits once
// the cell is cut out and scaled the same way every time, trains in minutes
// in plain Go on two cores, and keeps the weights small.
type MLP struct {
	In, Hidden int
	// Classes is the number of outputs, at most NumClasses: 10 for a model
	// of digits only.
	Classes int
	W1      []float32 // Hidden rows of In
	B1      []float32
	W2      []float32 // NumClasses rows of Hidden
	B2      []float32
}

// NewMLP returns an MLP with zero weights and NumClasses outputs.
func NewMLP(in, hidden int) *MLP { return newMLP(in, hidden, NumClasses) }

// NewClassifier returns an MLP with zero weights and the given number of
// outputs (2 to NumClasses): 17 for the digits and A-G, NumClasses for
// A-Y and 0 too.
func NewClassifier(in, hidden, classes int) *MLP {
	return newMLP(in, hidden, min(max(classes, 2), NumClasses))
}

func newMLP(in, hidden, classes int) *MLP {
	return &MLP{
		In: in, Hidden: hidden, Classes: classes,
		W1: make([]float32, in*hidden), B1: make([]float32, hidden),
		W2: make([]float32, classes*hidden), B2: make([]float32, classes),
	}
}

// Predict writes the class probabilities of x into p (0 past Classes). h
// is scratch space of len Hidden (the hidden activations are left there).
func (m *MLP) Predict(x []float32, h []float32, p *[NumClasses]float32) {
	for j := 0; j < m.Hidden; j++ {
		w := m.W1[j*m.In : (j+1)*m.In : (j+1)*m.In]
		s := m.B1[j]
		for i, xv := range x[:len(w)] {
			s += w[i] * xv
		}
		if s < 0 {
			s = 0
		}
		h[j] = s
	}
	maxv := float32(math.Inf(-1))
	for k := m.Classes; k < NumClasses; k++ {
		p[k] = 0
	}
	for k := 0; k < m.Classes; k++ {
		w := m.W2[k*m.Hidden : (k+1)*m.Hidden : (k+1)*m.Hidden]
		s := m.B2[k]
		for j, hv := range h[:len(w)] {
			s += w[j] * hv
		}
		p[k] = s
		maxv = max(maxv, s)
	}
	var sum float32
	for k := range p[:m.Classes] {
		p[k] = float32(math.Exp(float64(p[k] - maxv)))
		sum += p[k]
	}
	for k := range p[:m.Classes] {
		p[k] /= sum
	}
}

// Model files start "SBV1" (ten classes: digits only) or "SBV2" (the
// number of classes follows the sizes).
const (
	modelMagic1 = "SBV1"
	modelMagic2 = "SBV2"
)

// MarshalBinary encodes the weights: a magic, the sizes (inputs, hidden
// units, classes), then float32s, little-endian.
func (m *MLP) MarshalBinary() ([]byte, error) {
	n := len(m.W1) + len(m.B1) + len(m.W2) + len(m.B2)
	out := make([]byte, 0, 16+4*n)
	out = append(out, modelMagic2...)
	out = binary.LittleEndian.AppendUint32(out, uint32(m.In))
	out = binary.LittleEndian.AppendUint32(out, uint32(m.Hidden))
	out = binary.LittleEndian.AppendUint32(out, uint32(m.Classes))
	for _, s := range [][]float32{m.W1, m.B1, m.W2, m.B2} {
		for _, v := range s {
			out = binary.LittleEndian.AppendUint32(out, math.Float32bits(v))
		}
	}
	return out, nil
}

// UnmarshalBinary decodes what MarshalBinary wrote.
func (m *MLP) UnmarshalBinary(data []byte) error {
	if len(data) < 12 || (string(data[:4]) != modelMagic1 && string(data[:4]) != modelMagic2) {
		return errors.New("vision: not a model file")
	}
	v2 := string(data[:4]) == modelMagic2
	in := int(binary.LittleEndian.Uint32(data[4:]))
	hidden := int(binary.LittleEndian.Uint32(data[8:]))
	classes := 10
	data = data[12:]
	if v2 {
		if len(data) < 4 {
			return errors.New("vision: model file cut short")
		}
		classes = int(binary.LittleEndian.Uint32(data))
		data = data[4:]
	}
	if in <= 0 || hidden <= 0 || in > 1<<16 || hidden > 1<<16 || classes < 2 || classes > NumClasses {
		return fmt.Errorf("vision: model sizes %d, %d, %d out of range", in, hidden, classes)
	}
	*m = *newMLP(in, hidden, classes)
	want := 4 * (len(m.W1) + len(m.B1) + len(m.W2) + len(m.B2))
	if len(data) != want {
		return fmt.Errorf("vision: model holds %d bytes of weights, want %d", len(data), want)
	}
	for _, s := range [][]float32{m.W1, m.B1, m.W2, m.B2} {
		for i := range s {
			s[i] = math.Float32frombits(binary.LittleEndian.Uint32(data))
			data = data[4:]
		}
	}
	return nil
}

//go:embed model.bin
var modelBin []byte

var (
	modelOnce sync.Once
	model     *MLP
	modelErr  error
)

//go:embed model25.bin
var model25Bin []byte

var (
	model25Once sync.Once
	model25     *MLP
	model25Err  error
)

// embedded25 returns the classifier for 25x25 grids, which knows A-Y too.
func embedded25() (*MLP, error) {
	model25Once.Do(func() {
		model25 = new(MLP)
		model25Err = model25.UnmarshalBinary(model25Bin)
		if model25Err == nil && model25.In != NumFeatures {
			model25Err = fmt.Errorf("vision: embedded 25x25 model takes %d inputs, the reader makes %d", model25.In, NumFeatures)
		}
	})
	return model25, model25Err
}

//go:embed modelhand.bin
var modelHandBin []byte

var (
	modelHandOnce sync.Once
	modelHand     *MLP
	modelHandErr  error
)

// embeddedHand returns the classifier that also learnt handwriting (go
// run ./vision/train -mnist DIR -hidden 192 -n 250000 -o
// vision/modelhand.bin), which reads grids up to 9x9 first (see Read).
func embeddedHand() (*MLP, error) {
	modelHandOnce.Do(func() {
		modelHand = new(MLP)
		modelHandErr = modelHand.UnmarshalBinary(modelHandBin)
		if modelHandErr == nil && modelHand.In != NumFeatures {
			modelHandErr = fmt.Errorf("vision: embedded handwriting model takes %d inputs, the reader makes %d", modelHand.In, NumFeatures)
		}
	})
	return modelHand, modelHandErr
}

// embedded returns the classifier built into the package.
func embedded() (*MLP, error) {
	modelOnce.Do(func() {
		model = new(MLP)
		modelErr = model.UnmarshalBinary(modelBin)
		if modelErr == nil && model.In != NumFeatures {
			modelErr = fmt.Errorf("vision: embedded model takes %d inputs, the reader makes %d", model.In, NumFeatures)
		}
	})
	return model, modelErr
}
