package render

import (
	"fmt"
	"image/color"
	"strings"
)

// Theme is a colour scheme for images.
type Theme uint8

// The themes. Light suits Discord's light mode and printing; Dark sits well
// on Discord's default dark background.
const (
	Light Theme = iota
	Dark
)

// String returns the theme's name, as ParseTheme reads it.
func (t Theme) String() string {
	switch t {
	case Light:
		return "light"
	case Dark:
		return "dark"
	}
	return fmt.Sprintf("Theme(%d)", uint8(t))
}

// ParseTheme reads a theme name: "light" or "dark".
func ParseTheme(name string) (Theme, error) {
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "light", "":
		return Light, nil
	case "dark":
		return Dark, nil
	}
	return 0, fmt.Errorf("unknown theme %q: use light or dark", name)
}

// The images are paletted, so that encoding stays fast: every colour a
// render uses is in one palette per theme. Anti-aliased edges (glyphs and
// discs) need the shades between an ink and the paper under it, so the
// palette holds, for every ink and every paper, aaLevels-1 blends. Drawing
// looks up the blend from the pixel already there, the ink and the
// coverage, in a table built once.

// Papers: colours that ink is drawn over.
const (
	pBG = iota
	pClash
	pDiffer
	pTarget
	pCause
	pTint
	pDiscGreen
	pDiscRed
	numPapers
)

// Inks: colours drawn with coverage (anti-aliased).
const (
	iGiven = iota
	iEntry
	iWrong
	iPencil
	iDiscGreen
	iDiscRed
	numInks
)

// aaLevels is the number of coverage steps, full ink included; 5 keeps
// digit edges smooth and the palette under 256 colours.
const aaLevels = 5

// Solid colours drawn without anti-aliasing (axis-aligned lines), after the
// papers and inks in the palette.
const (
	sThin = iota
	sThick
	numSolids
)

// themeColors is a theme's colour choice.
type themeColors struct {
	papers [numPapers]color.RGBA
	inks   [numInks]color.RGBA
	solids [numSolids]color.RGBA
}

func rgb(hex uint32) color.RGBA {
	return color.RGBA{uint8(hex >> 16), uint8(hex >> 8), uint8(hex), 0xff}
}

var themeSpecs = [...]themeColors{
	Light: {
		papers: [numPapers]color.RGBA{
			pBG:        rgb(0xffffff),
			pClash:     rgb(0xf8c9c6),
			pDiffer:    rgb(0xffe49a),
			pTarget:    rgb(0xc4ddff),
			pCause:     rgb(0xcdeccf),
			pTint:      rgb(0xf0ece0),
			pDiscGreen: rgb(0x6fcf7c),
			pDiscRed:   rgb(0xf28b82),
		},
		inks: [numInks]color.RGBA{
			iGiven:     rgb(0x15181c),
			iEntry:     rgb(0x1a5fd0),
			iWrong:     rgb(0xc62828),
			iPencil:    rgb(0x5f6670),
			iDiscGreen: rgb(0x6fcf7c),
			iDiscRed:   rgb(0xf28b82),
		},
		solids: [numSolids]color.RGBA{
			sThin:  rgb(0xb9bec6),
			sThick: rgb(0x2b3036),
		},
	},
	Dark: {
		papers: [numPapers]color.RGBA{
			pBG:        rgb(0x1e2124),
			pClash:     rgb(0x6a2a2c),
			pDiffer:    rgb(0x66521a),
			pTarget:    rgb(0x1f4674),
			pCause:     rgb(0x1f5230),
			pTint:      rgb(0x323844),
			pDiscGreen: rgb(0x3aa55d),
			pDiscRed:   rgb(0xd2504a),
		},
		inks: [numInks]color.RGBA{
			iGiven:     rgb(0xf2f3f5),
			iEntry:     rgb(0x7db4ff),
			iWrong:     rgb(0xff7a72),
			iPencil:    rgb(0xa4abb6),
			iDiscGreen: rgb(0x3aa55d),
			iDiscRed:   rgb(0xd2504a),
		},
		solids: [numSolids]color.RGBA{
			sThin:  rgb(0x464b53),
			sThick: rgb(0xb8bec8),
		},
	},
}

// palette is a theme built for drawing.
type palette struct {
	colors color.Palette
	// paper[p] and ink[i] are the palette indexes of the pure colours, and
	// solid[s] of the line colours.
	paper [numPapers]uint8
	ink   [numInks]uint8
	solid [numSolids]uint8
	// under[idx] is the paper (a p* constant) a palette colour was drawn
	// over, itself for a paper (papers come first, so a paper's constant is
	// also its index), so ink drawn on an anti-aliased edge blends with that
	// paper.
	under [256]uint8
	// blend[idx][ink][level] is the index of ink at coverage level/aaLevels
	// over the pixel idx.
	blend [256][numInks][aaLevels + 1]uint8
}

var palettes = [...]*palette{Light: newPalette(themeSpecs[Light]), Dark: newPalette(themeSpecs[Dark])}

func newPalette(tc themeColors) *palette {
	p := &palette{}
	add := func(c color.RGBA) uint8 {
		p.colors = append(p.colors, c)
		return uint8(len(p.colors) - 1)
	}
	for i, c := range tc.papers {
		p.paper[i] = add(c)
		p.under[p.paper[i]] = uint8(i)
	}
	for i, c := range tc.inks {
		// An ink that is also a paper (the discs) uses the paper's entry,
		// so ink drawn over a disc blends with the disc.
		p.ink[i] = 255
		for pi, pc := range tc.papers {
			if pc == c {
				p.ink[i] = p.paper[pi]
			}
		}
		if p.ink[i] == 255 {
			p.ink[i] = add(c)
			p.under[p.ink[i]] = pBG
		}
	}
	for i, c := range tc.solids {
		p.solid[i] = add(c)
		p.under[p.solid[i]] = pBG
	}
	// mixes[paper][ink][level]
	var mixes [numPapers][numInks][aaLevels + 1]uint8
	for pi, pc := range tc.papers {
		for ii, ic := range tc.inks {
			mixes[pi][ii][0] = p.paper[pi]
			mixes[pi][ii][aaLevels] = p.ink[ii]
			for l := 1; l < aaLevels; l++ {
				idx := add(mix(pc, ic, l, aaLevels))
				p.under[idx] = uint8(pi)
				mixes[pi][ii][l] = idx
			}
		}
	}
	if len(p.colors) > 256 {
		panic("render: palette has more than 256 colours")
	}
	for idx := range p.colors {
		paper := p.under[idx]
		for ii := 0; ii < numInks; ii++ {
			p.blend[idx][ii] = mixes[paper][ii]
			// Coverage 0 keeps whatever is there.
			p.blend[idx][ii][0] = uint8(idx)
		}
	}
	return p
}

// mix returns a blended l/n of the way from a to b.
func mix(a, b color.RGBA, l, n int) color.RGBA {
	f := func(x, y uint8) uint8 { return uint8((int(x)*(n-l) + int(y)*l + n/2) / n) }
	return color.RGBA{f(a.R, b.R), f(a.G, b.G), f(a.B, b.B), 0xff}
}
