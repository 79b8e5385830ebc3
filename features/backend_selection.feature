Feature: Backend selection
  SelectBackend(batchSize, gpuAvailable) picks the GPU for at least 1,000 pages when a GPU is
  available, and the SIMD backend (the fast codec) otherwise, whatever the size.

  @API-3 @API-13
  Scenario Outline: Batch sizes around every threshold
    When the backend is selected for <pages> pages <gpu>
    Then the backend is <backend>

    Examples: without a GPU
      | pages   | gpu               | backend |
      | -5      | without a GPU     | simd    |
      | 0       | without a GPU     | simd    |
      | 1       | without a GPU     | simd    |
      | 3       | without a GPU     | simd    |
      | 4       | without a GPU     | simd    |
      | 5       | without a GPU     | simd    |
      | 999     | without a GPU     | simd    |
      | 1000    | without a GPU     | simd    |
      | 1001    | without a GPU     | simd    |
      | 1000000 | without a GPU     | simd    |

    Examples: with a GPU
      | pages   | gpu               | backend |
      | -5      | with a GPU        | simd    |
      | 0       | with a GPU        | simd    |
      | 1       | with a GPU        | simd    |
      | 3       | with a GPU        | simd    |
      | 4       | with a GPU        | simd    |
      | 5       | with a GPU        | simd    |
      | 999     | with a GPU        | simd    |
      | 1000    | with a GPU        | gpu     |
      | 1001    | with a GPU        | gpu     |
      | 1000000 | with a GPU        | gpu     |

  @API-3 @DOC-4
  Scenario: The documented example selects the GPU
    Given the documentation's example select_backend(5000, true), documented to output "Gpu"
    When the backend is selected for 5000 pages with a GPU
    Then the backend is the documented one

  @API-3
  Scenario Outline: A compressor applies the selection to every batch
    Given a compressor with the default configuration
    And a batch of <pages> text pages
    When the batch is compressed
    Then the batch was compressed by <backend>
    And every page's kind and payload are those of reference.EncodePage

    Examples:
      | pages | backend |
      | 1     | simd    |
      | 3     | simd    |
      | 4     | simd    |
      | 999   | simd    |

  @API-13
  Scenario: Backend and page kind names
    Then the backends are named:
      | backend       | name   |
      | BackendScalar | scalar |
      | BackendSIMD   | simd   |
      | BackendGPU    | gpu    |
    And the page kinds are named:
      | kind     | code | name |
      | KindSame | 1    | same |
      | KindLZ4  | 2    | lz4  |
      | KindRaw  | 3    | raw  |
