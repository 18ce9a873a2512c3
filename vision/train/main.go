// Command train makes the digit classifier that package vision embeds: it
// draws digits in many fonts with augmentation, and real handwritten digits
// (MNIST, with -mnist), cuts them out exactly as the reader does, and fits
// a small neural network. The result depends only on the seed, the fonts
// installed and the handwriting given.
//
//	go run ./vision/train -o vision/model.bin   # print (model.bin)
//	go run ./vision/train -o vision/modelhand.bin -hidden 256 -n 250000 -epochs 8 -hand 0.2 -handfont 0.15 -mnist DIR   # handwriting too (modelhand.bin)
//
// DIR is MNIST's data folder (see package vision/internal/mnist); with it
// the handwriting-style fonts of fonts.go are drawn too. With -handfont
// the handwritten digits and the handwriting faces' are warped as
// different hands write them (slant, squeeze, turn, elastic bends), and
// faint smudges are among the cells that are no symbol.
package main

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"time"

	"sudokubot/vision"
)

func main() {
	seed := flag.Uint64("seed", 1, "random seed")
	n := flag.Int("n", 200000, "training cells")
	hidden := flag.Int("hidden", 128, "hidden units")
	epochs := flag.Int("epochs", 6, "passes over the training cells")
	out := flag.String("o", "vision/model.bin", "where to write the weights")
	classes := flag.Int("classes", 17, "outputs: 17 for the digits and A-G (vision/model.bin), 36 for A-Y and 0 too (vision/model25.bin, for 25x25 grids and numbers)")
	sheet := flag.String("sheet", "", "write a PNG sheet of synthetic cells here and stop")
	mnistDir := flag.String("mnist", "", "a folder with MNIST's gzipped IDX files (see package vision/internal/mnist): its train split's handwritten digits are drawn in -hand of the digit cells")
	handShare := flag.Float64("hand", 0.2, "the share of digit cells written by hand (with -mnist)")
	photoShare := flag.Float64("photo", 0, "the share of cells drawn as a blurred, dim phone photo of newspaper print leaves them (vision/model.bin: 0.3)")
	handFontShare := flag.Float64("handfont", 0, "the share of digit cells in a handwriting-style font (with -mnist; 0: as often as any font), whose digits and the handwritten ones are then warped as different hands write (slant, squeeze, turn, elastic bends)")
	flag.Parse()
	var hand [10][]*glyphMask
	if *mnistDir != "" {
		var err error
		if hand, err = handDigits(*mnistDir); err != nil {
			fmt.Fprintln(os.Stderr, "train:", err)
			os.Exit(1)
		}
	}
	if *sheet != "" {
		fonts, err := loadFonts(*mnistDir != "")
		if err == nil {
			err = dumpSamples(&synth{rng: rand.New(rand.NewPCG(*seed, 1)), fonts: fonts, glyphs: map[glyphKey]*glyphMask{}, hand: hand, handShare: *handShare, photoShare: *photoShare, handFontShare: *handFontShare}, *sheet)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "train:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(*seed, *n, *hidden, *epochs, *classes, *out, hand, *handShare, *photoShare, *handFontShare); err != nil {
		fmt.Fprintln(os.Stderr, "train:", err)
		os.Exit(1)
	}
}

type example struct {
	x     []float32
	label int
}

func run(seed uint64, n, hidden, epochs, classes int, out string, hand [10][]*glyphMask, handShare, photoShare, handFontShare float64) error {
	fonts, err := loadFonts(handDigitCount(hand) > 0)
	if err != nil {
		return err
	}
	handFonts, handDigits := 0, handDigitCount(hand)
	for _, f := range fonts {
		if f.hand {
			handFonts++
		}
	}
	fmt.Printf("%d fonts (%d handwriting), %d handwritten digits\n", len(fonts), handFonts, handDigits)
	start := time.Now()
	s := &synth{rng: rand.New(rand.NewPCG(seed, 1)), fonts: fonts, glyphs: map[glyphKey]*glyphMask{}, hand: hand, handShare: handShare, photoShare: photoShare, handFontShare: handFontShare}
	train := makeSet(s, n, classes)
	val := makeSet(s, n/10, classes)
	fmt.Printf("made %d + %d cells in %v\n", len(train), len(val), time.Since(start).Round(time.Millisecond))

	m := vision.NewClassifier(vision.NumFeatures, hidden, classes)
	rng := rand.New(rand.NewPCG(seed, 2))
	initWeights(m, rng)
	t := newTrainer(m)
	order := make([]int, len(train))
	for i := range order {
		order[i] = i
	}
	for ep := 0; ep < epochs; ep++ {
		lr := float32(0.05 * math.Pow(0.6, float64(ep)))
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		loss := 0.0
		for b := 0; b+32 <= len(order); b += 32 {
			loss += t.step(train, order[b:b+32], lr)
		}
		acc, sureErr, sure := evaluate(m, val)
		fmt.Printf("epoch %d: loss %.4f, validation accuracy %.4f%%, %d/%d sure cells wrong (%v)\n",
			ep+1, loss/float64(len(order)/32), 100*acc, sureErr, sure, time.Since(start).Round(time.Second))
	}
	data, err := m.MarshalBinary()
	if err != nil {
		return err
	}
	if err := os.WriteFile(out, data, 0o644); err != nil {
		return err
	}
	fmt.Printf("wrote %s (%d bytes)\n", out, len(data))
	return nil
}

// makeSet makes n cells of classes 0 to classes-1: digits, letters (3 in
// 10 of the cells; 6 in 10 when there are 25 of them, for 25x25 grids),
// the figure 0 (with 36 classes) and, 1 in 8, not a symbol.
func makeSet(s *synth, n, classes int) []example {
	set := make([]example, 0, n)
	letterShare := 3
	if classes > 17 {
		letterShare = 6
	}
	letters := min(classes, 35) - 10 // A-G, or A-Y
	for len(set) < n {
		label := 1 + s.rng.IntN(9)
		if s.rng.IntN(10) < letterShare {
			label = 10 + s.rng.IntN(letters) // a letter of a 16x16 or 25x25
		} else if classes > 35 && s.rng.IntN(10) == 0 {
			label = 35 // the 0 of a 10
		}
		if notSymbol := 8; s.rng.IntN(notSymbol) == 0 || s.handFontShare > 0 && s.rng.IntN(notSymbol) == 0 {
			// (1 in 8; nearly 1 in 4 for the handwriting model, which
			// reads the faint cells, smudges among them)
			label = 0
		}
		img, contrast := s.sample(label)
		x, found := vision.CellFeatures(img, contrast)
		if !found {
			continue // the reader would call it empty: nothing to learn
		}
		set = append(set, example{x, label})
	}
	return set
}

func evaluate(m *vision.MLP, set []example) (acc float64, sureWrong, sure int) {
	h := make([]float32, m.Hidden)
	var p [vision.NumClasses]float32
	right := 0
	for _, e := range set {
		m.Predict(e.x, h, &p)
		best := 0
		for k := range p {
			if p[k] > p[best] {
				best = k
			}
		}
		if best == e.label {
			right++
		}
		if float64(p[best]) >= vision.SureAt {
			sure++
			if best != e.label {
				sureWrong++
			}
		}
	}
	return float64(right) / float64(len(set)), sureWrong, sure
}

// handDigitCount counts the handwritten digits given.
func handDigitCount(hand [10][]*glyphMask) int {
	n := 0
	for _, h := range hand {
		n += len(h)
	}
	return n
}
