Feature: Batch results and statistics
  A BatchResult gives its throughput and compression ratio; a Compressor's Stats add up every batch.

  @API-6
  Scenario Outline: Throughput of a batch
    Given a batch result with total time <time>
    Then <bytes> input bytes give a throughput of <rate> bytes/s, that is <gbps> GB/s

    Examples:
      | time  | bytes   | rate       | gbps  |
      | 1ms   | 4096000 | 4096000000 | 4.096 |
      | 2s    | 4096    | 2048       | 0.000002048 |
      | 1ns   | 1       | 1000000000 | 1     |
      | 0s    | 4096000 | 0          | 0     |
      | -1ms  | 4096000 | 0          | 0     |

  @API-6
  Scenario: Throughput of a measured batch
    Given a compressor with the default configuration
    And a mixed batch of 1000 pages
    When the batch is compressed
    Then the batch's throughput is its input bytes over its total time

  @API-7 @PAGE-3 @PAGE-5
  Scenario Outline: Compression ratio of a batch
    Given a compressor with the default configuration
    And a batch of <pages> <content> pages
    When the batch is compressed
    Then the batch's compression ratio is <ratio>

    Examples:
      | pages | content   | ratio |
      | 2     | zero      | 512   |
      | 100   | same-word | 512   |
      | 10    | random    | 1     |
      | 0     | zero      | 1     |

  @API-7 @DOC-9
  Scenario Outline: The ratio is the data's, not the documented 3.87
    Given the documentation claims a CPU compression ratio of 3.87 without naming the data
    And a compressor with the default configuration
    And a batch of 100 <content> pages
    When the batch is compressed
    Then the batch's compression ratio is the pages' 4096 bytes each over the sum of the payload lengths
    And the batch's compression ratio is <relation> the documented figure

    Examples:
      | content     | relation   |
      | zero        | above      |
      | period-16   | above      |
      | text        | below      |
      | half-random | below      |
      | random      | below      |

  @API-8
  Scenario Outline: Statistics formulas
    Given statistics of <in> bytes in and <out> bytes out over <time>
    Then the statistics' compression ratio is <ratio>
    And the statistics' throughput is <gbps> GB/s

    Examples:
      | in          | out        | time | ratio | gbps |
      | 10000000000 | 2500000000 | 2s   | 4     | 5    |
      | 4096        | 8          | 1us  | 512   | 4.096 |
      | 4096        | 0          | 0s   | 1     | 0    |
      | 0           | 0          | 0s   | 1     | 0    |

  @API-14 @API-8 @API-6
  Scenario: Statistics accumulate across batches
    Given a compressor with the default configuration
    When it compresses a batch of 3 zero pages
    And it compresses a batch of 2 random pages
    Then the statistics count 5 pages compressed, 20480 bytes in and 8216 bytes out
    And the statistics' total time is the sum of the batches' total times
    And the statistics' compression ratio is 2.4927
    And the statistics' throughput is its bytes in over its total time
    When it decompresses the last batch
    Then the statistics count 2 pages decompressed
    And the statistics' total time is the sum of the batches' total times
    And the statistics' decompression time is more than 0

  @API-14
  Scenario: An empty batch adds nothing but its time
    Given a compressor with the default configuration
    When it compresses a batch of 0 zero pages
    Then the statistics count 0 pages compressed, 0 bytes in and 0 bytes out
    And the statistics' compression ratio is 1
