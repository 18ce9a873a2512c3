package mnist

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeIDX writes a gzipped IDX file of bytes with magic and dims.
func writeIDX(t *testing.T, path string, magic uint32, dims []uint32, data []byte) {
	t.Helper()
	var raw bytes.Buffer
	binary.Write(&raw, binary.BigEndian, magic)
	for _, d := range dims {
		binary.Write(&raw, binary.BigEndian, d)
	}
	raw.Write(data)
	var z bytes.Buffer
	w := gzip.NewWriter(&z)
	w.Write(raw.Bytes())
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, z.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	pix := make([]byte, 2*Side*Side)
	pix[5] = 200             // first digit
	pix[Side*Side+700] = 255 // second
	writeIDX(t, filepath.Join(dir, "t10k-images-idx3-ubyte.gz"), 0x803, []uint32{2, Side, Side}, pix)
	writeIDX(t, filepath.Join(dir, "t10k-labels-idx1-ubyte.gz"), 0x801, []uint32{2}, []byte{7, 3})
	got, err := Load(dir, "t10k")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Label != 7 || got[1].Label != 3 || got[0].Pix[5] != 200 || got[1].Pix[700] != 255 || len(got[1].Pix) != Side*Side {
		t.Errorf("Load = %d digits, labels %d %d", len(got), got[0].Label, got[1].Label)
	}
}

func TestLoadErrors(t *testing.T) {
	for _, tt := range []struct {
		name   string
		labels []byte
		magic  uint32
		dims   []uint32
		want   string
	}{
		{"label over 9", []byte{12}, 0x803, []uint32{1, Side, Side}, "label 12"},
		{"wrong magic", []byte{1}, 0x801, []uint32{1, Side, Side}, "magic number"},
		{"wrong side", []byte{1}, 0x803, []uint32{1, 20, 20}, "images [1 20 20]"},
		{"short file", []byte{1}, 0x803, []uint32{2, Side, Side}, "unexpected EOF"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			writeIDX(t, filepath.Join(dir, "train-images-idx3-ubyte.gz"), tt.magic, tt.dims, make([]byte, Side*Side))
			writeIDX(t, filepath.Join(dir, "train-labels-idx1-ubyte.gz"), 0x801, []uint32{uint32(len(tt.labels))}, tt.labels)
			_, err := Load(dir, "train")
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Load = %v, want an error saying %q", err, tt.want)
			}
		})
	}
	if _, err := Load(t.TempDir(), "train"); err == nil {
		t.Error("Load of an empty folder: no error")
	}
}
