//go:build race

package fastlz4

// raceEnabled reports a build with the race detector, under which
// sync.Pool drops some of what it is given on purpose.
const raceEnabled = true
