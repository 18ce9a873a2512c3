package vision

import (
	"context"
	"os"
	"strings"
	"testing"
)

// TestBlurredPrint reads two blurred phone photos of newspaper puzzles
// from the Wicht train split (testdata/wicht/README.md): in image17 a 5
// by the photo's dark edge, whose box the blurred lines once stretched to
// the cell's corner (read as no digit); in image199 a 2 printed paler
// than the thick lines, once taken for pencil marks. image17 reads
// exactly; image199 loses one other cell (an 8 at 47, which the print
// classifier takes for no symbol and the handwriting one, under handFace,
// has read so since it learnt smudges), so it must read all but that one
// and stay unsure.
func TestBlurredPrint(t *testing.T) {
	for _, tt := range []struct {
		name  string
		cell  int // the cell once misread
		loses int // a cell allowed to read empty, the grid unsure (-1: none)
	}{
		{"image17", 80, -1},
		{"image199", 39, 47},
	} {
		data, err := os.ReadFile("testdata/wicht/" + tt.name + ".jpg")
		if err != nil {
			t.Fatal(err)
		}
		dat, err := os.ReadFile("testdata/wicht/" + tt.name + ".dat")
		if err != nil {
			t.Fatal(err)
		}
		var want strings.Builder
		for _, l := range strings.Split(strings.TrimSpace(string(dat)), "\n")[2:] {
			for _, f := range strings.Fields(l) {
				want.WriteString(strings.ReplaceAll(f, "0", "."))
			}
		}
		res, err := ReadBytes(context.Background(), data)
		if err != nil {
			t.Fatalf("ReadBytes(%s): %v", tt.name, err)
		}
		got := res.String()
		if tt.loses >= 0 && got[tt.loses] == '.' && got[:tt.loses]+want.String()[tt.loses:tt.loses+1]+got[tt.loses+1:] == want.String() {
			if res.Sure() {
				t.Errorf("%s: cell %d read empty, yet the reading is sure", tt.name, tt.loses)
			}
			got = want.String()
		}
		if got != want.String() {
			t.Errorf("%s: read\n%s\nwant\n%s", tt.name, got, want.String())
		}
		if d := res.Cells[tt.cell].Digit; byte('0'+d) != want.String()[tt.cell] {
			t.Errorf("%s: cell %d read %d, want %c", tt.name, tt.cell, d, want.String()[tt.cell])
		}
		for i, c := range res.Cells {
			if c.Entry {
				t.Errorf("%s: cell %d taken for a player's entry, want print", tt.name, i)
			}
		}
	}
}
