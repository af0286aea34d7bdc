// Probe q9: what the mod API gives on this client. Every observation is appended as one JSON
// line to $PROBE_MOD_LOG (through $.process.run, the same door baton's mod uses).
import type { EngineInterface, Register } from 'claude-code'

let logPath: string | undefined

async function log($: EngineInterface, kind: string, data: unknown): Promise<number> {
  logPath ??= (await $.env.get('PROBE_MOD_LOG')) ?? '/dev/null'
  const line = JSON.stringify({ kind, t: await $.clock.now(), data }) + '\n'
  const t0 = await $.clock.now()
  await $.process.run(['sh', '-c', 'cat >> "$0"', logPath], { stdin: line })
  return (await $.clock.now()) - t0
}

export const register: Register = on => {

  on('session.start', async ($, e, next) => {
    const r = await next(e)
    await log($, 'session.start', {
      e, id: await $.session.id(), root: $.plugin.root, name: $.plugin.name,
      usage: await $.session.usage(), tmpdir: await $.env.get('TMPDIR'),
    })
    return r
  })

  on('turn.step', async function* ($, e, next) {
    const t0 = await $.clock.now()
    const r = yield* next(e)
    void log($, 'turn.step', { e, usage: r.usage, stopReason: r.stopReason, ms: (await $.clock.now()) - t0 })
    return r
  })

  on('tool.call', async ($, e, next) => {
    const t0 = await $.clock.now()
    const r = await next(e)
    const t1 = await $.clock.now()
    const usage = await $.session.usage()
    const summary = await $.session.usage({ breakdown: 'summary' }).catch((x: Error) => ({ error: String(x) }))
    const agents = await $.agent.list()
    const runMs = await log($, 'tool.call', {
      tool: e.tool, tool_use_id: e.tool_use_id, agentId: e.agentId, nextMs: t1 - t0, usage,
      summary: (summary as any).context ? { ...(summary as any).context, breakdown: { ...(summary as any).context.breakdown, gridRows: undefined, categories: undefined } } : summary,
      agents,
    })
    await log($, 'process.run', { ms: runMs })
    if (r.deny !== undefined) return r
    return { ...r, context: [...(r.context ?? []), `PROBE-MOD-CTX tool=${e.tool_use_id} agent=${e.agentId ?? 'main'}`] }
  })

  on('agent.spawn', async ($, e, next) => {
    const r = await next({ ...e, prompt: `PROBE-MOD-SPAWN handoff text\n\n${e.prompt}` })
    await log($, 'agent.spawn', { e, r })
    return r
  })

  on('session.compact', async ($, e, next) => {
    const r = await next(e)
    await log($, 'session.compact', { e, r })
    return r
  })

  on('ui.render', { component: 'AgentRow' }, async ($, e, next) => {
    void log($, 'AgentRow', { props: e.props })
    return next({ ...e, props: { ...e.props, body: `\u001b[33mPROBE-ROW\u001b[0m ${e.props.type} ${e.props.tokenCount}/${e.props.contextWindowSize} cols=${e.props.columns}` } })
  })

  on('ui.render', { component: 'AbovePrompt' }, async ($, e, next) => {
    void log($, 'AbovePrompt', { props: { ...e.props, scroll: undefined } })
    const { Box, Text } = $.ui.resolve(e)
    return (
      <Box>
        <Text dimColor>{`PROBE-BAND cols=${e.props.bodyColumns} `}</Text>
        <Text color="green">green </Text>
        <Text color="#ff8700">orange </Text>
        <Text color="red">red</Text>
      </Box>
    )
  })

  on('ui.render', { component: 'StatusLine' }, async ($, e, next) => {
    void log($, 'StatusLine', { props: e.props })
    return next({ ...e, props: { ...e.props, text: `${e.props.text ?? ''} PROBE-SL cols=${e.props.columns}` } })
  })
}
