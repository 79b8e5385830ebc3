package pkg

// ALPHA-2 in a non-test file is not a citation.
