// `claude plugin test .` (run by the suite: tests/install/plugin_mod.rs): the mod against the
// engine's own test host. Beneath it stand a session, its agents and a stand-in for baton (the
// `process.run` hook), so each test sees what the mod asked baton and what it did with the
// answer. What baton answers is baton's own business, tested in Rust and end to end.

import type { AgentInfo, On, ProcessRunResult, TurnUsage } from 'claude-code'
import { expect, mock, test } from 'claude-code/testing'
import type { Engine } from 'claude-code/testing'

const CWD = '/home/u/proj'
const TRANSCRIPT = '/home/u/.claude/projects/-home-u-proj/sess.jsonl'
const MODEL = 'claude-sonnet-4-5'

type Asked = { argv: readonly string[]; ask: Record<string, unknown> }

/** The clock of the world beneath the mod, which moves only when a test moves it. */
let clock: ReturnType<typeof mock.clock>

/** A response's usage holding `tokens` of context (most of it read from the cache). */
function usage(tokens: number): TurnUsage {
  return { input_tokens: tokens - 5000, cache_read_input_tokens: 4000, cache_creation_input_tokens: 1000, output_tokens: 20, model: MODEL }
}

/** An agent as `$.agent.list()` gives it. */
function agent(id: string, contextWindowSize: number): AgentInfo {
  return {
    id, description: 'write the migration', type: 'db-coding-agent', status: 'running', kind: 'local_agent',
    taskStatus: 'running', label: 'write the migration', startTime: 0, cwd: CWD, model: MODEL,
    contextWindowSize, tokenCount: 0, tokenSamples: [], hasRow: true,
  }
}

/**
 * The world beneath the mod: session `session`, a 200k window, `agents`, every tool answering
 * "ok", and baton answering each ask with `baton(ask)`. Returns what baton was asked.
 */
function world(
  on: On,
  session: string,
  baton: (ask: Record<string, unknown>) => unknown,
  agents: AgentInfo[] = [],
): Asked[] {
  clock = mock.clock(on)
  const asked: Asked[] = []
  on('session.id', () => ({ value: session }))
  on('session.cwd', () => ({ value: CWD }))
  on('session.info', () => ({ value: { transcriptPath: TRANSCRIPT } }))
  on('session.usage', () => ({ value: { startedAt: 0, context: { window: 200_000 }, rateLimits: [] } }))
  on('agent.list', () => ({ value: agents }))
  on('ui.invalidate', () => ({ value: undefined }))
  on('process.run', ($, e) => {
    const ask = JSON.parse(e.init?.stdin ?? '{}') as Record<string, unknown>
    asked.push({ argv: e.argv, ask })
    const answer = baton(ask)
    const ran: ProcessRunResult = {
      exitCode: 0, stdout: answer === undefined ? '' : JSON.stringify(answer), stderr: '',
      isStdoutTruncated: false, isStderrTruncated: false,
    }
    return { value: ran }
  })
  on('tool.call', () => ({ result: { stdout: 'ok', stderr: '', interrupted: false }, text: 'ok' }))
  return asked
}

/** Answers every model request beneath the mod with the next usage of `usages`. */
function responses(on: On, usages: TurnUsage[]): void {
  on('turn.step', async function* (_, e) {
    return { turnId: e.turnId, index: e.index, answer: '', toolUses: [], stopReason: 'tool_use', usage: usages.shift() ?? null }
  })
}

/** Runs one model request of `agentId`'s loop (the main one when absent) through the mod. */
async function step($: Engine, index: number, agentId?: string): Promise<void> {
  const stream = $.turn.step({ turnId: 'turn-1', index, model: MODEL, messageCount: 3 + index, agentId })
  for await (const _ of stream) {
    // the response's chunks: none here
  }
}

const toolAsks = (asked: Asked[]) => asked.filter(a => a.ask.event === 'tool').map(a => a.ask)

