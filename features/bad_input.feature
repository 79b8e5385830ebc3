Feature: Corrupt compressed pages
  DecompressBatch decodes every page it can; each page it cannot decode is named, by its index in the
  batch, in a *DecodeError that matches ErrCorrupt. A destination shorter than the batch is refused.

  Background:
    Given a compressor with the default configuration
    And a mixed batch of 12 pages
    And the batch is compressed

  @API-12 @PAGE-6 @PAGE-2
  Scenario Outline: One corrupt page is named and the rest of the batch is decoded
    When page <index> is corrupted by <corruption>
    And the batch is decompressed
    Then the error names pages <index> and no other
    And the error matches ErrCorrupt
    And every other page is decoded to the original

    Examples: wrong payload lengths
      | index | corruption                              |
      | 0     | dropping the last byte of its payload   |
      | 1     | appending a byte to its payload         |
      | 2     | dropping the last byte of its payload   |
      | 3     | appending a byte to its payload         |
      | 4     | dropping the last byte of its payload   |
      | 10    | emptying its payload                    |

    Examples: wrong kinds
      | index | corruption                     |
      | 6     | setting its kind to 0          |
      | 7     | setting its kind to 4          |
      | 8     | setting its kind to 255        |
      | 8     | setting its kind to raw        |
      | 10    | setting its kind to same       |
      | 10    | setting its kind to lz4        |

    Examples: malformed or wrong-sized LZ4 blocks
      | index | corruption                                                  |
      | 2     | replacing its payload with a valid LZ4 block of 100 bytes   |
      | 5     | replacing its payload with a valid LZ4 block of 4097 bytes  |
      | 8     | replacing its payload with a match whose offset is 0        |
      | 9     | replacing its payload with a match reaching before the page |
      | 11    | replacing its payload with a token promising 15 literals    |

  @API-12
  Scenario: Several corrupt pages are all named, in order
    When page 9 is corrupted by dropping the last byte of its payload
    And page 2 is corrupted by setting its kind to 0
    And page 4 is corrupted by emptying its payload
    And the batch is decompressed
    Then the error names pages 2, 4, 9 and no other
    And the error matches ErrCorrupt
    And every other page is decoded to the original

  @API-12
  Scenario: A destination shorter than the batch is refused and nothing is decoded
    When the batch is decompressed into 11 pages
    Then the error matches ErrShortBuffer
    And no destination page was written

  @API-12
  Scenario: A destination longer than the batch is fine
    When the batch is decompressed into 13 pages
    Then the batch decompressed without error
    And every other page is decoded to the original
    And destination page 12 was not written
