Feature: Round trip and page kinds
  A 4,096-byte page is stored same-filled (its 8-byte word), as a standard LZ4 block, or raw; every
  backend stores the reference codec's bytes, and decompression gives back the page.

  Background:
    Given a compressor with the default configuration

  @PAGE-1 @PAGE-2 @PAGE-3 @PAGE-4 @PAGE-5 @PAGE-6
  Scenario Outline: Each kind of page is stored as the spec says and comes back
    Given a batch of 1 <content> page
    When the batch is compressed
    Then page 0 is stored as <kind> with a payload of <length> bytes
    And every same-filled payload is its page's first 8 bytes and every raw payload is its page
    And every LZ4 page decodes with pierrec/lz4 to the original page
    And the batch decompresses to the original pages

    Examples:
      | content       | kind | length         |
      | zero          | same | 8              |
      | same-word     | same | 8              |
      | text          | lz4  | less than 3072 |
      | period-16     | lz4  | less than 3072 |
      | zero-but-last | lz4  | less than 3072 |
      | half-random   | lz4  | less than 3072 |
      | counter       | raw  | 4096           |
      | random        | raw  | 4096           |

  @PAGE-3
  Scenario: Same-filled means equal 8-byte words, as zram's page_same_filled
    Given a page whose 8-byte words all equal 0x0123456789abcdef
    And a page whose 4-byte words all equal 0x89abcdef except the last
    And a page of 16-byte period 0x00112233445566778899aabbccddeeff
    When the batch is compressed
    Then page 0 is stored as same with a payload of 8 bytes
    And page 1 is stored as lz4 with a payload of less than 3072 bytes
    And page 2 is stored as lz4 with a payload of less than 3072 bytes
    And the batch decompresses to the original pages

  @PAGE-5 @PAGE-4
  Scenario Outline: The raw threshold is a 3,072-byte block
    Given a page of <n> random bytes followed by zeros
    Then its canonical LZ4 block is <block> bytes long
    When the batch is compressed
    Then page 0 is stored as <kind> with a payload of <length> bytes
    And every LZ4 page decodes with pierrec/lz4 to the original page
    And the batch decompresses to the original pages

    Examples:
      | n    | block | kind | length |
      | 3043 | 3070  | lz4  | 3070   |
      | 3044 | 3071  | lz4  | 3071   |
      | 3045 | 3072  | raw  | 4096   |
      | 3046 | 3073  | raw  | 4096   |

  @PAGE-4 @API-16 @PARSE-8
  Scenario: A mixed batch round-trips with the reference codec's bytes
    Given a mixed batch of 999 pages
    When the batch is compressed
    Then the batch was compressed by simd
    And every page's kind and payload are those of reference.EncodePage
    And the batch holds 300 pages of each of the kinds same, lz4 and raw at least
    And every LZ4 page decodes with pierrec/lz4 to the original page
    And the batch decompresses to the original pages

  @PARSE-8 @API-16
  Scenario: Same bytes from every CPU backend, batch position and run
    Given a mixed batch of 1200 pages
    When the batch is compressed
    And the same pages are compressed again 3 at a time, on the scalar backend
    Then both compressions give the same bytes
    When the same pages are compressed again shifted by one place in the batch
    Then both compressions give the same bytes
    When the same pages are compressed again
    Then both compressions give the same bytes

  @API-19 @API-16
  Scenario: Parts started without waiting on buffers used in turn give the reference codec's bytes
    Given a mixed batch of 3000 pages
    When the batch is compressed in parts of 1000 pages through 2 page buffers in turn, each part started without waiting
    Then every page's kind and payload are those of reference.EncodePage
    And the batch decompresses to the original pages
