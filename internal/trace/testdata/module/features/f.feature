@feature-tag
Feature: Fixture

  Background:
    Given nothing

  @BETA-1 @slow
  Scenario: Tagged scenario
    Given nothing

  # @ALPHA-1 in a comment is ignored
  Scenario Outline: Outline with tagged examples
    Given <x>

    @DELTA-5
    Examples:
      | x |
      | 1 |

  Scenario: Docstring
    Given text:
      """
      @ALPHA-2
      Scenario: not real
      """

  @BETA-3 @known-defect
  Scenario: Quarantined
    Given nothing

  @gpu @DEV-4
  Scenario: On the GPU
    Given nothing
