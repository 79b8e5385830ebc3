Feature: Optimal batch size and supported devices
  DeviceInfo.OptimalBatchSize is 80% of the L2 cache counted in whole 4 KiB pages, rounded down:
  int(L2 / 4096) x 4 / 5 in integers, one formula for every GPU. A device is supported from compute
  capability 7.0 (the kernel needs match.sync).

  Background:
    Given the documentation's "Supported GPUs" table:
      | GPU      | Architecture | SM  | Optimal Batch |
      | H100     | Hopper       | 9.0 | 10,240 pages  |
      | A100     | Ampere       | 8.0 | 8,192 pages   |
      | RTX 4090 | Ada          | 8.9 | 14,745 pages  |
      | RTX 3090 | Ampere       | 8.6 | 6,144 pages   |

  @API-9 @API-10 @DOC-1
  Scenario Outline: Documented rows that follow the rule
    Given the <gpu> with <l2> MiB of L2 cache and compute capability <cc>
    Then its optimal batch is <pages> pages
    And the documentation's table gives the same figure and the same compute capability
    And it is supported

    Examples:
      | gpu      | l2 | cc  | pages |
      | H100     | 50 | 9.0 | 10240 |
      | A100     | 40 | 8.0 | 8192  |
      | RTX 4090 | 72 | 8.9 | 14745 |

  @API-9 @DOC-1
  Scenario: The RTX 3090 row contradicts the rule
    Given the RTX 3090 with 6 MiB of L2 cache and compute capability 8.6
    Then its optimal batch is 1228 pages
    But the documentation's table gives 6144 pages
    And a GPU would need 30 MiB of L2 cache for an optimal batch of 6144 pages
    And 6144 is 6 MiB divided by 1 KiB rather than by the 4 KiB page

  @API-9 @API-10
  Scenario Outline: Other GPUs, from their real L2 sizes
    Given the <gpu> with <l2> MiB of L2 cache and compute capability <cc>
    Then its optimal batch is <pages> pages
    And it is <support>

    Examples:
      | gpu         | l2   | cc  | pages | support       |
      | Tesla P100  | 4    | 6.0 | 819   | not supported |
      | GTX 1080 Ti | 2.75 | 6.1 | 563   | not supported |
      | Tesla V100  | 6    | 7.0 | 1228  | supported     |
      | Tesla T4    | 4    | 7.5 | 819   | supported     |
      | RTX 2080 Ti | 5.5  | 7.5 | 1126  | supported     |
      | A10         | 6    | 8.6 | 1228  | supported     |
      | RTX 3080    | 5    | 8.6 | 1024  | supported     |
      | L4          | 48   | 8.9 | 9830  | supported     |
      | RTX 4080    | 64   | 8.9 | 13107 | supported     |

  @API-9
  Scenario Outline: Rounding is done in whole pages, in integers
    Given a GPU with <l2> bytes of L2 cache
    Then its optimal batch is <pages> pages

    Examples:
      | l2       | pages |
      | 0        | 0     |
      | 4095     | 0     |
      | 8191     | 0     |
      | 8192     | 1     |
      | 28671    | 4     |
      | 20479    | 3     |
      | 20480    | 4     |
      | 4096000  | 800   |
      | 4100095  | 800   |

  @API-10
  Scenario Outline: Supported compute capabilities
    Given the documentation requires "CUDA-capable GPU with SM 7.0+"
    And a CUDA device of compute capability <cc>
    Then it is <support>
    And that agrees with the documented minimum

    Examples:
      | cc   | support       |
      | 5.2  | not supported |
      | 6.0  | not supported |
      | 6.1  | not supported |
      | 6.2  | not supported |
      | 7.0  | supported     |
      | 7.2  | supported     |
      | 7.5  | supported     |
      | 8.0  | supported     |
      | 8.6  | supported     |
      | 8.9  | supported     |
      | 9.0  | supported     |
      | 10.0 | supported     |
      | 12.0 | supported     |

  @API-10
  Scenario: A device that is not a CUDA device is not supported
    Given a device of compute capability 9.0 whose backend is not CUDA
    Then it is not supported
