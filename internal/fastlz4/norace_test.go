//go:build !race

package fastlz4

const raceEnabled = false
