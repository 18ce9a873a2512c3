//go:build race

package commands

// raceEnabled: the race detector slows everything down several times;
// timing bounds allow for it.
const raceEnabled = true
