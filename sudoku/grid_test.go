package sudoku

import "testing"

func TestShapeFor(t *testing.T) {
	tests := []struct {
		n    int
		want Shape
		ok   bool
	}{
		{4, Shape{2, 2}, true},
		{6, Shape{2, 3}, true},
		{8, Shape{2, 4}, true},
		{9, Shape{3, 3}, true},
		{12, Shape{3, 4}, true},
		{16, Shape{4, 4}, true},
		{25, Shape{5, 5}, true},
		{7, Shape{}, false},
		{26, Shape{}, false},
	}
	for _, tt := range tests {
		got, ok := ShapeFor(tt.n)
		if got != tt.want || ok != tt.ok {
			t.Errorf("ShapeFor(%d) = %v, %v; want %v, %v", tt.n, got, ok, tt.want, tt.ok)
		}
	}
}

func TestGeometry(t *testing.T) {
	for _, s := range []Shape{Shape4, Shape6, Shape8, Shape9, Shape12, Shape16, Shape25} {
		geo := s.Geometry()
		n := s.N()
		if len(geo.UnitCells) != 3*n {
			t.Fatalf("%v: %d units, want %d", s, len(geo.UnitCells), 3*n)
		}
		for u, cells := range geo.UnitCells {
			if len(cells) != n {
				t.Errorf("%v: unit %v has %d cells, want %d", s, geo.Units[u], len(cells), n)
			}
		}
		wantPeers := 3*(n-1) - (s.BoxRows - 1) - (s.BoxCols - 1)
		for c, p := range geo.Peers {
			if len(p) != wantPeers {
				t.Fatalf("%v: cell %d has %d peers, want %d", s, c, len(p), wantPeers)
			}
		}
	}
}

func TestAlphabetValueIgnoresCase(t *testing.T) {
	a := Alphabet("AELMNOSTW")
	if got := a.Value('m'); got != 4 {
		t.Errorf("Value('m') = %d, want 4", got)
	}
	if got := a.Symbol(9); got != 'W' {
		t.Errorf("Symbol(9) = %q, want 'W'", got)
	}
}
