package commands

import (
	"strings"
	"testing"
)

func TestLayoutLines(t *testing.T) {
	blocks := []Block{
		Container{Accent: 0x2B7A78, Blocks: []Block{
			TextBlock{Text: "## Race #7"},
			Separator{},
			Section{Texts: []string{"**alice** 41/51", "0 mistakes"}, Button: &Button{Label: "Watch", CustomID: "w"}},
			Section{Texts: []string{"**bob** 12/51"}, Thumbnail: &Media{URL: "attachment://bob.png"}},
			Gallery{Items: []Media{{URL: "attachment://board.png", Description: "the grid"}}},
		}},
		Separator{Invisible: true},
		&ActionRow{Buttons: []Button{{Label: "Leave", CustomID: "l"}}},
	}
	want := strings.Join([]string{
		"┃ (#2b7a78)",
		"┃ ## Race #7",
		"┃ ────────",
		"┃ **alice** 41/51",
		"┃ 0 mistakes",
		"┃   [Watch]",
		"┃ **bob** 12/51",
		"┃   [image bob.png]",
		"┃ [image board.png] the grid",
		"",
		"[Leave]",
	}, "\n")
	if got := strings.Join(LayoutLines(blocks), "\n"); got != want {
		t.Errorf("LayoutLines =\n%s\nwant\n%s", got, want)
	}
	var labels []string
	for _, b := range LayoutButtons(blocks) {
		labels = append(labels, b.Label)
	}
	if got := strings.Join(labels, ","); got != "Watch,Leave" {
		t.Errorf("LayoutButtons = %s", got)
	}
}
