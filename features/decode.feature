Feature: Decompression on every backend
  DecompressBatch picks the backend of a batch with SelectDecodeBackend: the GPU for at least
  GPUMinDecodeBatch pages (10,000, provisional until the crossover with the 16-core CPU is measured on
  the H100) when one is available, the fast decoder in chunks over the workers otherwise (a small batch
  on the calling goroutine). Every backend decodes a batch to the same pages and the same *DecodeError.

  @API-25
  Scenario Outline: Decode batch sizes around every threshold
    When the decode backend is selected for <pages> pages <gpu>
    Then the backend is <backend>

    Examples:
      | pages  | gpu           | backend |
      | 0      | with a GPU    | simd    |
      | 3      | with a GPU    | simd    |
      | 4      | with a GPU    | simd    |
      | 2000   | with a GPU    | simd    |
      | 9999   | with a GPU    | simd    |
      | 10000  | with a GPU    | gpu     |
      | 100000 | with a GPU    | gpu     |
      | 10000  | without a GPU | simd    |
      | 100000 | without a GPU | simd    |

  @API-25 @DOC-10
  Scenario: The documentation's "2000+ pages" is not the decode threshold
    Given the documentation says GPU decompression is beneficial for "2000+ pages to decompress"
    When the decode backend is selected for 2000 pages with a GPU
    Then the backend is simd
    And the GPU decodes from 10000 pages, the provisional threshold the device run sets

  @API-26 @API-12 @GPU-11
  Scenario: Every backend decodes a damaged batch alike
    Given a compressor with the default configuration
    And a mixed batch of 300 pages
    When the batch is compressed
    And page 4 is corrupted by dropping the last byte of its payload
    And page 9 is corrupted by replacing its payload with a match whose offset is 0
    And the batch is decompressed on every backend
    Then every backend gives the same pages and the error naming pages 4, 9

  @API-27 @API-12
  Scenario: A batch decoded into a page buffer, waited for later
    Given a compressor with the default configuration
    And a mixed batch of 300 pages
    When the batch is compressed
    And page 7 is corrupted by dropping the last byte of its payload
    And the batch is decompressed into a page buffer without waiting
    Then the buffer holds every other page decoded to the original, and the error names page 7

  @gpu @API-25 @API-27 @GPU-11 @RT-17
  Scenario: A large batch decodes on the GPU, into Go memory and into a page buffer
    Given a GPU batch compressor with the default configuration
    And a mixed batch of 12000 pages
    When the batch is compressed
    And page 11 is corrupted by dropping the last byte of its payload
    And the batch is decompressed on every backend
    Then every backend gives the same pages and the error naming pages 11
    When the batch is decompressed into a page buffer without waiting
    Then the buffer holds every other page decoded to the original, and the error names page 11
    And the GPU did not fall back to the CPU
