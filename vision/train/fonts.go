package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/gobolditalic"
	"golang.org/x/image/font/gofont/goitalic"
	"golang.org/x/image/font/gofont/gomedium"
	"golang.org/x/image/font/gofont/gomediumitalic"
	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/gofont/gomonobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/gofont/gosmallcaps"
	"golang.org/x/image/font/opentype"
)

// trainFontGlobs are the font files the classifier learns from, besides Go's
// own. They come from Debian packages (fonts-dejavu-core, fonts-liberation,
// fonts-freefont-ttf, fonts-urw-base35). The test set is drawn in other
// fonts (Noto, Roboto, Open Sans, Carlito, Caladea) so its figures are for
// fonts the classifier never saw.
var trainFontGlobs = []string{
	"/usr/share/fonts/truetype/dejavu/DejaVu*.ttf",
	"/usr/share/fonts/truetype/liberation/Liberation*.ttf",
	"/usr/share/fonts/truetype/freefont/Free*.ttf",
	"/usr/share/fonts/opentype/urw-base35/*.otf",
	"/usr/share/texmf/fonts/opentype/public/tex-gyre/texgyre*.otf",
	"/usr/share/texmf/fonts/opentype/public/lm/lm[rsm][oa]*10-*.otf",
	"/usr/share/fonts/truetype/lato/Lato-*.ttf",
	"/usr/share/fonts/opentype/linux-libertine/*.otf",
	"/usr/share/fonts/opentype/cantarell/*.otf",
	"/usr/share/fonts/opentype/ebgaramond/EBGaramond12-*.otf",
	"/usr/share/fonts/truetype/gentiumplus/*.ttf",
	"/usr/share/fonts/truetype/hack/*.ttf",
	"/usr/share/fonts/truetype/inconsolata/*.ttf",
}

// handFontGlobs are handwriting-style fonts, also from Debian (all under
// the SIL Open Font License: fonts-comic-neue, fonts-humor-sans,
// fonts-klee, fonts-kristi, fonts-cabinsketch, fonts-dancingscript,
// fonts-breip, fonts-bwht, fonts-dkg-handwriting, fonts-seto,
// fonts-lobster, fonts-leckerli-one, fonts-ecolier-court; fonts-kiloji is under a BSD
// licence), drawn (with -mnist) for digits and pencil marks only. The
// held-out handwriting pictures (vision/gen -handwriting) use others:
// Kaushan Script and three more of the Because We Had To faces.
var handFontGlobs = []string{
	"/usr/share/fonts/opentype/comic-neue/ComicNeue-*.otf",
	"/usr/share/fonts/truetype/humor-sans/Humor-Sans.ttf",
	"/usr/share/fonts/truetype/klee/KleeOne-*.ttf",
	"/usr/share/fonts/truetype/kristi/Kristi.ttf",
	"/usr/share/fonts/truetype/cabinsketch/CabinSketch-*.ttf",
	"/usr/share/fonts/opentype/dancingscript/DancingScript-*.otf",
	"/usr/share/fonts/truetype/breip/*.ttf",
	"/usr/share/fonts/opentype/bwht/BecauseWe[BC]*-Regular.otf",
	"/usr/share/fonts/truetype/fifthhorseman/dkg*.ttf",
	"/usr/share/fonts/truetype/seto/setofont.ttf",
	"/usr/share/fonts/truetype/kiloji/kiloji.ttf",
	"/usr/share/fonts/truetype/kiloji/kiloji_b.ttf",
	"/usr/share/fonts/opentype/lobster/lobster.otf",
	"/usr/share/fonts/truetype/leckerli-one/LeckerliOne-Regular.ttf",
	"/usr/share/fonts/truetype/ecolier-court/Ecolier-court.ttf",
}

// skipFonts have no usable digits (symbols, dingbats, maths) or are
// scripts no puzzle is printed in.
var skipFonts = []string{"D050000L", "StandardSymbols", "Z003", "MathTeX", "ExtraLight", "Hairline", "Thin", "math", "Initials", "Display"}

type namedFont struct {
	name string
	font *opentype.Font
	// hand is set for a handwriting-style font.
	hand bool
}

// loadFonts loads Go's fonts, those of trainFontGlobs and, with hand,
// those of handFontGlobs.
func loadFonts(hand bool) ([]namedFont, error) {
	var out []namedFont
	for name, ttf := range map[string][]byte{
		"GoRegular": goregular.TTF, "GoBold": gobold.TTF, "GoItalic": goitalic.TTF,
		"GoBoldItalic": gobolditalic.TTF, "GoMedium": gomedium.TTF, "GoMediumItalic": gomediumitalic.TTF,
		"GoMono": gomono.TTF, "GoMonoBold": gomonobold.TTF, "GoSmallcaps": gosmallcaps.TTF,
	} {
		f, err := opentype.Parse(ttf)
		if err != nil {
			return nil, fmt.Errorf("parse %s: %w", name, err)
		}
		out = append(out, namedFont{name: name, font: f})
	}
	var files []string
	for _, g := range trainFontGlobs {
		m, _ := filepath.Glob(g)
		files = append(files, m...)
	}
	handFiles := map[string]bool{}
	for _, g := range handFontGlobs {
		if !hand {
			break
		}
		m, _ := filepath.Glob(g)
		for _, f := range m {
			handFiles[f] = true
		}
		files = append(files, m...)
	}
	sort.Strings(files)
	missing := 0
next:
	for _, path := range files {
		for _, s := range skipFonts {
			if strings.Contains(path, s) {
				continue next
			}
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		f, err := opentype.Parse(data)
		if err != nil {
			fmt.Fprintf(os.Stderr, "skip %s: %v\n", path, err)
			missing++
			continue
		}
		out = append(out, namedFont{filepath.Base(path), f, handFiles[path]})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	if len(files) == 0 {
		fmt.Fprintln(os.Stderr, "warning: only Go's fonts found; install the Debian font packages listed in vision/train/fonts.go to train as the committed model was")
	}
	return out, nil
}