test('the context of the request that made a tool call goes to baton, and its warning to the model', async ($, on) => {
  const asked = world(on, 'sess-a', ask =>
    ask.event === 'start' ? { enabled: true } : ask.event === 'tool' ? { context: 'CONTEXT WARNING: from baton' } : {},
  )
  responses(on, [usage(130_000), usage(140_000)])
  await step($, 0)
  await step($, 1)
  const ran = await $.tool.call({ tool: 'Bash', command: 'echo hi' })

  expect(ran.context).toEqual(['CONTEXT WARNING: from baton'])
  expect(asked[0]?.argv.at(-1)).toBe('mod')
  expect(asked[0]?.ask).toEqual({ event: 'start', session_id: 'sess-a', cwd: CWD, transcript_path: TRANSCRIPT })
  expect(toolAsks(asked)).toEqual([
    expect.objectContaining({
      event: 'tool', session_id: 'sess-a', cwd: CWD, transcript_path: TRANSCRIPT, model: MODEL, window: 200_000,
      requests: [130_000, 140_000],
    }),
  ])
})

test("a subagent's tool call is judged on its own requests and its own window", async ($, on) => {
  const asked = world(on, 'sess-b', ask => (ask.event === 'start' ? { enabled: true } : {}), [agent('a1', 1_000_000)])
  responses(on, [usage(20_000), usage(300_000), usage(310_000)])
  await step($, 0)
  await step($, 0, 'a1')
  await step($, 1, 'a1')
  await $.tool.call({ tool: 'Bash', command: 'echo sub', agentId: 'a1' })

  expect(toolAsks(asked)).toEqual([
    expect.objectContaining({ agent_id: 'a1', window: 1_000_000, requests: [300_000, 310_000] }),
  ])
})

test('a tool call that starts before its response has ended waits for that response', async ($, on) => {
  const asked = world(on, 'sess-c', ask => (ask.event === 'start' ? { enabled: true } : {}))
  let finish: () => void = () => undefined
  let entered: () => void = () => undefined
  const ended = new Promise<void>(resolve => (finish = resolve))
  const sent = new Promise<void>(resolve => (entered = resolve))
  on('turn.step', async function* (_, e) {
    entered()
    await ended
    return { turnId: e.turnId, index: e.index, answer: '', toolUses: [], stopReason: 'tool_use', usage: usage(150_000) }
  })
  const streaming = step($, 0)
  await sent
  const call = $.tool.call({ tool: 'Bash', command: 'echo early' })
  finish()
  await streaming
  await call

  expect(toolAsks(asked)).toEqual([expect.objectContaining({ requests: [150_000] })])
})

test('below where baton said its warnings start it is not asked again, but once on the way back', async ($, on) => {
  const asked = world(on, 'sess-d', ask =>
    ask.event === 'start' ? { enabled: true } : ask.event === 'tool' ? { quiet_below_tokens: 129_001 } : {},
  )
  const levels = [100_000, 110_000, 130_000, 120_000, 121_000]
  responses(on, levels.map(usage))
  for (const [index] of levels.entries()) {
    await step($, index)
    await $.tool.call({ tool: 'Bash', command: `echo ${index}` })
  }

  const at = toolAsks(asked).map(a => (a.requests as number[]).at(-1))
  expect(at).toEqual([100_000, 130_000, 120_000])
})

test('the handoff baton gives goes before the starting subagent\'s task', async ($, on) => {
  const asked = world(on, 'sess-e', ask =>
    ask.event === 'start' ? { enabled: true } : ask.event === 'spawn' ? { context: 'baton bridge: the tables are users, orders' } : {},
  )
  responses(on, [usage(20_000)])
  const prompts: string[] = []
  on('agent.spawn', (_, e) => {
    prompts.push(e.prompt)
    return { model: MODEL, agentId: 'a2' }
  })
  await step($, 0)
  await $.agent.spawn({ prompt: 'Write the API for orders.', description: 'orders API', subagentType: 'backend-coding-agent' })

  expect(prompts).toEqual(['baton bridge: the tables are users, orders\n\nWrite the API for orders.'])
  expect(asked.find(a => a.ask.event === 'spawn')?.ask).toEqual({
    event: 'spawn', session_id: 'sess-e', cwd: CWD, agent_type: 'backend-coding-agent', description: 'orders API',
  })
})

