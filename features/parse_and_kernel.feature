Feature: The canonical parse and the kernel layout
  Every backend emits the canonical LZ4 parse (spec/parse.md); the GPU kernel keeps the documented
  layout of one warp per page, four warps per block, 12 KiB of shared memory per warp.

  @PARSE-1
  Scenario Outline: The canonical hash keeps the top 11 bits of Knuth's product
    Given the 4 bytes <bytes>
    Then their canonical hash is <hash>

    Examples:
      | bytes       | hash |
      | 00 00 00 00 | 0    |
      | 01 00 00 00 | 1265 |
      | 61 62 63 64 | 792  |
      | ff ff ff ff | 782  |
      | 01 01 01 01 | 3    |
      | 2a 2a 2a 2a | 128  |

  @PARSE-1 @PARSE-10
  Scenario: The hash table and the page fit in a warp's 12 KiB
    Then the hash table has 2048 entries of 32 bits, 8192 bytes
    And one warp's shared memory is 12288 bytes: the table, then the 4096-byte page

  @PARSE-10 @DOC-7 @GPU-5
  Scenario: The kernel keeps the documented layout
    Given the documented kernel layout: 4 warps of 32 threads per block, one page per warp, 12 KiB of shared memory per warp, 48 KiB per block
    Then the kernel is launched with 128 threads per block and compresses 4 pages per block
    And every target's kernel declares exactly 49152 bytes of static shared memory
    And a batch of 4097 pages takes 1025 blocks

  @DOC-7 @GPU-4
  Scenario: The documented generic addressing is not used
    Given the documentation says the kernel uses "cvta.shared.u64 for generic addressing"
    Then no target's kernel converts a shared address to a generic one
    And every target's kernel addresses shared memory with .shared instructions

  @PARSE-11
  Scenario: The canonical parse compresses at least as well as pierrec/lz4
    Given a compressor with the default configuration
    And a batch of 600 pages cycling through zero, same-word, text, period-16, half-random, random
    When the batch is compressed
    Then the stored bytes are no more than pierrec/lz4's CompressBlock stores for the same pages, an incompressible page counting 4096
