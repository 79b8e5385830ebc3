Feature: The PCIe 5x rule
  The documentation offloads a batch to the GPU when "computation time > 5x transfer time".
  MeetsPCIeRule predicts it from a page count, a PCIe bandwidth and a GPU throughput:
  with d = pages x 4096 / 10^9 GB, the CPU path costs d/3 s and the GPU path 2d/pcie + d/gpu s,
  and the rule holds when d/3 > 5 x (2d/pcie + d/gpu). PCIeRuleSatisfied checks it on the timings
  of a measured batch.

  @API-4 @DOC-3
  Scenario: The documented example is beneficial
    Given the documentation's example meets_pcie_rule(10000, 64.0, 500.0), documented as "GPU offload beneficial"
    When 10000 pages are weighed on a PCIe 5.0 link of 64 GB/s and a GPU of 500 GB/s
    Then the PCIe rule holds, as documented

  @API-4 @DOC-6
  Scenario Outline: The rule on each PCIe generation
    When <pages> pages are weighed on a <link> link of <pcie> GB/s and a GPU of <gpu> GB/s
    Then the PCIe rule is <verdict>

    Examples: PCIe 3.0 x16 never satisfies it, whatever the GPU
      | pages  | link     | pcie | gpu     | verdict |
      | 10000  | PCIe 3.0 | 16   | 500     | false   |
      | 10000  | PCIe 3.0 | 16   | 1000000 | false   |
      | 10000  | PCIe 3.0 | 16   | 1e300   | false   |

    Examples: no link of 30 GB/s or less satisfies it, a faster one can
      | pages  | link   | pcie  | gpu   | verdict |
      | 10000  | 29 GB/s | 29   | 1e12  | false   |
      | 10000  | 29.99 GB/s | 29.99 | 1e300 | false |
      | 10000  | 30.01 GB/s | 30.01 | 1e12  | true  |

    Examples: PCIe 4.0 x16 needs a GPU faster than 240 GB/s
      | pages  | link     | pcie | gpu  | verdict |
      | 10000  | PCIe 4.0 | 32   | 100  | false   |
      | 10000  | PCIe 4.0 | 32   | 239  | false   |
      | 10000  | PCIe 4.0 | 32   | 241  | true    |
      | 10000  | PCIe 4.0 | 32   | 500  | true    |

    Examples: PCIe 5.0 x16 needs a GPU faster than about 28.2 GB/s
      | pages  | link     | pcie | gpu  | verdict |
      | 10000  | PCIe 5.0 | 64   | 28   | false   |
      | 10000  | PCIe 5.0 | 64   | 28.5 | true    |
      | 10000  | PCIe 5.0 | 64   | 500  | true    |

    Examples: PCIe 6.0 x16 needs a GPU faster than about 19.6 GB/s
      | pages  | link     | pcie | gpu  | verdict |
      | 10000  | PCIe 6.0 | 128  | 19.5 | false   |
      | 10000  | PCIe 6.0 | 128  | 19.7 | true    |

  @API-4
  Scenario Outline: Arguments that make no sense give false
    When <pages> pages are weighed on a <link> link of <pcie> GB/s and a GPU of <gpu> GB/s
    Then the PCIe rule is false

    Examples:
      | pages  | link                | pcie  | gpu  |
      | 0      | PCIe 5.0            | 64    | 500  |
      | -1     | PCIe 5.0            | 64    | 500  |
      | 10000  | dead                | 0     | 500  |
      | 10000  | negative            | -64   | 500  |
      | 10000  | NaN                 | NaN   | 500  |
      | 10000  | infinitely fast     | +Inf  | 500  |
      | 10000  | -Inf                | -Inf  | 500  |
      | 10000  | PCIe 5.0            | 64    | 0    |
      | 10000  | PCIe 5.0            | 64    | -500 |
      | 10000  | PCIe 5.0            | 64    | NaN  |
      | 10000  | PCIe 5.0            | 64    | +Inf |
      | 10000  | PCIe 5.0            | 64    | -Inf |

  @API-4 @DOC-2 @API-3
  Scenario: The documented "large batches" condition is not in the rule
    Given the documentation says GPU compression pays for "large batches" of 1000+ pages
    When the page count varies at 64 GB/s PCIe and 500 GB/s GPU throughput
    Then the PCIe rule gives the same verdict, true, for every page count:
      | pages   |
      | 1       |
      | 10      |
      | 999     |
      | 1000    |
      | 10000   |
      | 1000000 |
    And the verdict is false for 0 pages
    And at 16 GB/s PCIe the verdict is false for every one of those page counts
    And the documented batch size acts only through SelectBackend with a GPU: one page fewer selects simd, the documented size selects gpu

  @API-5
  Scenario Outline: The rule on a measured batch
    Given a batch result with H2D time <h2d>, kernel time <kernel> and D2H time <d2h>
    Then the measured PCIe rule is <verdict>

    Examples:
      | h2d | kernel | d2h | verdict |
      | 0s  | 0s     | 0s  | false   |
      | 0s  | 1ns    | 0s  | true    |
      | 1ms | 10ms   | 1ms | false   |
      | 1ms | 10001us | 1ms | true   |
      | 1ms | 11ms   | 1ms | true    |
      | 2ms | 5ms    | 0s  | false   |
      | 0s  | 50ms   | 10ms | false  |
      | 0s  | 51ms   | 10ms | true   |

  @API-5
  Scenario: A batch compressed on the CPU has all-zero transfer and kernel times
    Given a compressor with the default configuration
    And a batch of 4 text pages
    When the batch is compressed
    Then the batch was compressed by simd
    And its H2D, kernel and D2H times are zero
    And the measured PCIe rule is false

  @API-5 @API-7
  Scenario: An empty batch
    Given a compressor with the default configuration
    And an empty batch
    When the batch is compressed
    Then the batch was compressed by simd
    And its H2D, kernel and D2H times are zero
    And the measured PCIe rule is false
    And the batch's compression ratio is 1

  # d cancels from both sides, so the rule is evaluated as pcie × gpu > 15 × (2 gpu + pcie), where
  # these equal sides stay equal in floating point.
  @API-4 @DOC-6
  Scenario Outline: At exact equality the rule is false
    When <pages> pages are weighed on a <link> link of <pcie> GB/s and a GPU of <gpu> GB/s
    Then the PCIe rule is false

    Examples: 10/pcie + 5/gpu equal to 1/3, or above it by less than the rounding of the sides
      | pages | link     | pcie | gpu   |
      | 10000 | 30 GB/s  | 30   | 1e300 |
      | 1     | 30 GB/s  | 30   | 1e300 |
      | 10000 | PCIe 4.0 | 32   | 240   |
      | 10000 | 45 GB/s  | 45   | 45    |
      | 10000 | 40 GB/s  | 40   | 60    |

  # The rule's algebra (d cancels) excludes a verdict that changes with the page count.
  @API-4 @DOC-2
  Scenario Outline: At equality the verdict does not depend on the page count either
    When the page count varies at <pcie> GB/s PCIe and <gpu> GB/s GPU throughput
    Then the PCIe rule gives one verdict for every page count from 1 to 200000

    Examples:
      | pcie | gpu   |
      | 32   | 240   |
      | 30   | 1e300 |
      | 45   | 45    |
