import { EXAMPLE_ANSWER } from '../../src/main/core/generation/llm/example-task';
import type { LlmSlot } from '../../src/main/core/generation/llm/normalise';

/** The slot the shipped example fits (the LLM generator's tests answer with variants of it). */
export const SLOT: LlmSlot = {
  id: 7,
  family: 'ops',
  services: ['gmail', 'helpdesk'],
  category: 'operations',
  difficulty: 'medium',
  language: 'en',
  reference_date: '2026-04-10',
  scenario: 'cross_service',
  notes: 'VPN trouble',
};

/** The example with a change: what a model answers. */
export const answer = (over: Record<string, unknown> = {}) => ({ ...structuredClone(EXAMPLE_ANSWER), ...over });

/** Weights summing to 0.9: the structure parses, the weights validator fails. */
export const brokenWeights = () =>
  answer({ checks: EXAMPLE_ANSWER.checks.map((c) => (c.id === 'reported' ? { ...c, weight: 0.1 } : c)) });
