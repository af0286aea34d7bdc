// The model loops of a session (the main conversation, each subagent) and the context each of
// their requests was answered over, exactly as the client counted it. No `$` here: the hooks in
// baton.tsx feed it, and baton decides what the figures mean.

import type { ModelUsage, TurnUsage } from 'claude-code'

/** The key of the main conversation's loop (a subagent's loop is keyed by its agent id). */
export const MAIN = 'main'
/** Requests kept per loop: baton's forecast reads the last nine. */
const KEPT = 16

/** One answered request: the context it was answered over and the model that answered. */
export type Step = {
  /** Input tokens, uncached, cache-written and cache-read: the context in use. */
  tokens: number
  model: string
  /** The loop's requests up to this one, oldest first, this one last. */
  requests: number[]
}

type Loop = {
  requests: number[]
  model?: string
  /** The request being answered now, or the last one answered. */
  current?: Promise<Step | undefined>
  /** baton's answer: below this many tokens this loop gets no warning. */
  quietBelow?: number
  /** The context when baton was last asked about a tool call. */
  lastAsked?: number
}

/** The context a request was answered over: what the API read, uncached or not. */
export function contextOf(usage: ModelUsage): number {
  return usage.input_tokens + usage.cache_creation_input_tokens + usage.cache_read_input_tokens
}

/** Every loop's requests, and which request a tool call of a loop came from. */
export class Loops {
  private readonly loops = new Map<string, Loop>()

  private of(loop: string): Loop {
    let found = this.loops.get(loop)
    if (found === undefined) {
      found = { requests: [] }
      this.loops.set(loop, found)
    }
    return found
  }

  /**
   * A request of `loop` is about to be sent. Returns what settles it: the usage the response
   * reported (null or undefined when none came). A tool call that starts before the response
   * has ended (the client runs a tool as soon as its block is whole) waits for it.
   */
  begin(loop: string): (usage: TurnUsage | null | undefined) => Step | undefined {
    const state = this.of(loop)
    let settle: (step: Step | undefined) => void = () => undefined
    state.current = new Promise(resolve => (settle = resolve))
    let settled = false
    return usage => {
      if (settled) return undefined
      settled = true
      const step = usage ? this.answered(state, usage) : undefined
      settle(step)
      return step
    }
  }

  private answered(state: Loop, usage: TurnUsage): Step {
    const tokens = contextOf(usage)
    state.requests.push(tokens)
    if (state.requests.length > KEPT) state.requests.splice(0, state.requests.length - KEPT)
    state.model = usage.model
    return { tokens, model: usage.model, requests: [...state.requests] }
  }

  /** The request a tool call of `loop` starting now belongs to (undefined before any). */
  current(loop: string): Promise<Step | undefined> | undefined {
    return this.loops.get(loop)?.current
  }

  /** The loop's requests so far, oldest first, and the model of the last. */
  history(loop: string): { requests: readonly number[]; model?: string } {
    const state = this.loops.get(loop)
    return { requests: state?.requests ?? [], model: state?.model }
  }

  /** The loop compacted: its earlier requests say nothing about its rate any more. */
  compacted(loop: string): void {
    const state = this.loops.get(loop)
    if (state !== undefined) {
      state.requests = []
      state.lastAsked = undefined
    }
  }

  /**
   * Whether baton is worth asking about a tool call at `tokens`: always until it said where
   * its warnings start, at or above that, and once more on the way back below it (so it can
   * re-arm its first warning).
   */
  worthAsking(loop: string, tokens: number): boolean {
    const state = this.of(loop)
    const quiet = state.quietBelow
    if (quiet === undefined || tokens >= quiet) return true
    return state.lastAsked !== undefined && state.lastAsked >= quiet
  }

  /** baton was asked at `tokens` and said it stays quiet below `quietBelow` tokens. */
  asked(loop: string, tokens: number, quietBelow: number | undefined): void {
    const state = this.of(loop)
    state.lastAsked = tokens
    state.quietBelow = quietBelow
  }
}