/** The mod stays out of a session baton does not take: nothing asked past `start`, nothing changed. */
async function untouched($: Engine, on: On, session: string, started: unknown): Promise<void> {
  const asked = world(on, session, ask => (ask.event === 'start' ? started : { context: 'CONTEXT WARNING: never' }))
  responses(on, [usage(190_000)])
  const prompts: string[] = []
  on('agent.spawn', (_, e) => (prompts.push(e.prompt), { model: MODEL, agentId: 'a3' }))
  await step($, 0)
  const ran = await $.tool.call({ tool: 'Bash', command: 'echo hi' })
  await $.agent.spawn({ prompt: 'Do the thing.', description: 'thing', subagentType: 'general-purpose' })

  expect(ran.context ?? []).toEqual([])
  expect(prompts).toEqual(['Do the thing.'])
  expect(asked.map(a => a.ask.event)).toEqual(['start'])
}

test('without baton (it printed nothing) the mod changes nothing and the hooks speak', async ($, on) => {
  await untouched($, on, 'sess-f', undefined)
})

test("with the mod off in baton's config it changes nothing and the hooks speak", async ($, on) => {
  await untouched($, on, 'sess-g', { enabled: false })
})

test("a running subagent's row is baton's text for its own figures, fitted to the row", async ($, on) => {
  const asked = world(on, 'sess-h', ask =>
    ask.event === 'start' ? { enabled: true, rows: true } : ask.event === 'row' ? { body: 'db-coding-agent │ 62% ≈4 left' } : {},
  )
  responses(on, [usage(100_000), usage(112_000)])
  const bodies: (string | undefined)[] = []
  on('ui.render', { component: 'AgentRow' }, ($, e, next) => (bodies.push(e.props.body), next(e)))
  await step($, 0, 'a4')
  await step($, 1, 'a4')
  const ui = await $.ui.mount({
    plugin: 'baton', surface: 'terminal', component: 'AgentRow',
    props: { ...agent('a4', 200_000), rowIds: ['a4'], columns: 60, isHidden: false },
  })
  await ui.unmount()

  expect(bodies).toContain('db-coding-agent │ 62% ≈4 left')
  expect(asked.find(a => a.ask.event === 'row')?.ask).toEqual(
    expect.objectContaining({ columns: 60, agent_type: 'db-coding-agent', window: 200_000, requests: [100_000, 112_000] }),
  )
})

test("the band above the prompt draws baton's spans with their colours", async ($, on) => {
  const spans = [
    { text: '████████░░ 83%', color: 'red' },
    { text: ' ≈6 requests left before compaction', dimColor: true },
  ]
  const asked = world(on, 'sess-i', ask =>
    ask.event === 'start' ? { enabled: true, band: true } : ask.event === 'band' ? { spans } : {},
  )
  responses(on, [usage(150_000)])
  await step($, 0)
  const ui = await $.ui.mount({
    plugin: 'baton', surface: 'terminal', component: 'AbovePrompt',
    props: { hasSurvey: false, isCollapsed: false, isWorking: false, maxRows: 10, bodyColumns: 100, scroll: { top: 0, bodyRows: 10, contentRows: 1 }, view: {} },
  })
  const bar = await ui.find({ type: 'Text', text: '83%' })
  await ui.unmount()

  expect(bar?.props.color).toBe('red')
  expect(asked.find(a => a.ask.event === 'band')?.ask).toEqual(expect.objectContaining({ columns: 100, requests: [150_000] }))
})

