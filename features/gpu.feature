@gpu
Feature: GPU round trips on the device
  On a machine with a supported CUDA GPU these scenarios run on the device;
  elsewhere they are listed as skipped.

  Background:
    Given a GPU batch compressor with the default configuration

  @API-11 @API-3 @API-16 @PARSE-8 @GPU-7 @PAGE-3 @PAGE-4 @PAGE-5 @DOC-8
  Scenario: A mixed batch compressed on the GPU gives the reference's bytes
    Given the documentation's status "GPU compression is currently blocked by NVIDIA PTX bug F082"
    And a mixed batch of 4096 pages
    When the batch is compressed
    Then the batch was compressed by gpu
    And every page's kind and payload are those of reference.EncodePage
    And every LZ4 page decodes with pierrec/lz4 to the original page
    And the batch decompresses to the original pages
    And the GPU did not fall back to the CPU
    And GPU compression was not blocked

  @API-16 @PARSE-8 @GPU-7 @PAGE-5
  Scenario Outline: Every kind of page on the GPU
    Given a batch of 1000 pages cycling through <contents>
    When the batch is compressed
    Then the batch was compressed by gpu
    And every page's kind and payload are those of reference.EncodePage
    And the batch decompresses to the original pages

    Examples:
      | contents                                                    |
      | zero                                                        |
      | same-word, zero-but-last                                    |
      | text, period-16                                             |
      | random, counter                                             |
      | random-prefix-3043, random-prefix-3044, random-prefix-3045  |

  @API-5 @API-6
  Scenario: GPU timings
    Given a mixed batch of 4096 pages
    When the batch is compressed
    Then the batch was compressed by gpu
    And its H2D, kernel, D2H and total times are all positive
    And the measured PCIe rule is kernel time > 5 x (H2D + D2H)
    And the batch's throughput is its input bytes over its total time

  @API-3
  Scenario Outline: Small batches stay on the CPU even with a GPU
    Given a batch of <pages> text pages
    When the batch is compressed
    Then the batch was compressed by <backend>
    And every page's kind and payload are those of reference.EncodePage

    Examples:
      | pages | backend |
      | 3     | simd    |
      | 999   | simd    |
      | 1000  | gpu     |

  @PARSE-8 @API-16
  Scenario: The GPU gives the same bytes as the CPU, run after run
    Given a mixed batch of 2000 pages
    When the batch is compressed
    And the same pages are compressed again 3 at a time, on the scalar backend
    Then both compressions give the same bytes
    When the same pages are compressed again
    Then both compressions give the same bytes
