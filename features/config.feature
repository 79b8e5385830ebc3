Feature: Configuration
  DefaultConfig is the documented GpuBatchConfig; Validate rejects each bad field with its own
  message, wrapping ErrInvalidConfig, and both constructors validate first.

  @API-1 @DOC-5
  Scenario: The defaults are the documented GpuBatchConfig
    Given the documented GpuBatchConfig:
      | device_index      | 0    |
      | algorithm         | Lz4  |
      | batch_size        | 1000 |
      | async_dma         | true |
      | ring_buffer_slots | 4    |
    When I take the default configuration
    Then it equals the documented configuration
    And it is valid
    And a compressor made with it reports the same configuration

  @API-2
  Scenario Outline: Each invalid field is rejected, the message naming the field and its value
    Given the default configuration with <field> set to <value>
    Then validation fails with an error wrapping ErrInvalidConfig that names <field> and <value>
    And NewCompressor fails with the same error
    And NewGPUBatchCompressor fails with the same error, before looking for a GPU

    Examples:
      | field           | value   |
      | DeviceIndex     | -1      |
      | DeviceIndex     | -100    |
      | Algorithm       | 1       |
      | Algorithm       | -1      |
      | BatchSize       | 0       |
      | BatchSize       | -5      |
      | BatchSize       | 1398102 |
      | RingBufferSlots | 0       |
      | RingBufferSlots | -2      |
      | CPUWorkers      | -1      |

  @API-2
  Scenario: Each invalid field has its own message
    Then the default configuration with each of these fields set to -1 gives four different messages:
      | field           |
      | DeviceIndex     |
      | Algorithm       |
      | BatchSize       |
      | RingBufferSlots |

  @API-2
  Scenario Outline: The smallest valid values are accepted
    Given the default configuration with <field> set to <value>
    Then it is valid
    And NewCompressor accepts it

    Examples:
      | field           | value |
      | DeviceIndex     | 0     |
      | DeviceIndex     | 3     |
      | BatchSize       | 1     |
      | RingBufferSlots | 1     |
      | AsyncDMA        | false |
      | CPUWorkers      | 0     |
      | CPUWorkers      | 1     |

  @API-2
  Scenario: The first invalid field is the one reported
    Given the default configuration with DeviceIndex set to -1
    And BatchSize set to 0
    Then validation fails with an error wrapping ErrInvalidConfig that names DeviceIndex and -1
    But its message does not name BatchSize
