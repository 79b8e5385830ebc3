Feature: Decompression on every backend
  The decode backend of a batch is SelectDecodeBackend's, by the batch's pages stored compressed
  (same-filled and LZ4 pages; raw pages cross PCIe both ways whole and do not count). Into a page-locked
  PageBuffer of a Compressor with a GPU (DecompressBuffer) the GPU and the CPU decode batches of at least
  GPUMinDecodeBatch such pages, 4,000, together: the GPU the batch's first pages, which the DMA engine
  copies into the buffer, the CPU the others, in the share their measured speeds give. On the H200 host
  the shared batch led the 16-core CPU from 3,000 text pages and 5,000 mixed pages (4,100 compressed),
  was level on 3,000 mixed pages and on zero pages, and trailed at 1,000; on random pages the CPU led. Into Go memory
  (DecompressBatch) the CPU decodes, whatever the size: there the GPU, whose pages cross PCIe into
  staging memory and are copied again, was slower than the CPU at every size measured. The fast decoder
  runs in chunks over the workers (a small batch on the calling goroutine). Every backend decodes a
  batch to the same pages and the same *DecodeError.

  @API-25
  Scenario Outline: Decode batch sizes around every threshold
    When the decode backend is selected for <pages> compressed pages <destination>
    Then the backend is <backend>

    Examples:
      | pages  | destination                         | backend |
      | 0      | into a page-locked buffer on a GPU  | simd    |
      | 3      | into a page-locked buffer on a GPU  | simd    |
      | 2000   | into a page-locked buffer on a GPU  | simd    |
      | 3999   | into a page-locked buffer on a GPU  | simd    |
      | 4000   | into a page-locked buffer on a GPU  | gpu     |
      | 100000 | into a page-locked buffer on a GPU  | gpu     |
      | 3      | into Go memory                      | simd    |
      | 4000   | into Go memory                      | simd    |
      | 100000 | into Go memory                      | simd    |

  @API-25 @DOC-10 @FALS-10
  Scenario: The documentation's "2000+ pages" is not the decode threshold
    Given the documentation says GPU decompression is beneficial for "2000+ pages to decompress"
    When the decode backend is selected for 2000 compressed pages into a page-locked buffer on a GPU
    Then the backend is simd
    And the GPU decodes into a page-locked buffer from 4000 compressed pages, the crossover measured on the H200 host

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

  @gpu @API-25 @API-27 @API-29 @GPU-11 @RT-17
  Scenario: A large batch decodes alike on every backend and on the GPU into a page buffer
    Given a GPU batch compressor with the default configuration
    And a mixed batch of 96000 pages
    When the batch is compressed
    And page 11 is corrupted by dropping the last byte of its payload
    And the batch is decompressed on every backend
    Then every backend gives the same pages and the error naming pages 11
    When the batch is decompressed into a page buffer without waiting
    Then the buffer holds every other page decoded to the original, and the error names page 11
    And the GPU decoded the batch in the page buffer
    When the batch is decompressed into a page buffer
    Then the buffer holds every other page decoded to the original, and the error names page 11
    And the GPU and the CPU shared the batch in the page buffer
    And the GPU did not fall back to the CPU
