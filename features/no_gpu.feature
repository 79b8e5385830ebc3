@nogpu
Feature: Without a GPU
  On a machine without a supported CUDA GPU (no driver library, a driver that fails, no device), the GPU cannot be
  insisted on and every batch is compressed on the CPU. Skipped, visibly, where a GPU is present.

  @API-11
  Scenario: Insisting on the GPU fails
    When a GPU batch compressor is requested with the default configuration
    Then the request fails with an error wrapping ErrGPUNotAvailable
    And no CUDA device is listed as supported

  @API-11 @API-3
  Scenario: A compressor falls back to the CPU backends
    Given a compressor with the default configuration
    And a mixed batch of 1000 pages
    When the batch is compressed
    Then the batch was compressed by simd
    And every page's kind and payload are those of reference.EncodePage
    And the batch decompresses to the original pages

  @API-28
  Scenario: A GPU opening in the background fails later, and the CPU carries on
    Given a GPU batch compressor that opens its GPU in the background
    And a mixed batch of 1000 pages
    When the batch is compressed
    Then the batch was compressed by simd
    And every page's kind and payload are those of reference.EncodePage
    And waiting for the GPU gives an error wrapping ErrGPUNotAvailable
