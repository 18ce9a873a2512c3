package vision

import (
	"encoding/binary"
	"strings"
	"testing"
)

// TestModelFile: weights survive MarshalBinary and UnmarshalBinary; a
// digits-only file of the first format reads as ten classes, whose
// Predict leaves the letters at 0; damaged files are refused.
func TestModelFile(t *testing.T) {
	m := NewMLP(3, 2)
	for i := range m.W1 {
		m.W1[i] = float32(i) / 7
	}
	for i := range m.W2 {
		m.W2[i] = float32(i%5) - 2
	}
	m.B2[12] = 3
	data, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var got MLP
	if err := got.UnmarshalBinary(data); err != nil {
		t.Fatal(err)
	}
	if got.Classes != NumClasses || got.W2[7] != m.W2[7] || got.B2[12] != 3 || got.W1[5] != m.W1[5] {
		t.Errorf("round trip: got %+v, want %+v", got, m)
	}

	// The first format: "SBV1", inputs, hidden units, then ten classes' weights.
	old := append([]byte(modelMagic1), 0, 0, 0, 0, 0, 0, 0, 0)
	binary.LittleEndian.PutUint32(old[4:], 3)
	binary.LittleEndian.PutUint32(old[8:], 2)
	old = append(old, make([]byte, 4*(3*2+2+10*2+10))...)
	if err := got.UnmarshalBinary(old); err != nil {
		t.Fatalf("first format: %v", err)
	}
	var p [NumClasses]float32
	got.Predict([]float32{1, 2, 3}, make([]float32, 2), &p)
	for k := range p {
		want := float32(0)
		if k < 10 {
			want = 0.1
		}
		if d := p[k] - want; d > 1e-6 || d < -1e-6 {
			t.Errorf("first format: p[%d] = %v, want %v", k, p[k], want)
		}
	}

	for _, tt := range []struct {
		name string
		data []byte
		says string
	}{
		{"not a model", []byte("PNG..........."), "not a model file"},
		{"cut short", data[:len(data)-1], "bytes of weights"},
		{"no class count", data[:12], "cut short"},
		{"too many classes", func() []byte {
			d := append([]byte(nil), data...)
			binary.LittleEndian.PutUint32(d[12:], NumClasses+1)
			return d
		}(), "out of range"},
	} {
		if err := new(MLP).UnmarshalBinary(tt.data); err == nil || !strings.Contains(err.Error(), tt.says) {
			t.Errorf("%s: UnmarshalBinary = %v, want an error saying %q", tt.name, err, tt.says)
		}
	}
}

// TestEmbeddedModels: the three classifiers load, take the reader's input, and
// have the classes the reader expects of them; together they stay under
// 1 MB.
func TestEmbeddedModels(t *testing.T) {
	for _, tt := range []struct {
		name    string
		load    func() (*MLP, error)
		classes int
	}{
		{"model.bin", embedded, 17},
		{"modelhand.bin", embeddedHand, 17},
		{"model25.bin", embedded25, NumClasses},
	} {
		m, err := tt.load()
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if m.In != NumFeatures || m.Classes != tt.classes {
			t.Errorf("%s: %d inputs, %d classes; want %d, %d", tt.name, m.In, m.Classes, NumFeatures, tt.classes)
		}
	}
	if size := len(modelBin) + len(modelHandBin) + len(model25Bin); size >= 1<<20 {
		t.Errorf("embedded models: %d bytes, want under 1 MB", size)
	}
}
