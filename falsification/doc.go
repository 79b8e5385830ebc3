// Package falsification holds experiments that test, on a real GPU, the two
// PTX claims of the documentation lz4warp implements (spec/upstream.md
// DOC-8): F081, that storing to global memory a value loaded from shared
// memory crashes, and F082, that storing to a global address computed from
// a value loaded from shared memory crashes.
//
// Each Experiment is a hypothesis with a prediction, a kernel built by
// internal/ptx (or a recorded textual edit of one, where the point is a
// malformed pattern), the one factor it varies from its claim's baseline,
// the outcome ptxas gives, and the outcome recorded on the device. Without a
// GPU the tests check that every kernel assembles or is rejected as
// recorded; with the cuda build tag they launch every kernel and fail when
// an outcome differs from the recorded one (spec/falsification.md).
package falsification