test('a band baton gave no answer for is asked again at once, and again at the next drawing', async ($, on) => {
  const spans = [{ text: '████████░░ 83%', color: 'red' }]
  let bandAsks = 0
  // The first two asks go unanswered (as a timeout on a busy machine leaves them), then baton answers.
  const asked = world(on, 'sess-j', ask =>
    ask.event === 'start' ? { enabled: true, band: true } : ask.event === 'band' ? (++bandAsks > 2 ? { spans } : undefined) : {},
  )
  responses(on, [usage(150_000)])
  await step($, 0)
  const props = { hasSurvey: false, isCollapsed: false, isWorking: false, maxRows: 10, bodyColumns: 100, scroll: { top: 0, bodyRows: 10, contentRows: 1 }, view: {} }
  const first = await $.ui.mount({ plugin: 'baton', surface: 'terminal', component: 'AbovePrompt', props })
  await first.unmount()
  expect(bandAsks).toBe(2)
  const second = await $.ui.mount({ plugin: 'baton', surface: 'terminal', component: 'AbovePrompt', props })
  const bar = await second.find({ type: 'Text', text: '83%' })
  await second.unmount()

  expect(bar?.props.color).toBe('red')
  expect(asked.filter(a => a.ask.event === 'band')).toHaveLength(3)
})

test("/baton-window opens a pane that draws baton's chart of the conversation in view", async ($, on) => {
  const lines = [
    [{ text: '   1  10:01  ' }, { text: '██', color: 'green' }, { text: '   20k  baseline' }],
    [],
    [{ text: 'Largest in the live context:' }],
    [{ text: '  Read src/ledger_dump.sql  31k  40%' }],
  ]
  const asked = world(on, 'sess-k', ask =>
    ask.event === 'start' ? { enabled: true } : ask.event === 'window' ? { lines } : {},
  )
  const opened: string[] = []
  on('ui.open', (_, e) => (opened.push(e.id), { value: { isPlaced: true } }))
  on('session.start', (_, e) => ({ cwd: e.cwd }))
  responses(on, [usage(60_000)])
  await $.session.start({ cwd: CWD, surface: 'terminal', isInteractive: true })
  await step($, 0)
  const ran = await $.command.run({ command: 'baton-window', args: '' })
  const props = {
    title: 'Context', isFocused: false, bodyColumns: 72, placement: 'dock' as const,
    scroll: { offset: 0, bodyRows: 30 }, view: {},
  }
  const ui = await $.ui.mount({ plugin: 'baton', surface: 'terminal', component: 'Pane', requestId: 'baton-window', props })
  const bar = await ui.find({ type: 'Text', text: /^██$/ })
  const item = await ui.find({ type: 'Text', text: 'Read src/ledger_dump.sql' })
  await ui.unmount()

  expect(opened).toEqual(['baton-window'])
  expect(ran.text).toBe('the context chart is open.')
  expect(bar?.props.color).toBe('green')
  expect(item).toBeDefined()
  expect(asked.find(a => a.ask.event === 'window')?.ask).toEqual(
    expect.objectContaining({ session_id: 'sess-k', cwd: CWD, transcript_path: TRANSCRIPT, columns: 72, rows: 30, window: 200_000 }),
  )
})

test('the pane asks baton again after each response and once it is written, not for a redraw with nothing new', async ($, on) => {
  const lines = [[{ text: 'Largest in the live context:' }]]
  const asked = world(on, 'sess-l', ask => (ask.event === 'start' ? { enabled: true } : ask.event === 'window' ? { lines } : {}))
  on('ui.open', () => ({ value: { isPlaced: true } }))
  on('session.start', (_, e) => ({ cwd: e.cwd }))
  responses(on, [usage(60_000), usage(70_000)])
  await $.session.start({ cwd: CWD, surface: 'terminal', isInteractive: true })
  await step($, 0)
  await $.command.run({ command: 'baton-window', args: '' })
  const props = {
    title: 'Context', isFocused: false, bodyColumns: 72, placement: 'dock' as const,
    scroll: { offset: 0, bodyRows: 30 }, view: {},
  }
  const ui = await $.ui.mount({ plugin: 'baton', surface: 'terminal', component: 'Pane', requestId: 'baton-window', props })
  const windowAsks = () => asked.filter(a => a.ask.event === 'window').length
  const first = windowAsks()
  await ui.redraw()
  expect(windowAsks()).toBe(first)
  await step($, 1)
  await ui.redraw()
  const afterResponse = windowAsks()
  await clock.advance(1500)
  await ui.redraw()
  await ui.unmount()

  expect(first).toBeGreaterThan(0)
  expect(afterResponse).toBe(first + 1)
  expect(windowAsks()).toBe(first + 2) // once the client has written the response
})
