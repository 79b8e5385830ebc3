package x

// ALPHA-7 under testdata is skipped.
